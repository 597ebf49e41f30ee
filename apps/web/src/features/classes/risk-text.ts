import {
  englishRiskWords,
  type RiskColumn,
  type RiskItem,
  riskCells,
} from "@gradecast/contract/class-risk";
import { catalogueRiskWords, riskSourceKey } from "@gradecast/contract/risk-words";
import type { InputSource } from "@gradecast/contract/school-record";
import { useFormats } from "../../components/use-formats.ts";
import { useT } from "../../i18n/intl.tsx";

// The risk list's data in the page's language (issue 33): the contract's cells (riskCells), in
// English with the contract's own text, in Portuguese with the shared catalogue's words
// (risk-words.ts, as the CSV export writes them): columns as the Portuguese CSV names them,
// answers as the questionnaire words them, numbers with a decimal comma, days as 20/11/2026.

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
export function useRiskText() {
  const { intl, t } = useT();
  const formats = useFormats();
  const english = intl.locale === "en";
  const words = english
    ? englishRiskWords
    : catalogueRiskWords({
        t,
        number: formats.number,
        oneDecimal: (v) =>
          intl.formatNumber(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
        score: formats.score,
        percent: (share) => intl.formatNumber(share, { style: "percent" }),
        day: (day) => formats.day(day),
      });

  return {
    t,
    english,
    formats,
    column: (c: RiskColumn) => (english ? c : t(columnKeys[c])),
    input: words.input,
    reason: words.reason,
    /** One row's cells, in the order of the contract's columns (the CSV export's too). */
    cells: (item: RiskItem) => riskCells(item, words),
    source: (s: InputSource) => t(riskSourceKey(s)),
  };
}
