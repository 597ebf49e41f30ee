import { otherAnswersFeature, type RiskReason, type RiskWords } from "./class-risk.ts";
import type { ModelSetup } from "./prediction.ts";
import { type QuestionKey, questionByKey } from "./questionnaire.ts";
import type { InputSource, RecordInputKey } from "./school-record.ts";

// The risk list's words in a language other than English (issue 33), from the shared catalogue
// (locales/<locale>/risk.json and questionnaire.json): the screen builds them with the page's
// FormatJS, the server with its own for the CSV export, so both write the same cells.

/** What a language gives: its messages and its number and day formats (Intl). */
export interface CatalogueFormats {
  t: (id: string, values?: Record<string, string | number>) => string;
  /** A whole or decimal number as the language writes it ("12,5"). */
  number: (value: number) => string;
  /** A number with exactly one decimal ("2,1"). */
  oneDecimal: (value: number) => string;
  score: (value: number) => string;
  percent: (share: number) => string;
  day: (day: string) => string;
}

const inputKeys: Record<RecordInputKey, string | null> = {
  G1: null,
  G2: null,
  absences: "risk.input.absences",
  failures: "risk.input.failures",
};
const sourceKeys: Record<InputSource, string> = {
  school: "risk.source.school",
  student: "risk.source.student",
};
const modelKeys: Record<ModelSetup, string> = {
  A: "risk.model.A",
  B: "risk.model.B",
  C: "risk.model.C",
};

export function catalogueRiskWords(f: CatalogueFormats): RiskWords {
  const { t } = f;
  const reason = (r: RiskReason) => {
    const effect = `${r.effect >= 0 ? "+" : "-"}${f.oneDecimal(Math.abs(r.effect))}`;
    if (r.feature === otherAnswersFeature) {
      return t("risk.reason.noValue", { label: t("risk.otherAnswers"), effect });
    }
    const label = t(`questionnaire.${r.feature}.label`);
    if (r.value === null) return t("risk.reason.noValue", { label, effect });
    const option = questionByKey[r.feature as QuestionKey]?.options.find(
      (o) => o.value === r.value,
    );
    const value =
      option && option.label !== String(r.value)
        ? t(`questionnaire.${r.feature}.option.${r.value}`)
        : typeof r.value === "number"
          ? f.number(r.value)
          : String(r.value);
    return t("risk.reason", { label, value, effect });
  };
  return {
    yes: t("risk.yes"),
    no: t("risk.no"),
    notAnswered: t("risk.notAnswered"),
    updating: t("risk.updating"),
    reasonsEarlierModel: t("risk.reasonsEarlierModel"),
    differs: t("risk.differs"),
    input: (key, value, source) => {
      const label = inputKeys[key];
      return t("risk.input", {
        label: label ? t(label) : key,
        value: value === null ? t("risk.input.notKnown") : f.number(value),
        source: t(sourceKeys[source]),
      });
    },
    reason,
    model: (setup) => t(modelKeys[setup]),
    score: f.score,
    percent: f.percent,
    day: f.day,
  };
}

/** The source's word alone ("escola"), as the list's tags show it. */
export const riskSourceKey = (source: InputSource) => sourceKeys[source];
