import {
  otherAnswersFeature,
  type RiskColumn,
  type RiskItem,
  type RiskReason,
  reasonText,
  riskCells,
  riskInputText,
} from "@gradecast/contract/class-risk";
import type { ModelSetup } from "@gradecast/contract/prediction";
import { type QuestionKey, questionByKey } from "@gradecast/contract/questionnaire";
import {
  type InputSource,
  type RecordInputKey,
  recordInputKeys,
} from "@gradecast/contract/school-record";
import { useFormats } from "../../components/use-formats.ts";
import { type MessageValues, useIntl } from "../../i18n/intl.tsx";

// The risk list's data in the page's language (issue 33). English is the contract's own text,
// the same cells as the CSV export (riskCells, reasonText); Portuguese writes the same parts
// through the catalogue: columns as the Portuguese CSV names them, answers as the questionnaire
// words them, numbers with a decimal comma, days as 20/11/2026.

const columnKeys: Record<RiskColumn, string> = {
  Student: "csv.reports.student",
  "At risk": "csv.risk.atRisk",
  "Predicted final": "csv.risk.predicted",
  "80% interval": "csv.risk.interval",
  "Record inputs": "csv.risk.inputs",
  "Risk of not sitting the final": "csv.risk.noFinal",
  Model: "csv.risk.model",
  "Answered on": "csv.risk.answeredOn",
  "Predicted on": "csv.risk.predictedOn",
  Reasons: "csv.risk.reasons",
  "Latest note": "csv.risk.latestNote",
  "Follow-up": "csv.risk.followUp",
};
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

export function useRiskText() {
  const intl = useIntl();
  const formats = useFormats();
  const t = (id: string, values?: MessageValues) => intl.formatMessage({ id }, values);
  const english = intl.locale === "en";

  const input = (key: RecordInputKey, value: number | null, source: InputSource) =>
    english
      ? riskInputText(key, value, source)
      : t("risk.input", {
          label: inputKeys[key] ? t(inputKeys[key]) : key,
          value: value === null ? t("risk.input.notKnown") : formats.number(value),
          source: t(sourceKeys[source]),
        });

  const reason = (r: RiskReason) => {
    if (english) return reasonText(r);
    const abs = intl.formatNumber(Math.abs(r.effect), {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
    const effect = `${r.effect >= 0 ? "+" : "-"}${abs}`;
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
          ? formats.number(r.value)
          : String(r.value);
    return t("risk.reason", { label, value, effect });
  };

  /** One row's cells, in the order of the contract's columns. */
  const cells = (item: RiskItem): string[] => {
    if (english) return riskCells(item);
    const figure = !item.updating;
    const inputs = item.inputs
      ? recordInputKeys.map((k) => input(k, item.inputs![k].value, item.inputs![k].source))
      : [];
    if (item.differs) inputs.push(t("risk.differs"));
    const row = [
      item.name,
      item.answered && !item.updating ? t(item.atRisk ? "risk.yes" : "risk.no") : "",
      item.updating
        ? t("risk.updating")
        : item.prediction === null
          ? t("risk.notAnswered")
          : formats.score(item.prediction),
      figure && item.interval
        ? `${formats.score(item.interval.low)}-${formats.score(item.interval.high)}`
        : "",
      inputs.join("; "),
      figure && item.noFinalScoreRisk !== null
        ? intl.formatNumber(item.noFinalScoreRisk, { style: "percent" })
        : "",
      figure && item.modelSetup ? t(modelKeys[item.modelSetup]) : "",
      item.answeredAt ? formats.day(item.answeredAt.slice(0, 10)) : "",
      figure && item.predictedAt ? formats.day(item.predictedAt.slice(0, 10)) : "",
      !figure
        ? ""
        : item.reasons === null
          ? item.answered
            ? t("risk.reasonsEarlierModel")
            : ""
          : item.reasons.map(reason).join("; "),
    ];
    if (item.notes === null) return row;
    const note = item.notes[0];
    return [
      ...row,
      note ? `${formats.day(note.doneOn)}: ${note.action}` : "",
      note?.followUpOn ? formats.day(note.followUpOn) : "",
    ];
  };

  return {
    t,
    english,
    formats,
    column: (c: RiskColumn) => (english ? c : t(columnKeys[c])),
    input,
    reason,
    cells,
    source: (s: InputSource) => t(sourceKeys[s]),
  };
}
