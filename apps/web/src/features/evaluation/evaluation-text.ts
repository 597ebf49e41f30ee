import { type Subject, subjectLabels } from "@gradecast/contract/classes";
import {
  type EvaluationFigure,
  type EvaluationGroup,
  type EvaluationMeasure,
  type EvaluationSetup,
  evaluationMessages,
  formatEvaluationFigure,
  groupKindLabels,
  measureInfo,
  minGroupSize,
  setupLabels,
} from "@gradecast/contract/evaluation";
import { useMemo } from "react";
import { type MessageValues, type PageIntl, useIntl } from "../../i18n/intl.tsx";

// How the model did (issue 29) in the page's language (issue 33). The setups, measures, group
// kinds and the sentence beside a worse figure are the contract's (the server writes the same
// sentence, the CSV the same names): English shows the contract's own text; Portuguese the
// catalogue's, by the contract's identifiers, with its figures written by Intl (2,36; 80 %).

const setupKeys: Record<EvaluationSetup, string> = {
  A: "evaluation.setup.A",
  B: "evaluation.setup.B",
  C: "evaluation.setup.C",
};
const measureKeys: Record<EvaluationMeasure, { label: string; explain: string }> = {
  rmse: { label: "evaluation.measure.rmse.label", explain: "evaluation.measure.rmse.explain" },
  mae: { label: "evaluation.measure.mae.label", explain: "evaluation.measure.mae.explain" },
  accuracy: {
    label: "evaluation.measure.accuracy.label",
    explain: "evaluation.measure.accuracy.explain",
  },
  brier: { label: "evaluation.measure.brier.label", explain: "evaluation.measure.brier.explain" },
  auc: { label: "evaluation.measure.auc.label", explain: "evaluation.measure.auc.explain" },
  coverage: {
    label: "evaluation.measure.coverage.label",
    explain: "evaluation.measure.coverage.explain",
  },
};
const groupKindKeys: Record<EvaluationGroup["kind"], string> = {
  version: "evaluation.groupKind.version",
  class: "evaluation.groupKind.class",
  sex: "evaluation.groupKind.sex",
  age: "evaluation.groupKind.age",
  address: "evaluation.groupKind.address",
};
/** The groups the server names in words; the others are names or figures (a class, "15-16"). */
const groupLabelKeys: Partial<Record<string, string>> = {
  Female: "evaluation.group.Female",
  Male: "evaluation.group.Male",
  Urban: "evaluation.group.Urban",
  Rural: "evaluation.group.Rural",
};
const subjectKeys: Record<Subject, string> = {
  mat: "questionnaire.subject.option.mat",
  por: "questionnaire.subject.option.por",
};

export function useEvaluationText() {
  const intl = useIntl();
  return useMemo(() => evaluationText(intl), [intl]);
}

export function evaluationText(intl: PageIntl) {
  const english = intl.locale === "en";
  const t = (id: string, values?: MessageValues) => intl.formatMessage({ id }, values);
  const fixed = (v: number, digits: number) =>
    english
      ? v.toFixed(digits)
      : intl.formatNumber(v, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  /** A share as a whole percent: "80 %". */
  const percent = (v: number) =>
    english
      ? `${Math.round(v * 100)} %`
      : t("evaluation.percent", { value: intl.formatNumber(Math.round(v * 100)) });
  const figure = (m: EvaluationMeasure, v: number) =>
    english
      ? formatEvaluationFigure(m, v)
      : measureInfo[m].percent
        ? percent(v)
        : fixed(v, m === "brier" ? 3 : 2);
  const label = (m: EvaluationMeasure) =>
    english ? measureInfo[m].label : t(measureKeys[m].label);
  return {
    intl,
    t,
    /** A count in a sentence: "1000" in English (as the page always wrote it), "1000" or "10 000". */
    count: (n: number) => (english ? String(n) : intl.formatNumber(n)),
    fixed,
    percent,
    /** A figure or "—" when there is none. */
    show: (m: EvaluationMeasure, v: number | null) => (v === null ? "—" : figure(m, v)),
    setup: (s: EvaluationSetup) => (english ? setupLabels[s] : t(setupKeys[s])),
    label,
    explain: (m: EvaluationMeasure) =>
      english ? measureInfo[m].explain : t(measureKeys[m].explain),
    /** The sentence beside a worse figure: the server's in English, the catalogue's otherwise. */
    note: (f: EvaluationFigure) =>
      english || f.value === null || f.expected === null
        ? f.note
        : t("evaluation.worse", {
            measure: label(f.measure),
            value: figure(f.measure, f.value),
            expected: figure(f.measure, f.expected),
          }),
    groupKind: (k: EvaluationGroup["kind"]) => (english ? groupKindLabels[k] : t(groupKindKeys[k])),
    groupLabel: (l: string) => {
      const key = groupLabelKeys[l];
      return english || !key ? l : t(key);
    },
    groupsHidden: (n: number) =>
      english
        ? evaluationMessages.groupsHidden(n)
        : t("evaluation.groups.hidden", { count: n, min: minGroupSize }),
    empty: () => (english ? evaluationMessages.empty : t("evaluation.empty.body")),
    subject: (s: Subject) => (english ? subjectLabels[s] : t(subjectKeys[s])),
  };
}
