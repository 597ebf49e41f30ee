import { englishRiskWords, type RiskWords } from "@gradecast/contract/class-risk";
import type { Locale } from "@gradecast/contract/locale";
import { catalogueRiskWords } from "@gradecast/contract/risk-words";
import { shownScore } from "@gradecast/contract/score";
import { Memo } from "../memo.ts";
import { intlOf } from "./translate.ts";

// The risk list's cells in the CSV's language: the same words the screen writes (contract
// risk-words.ts), with the file's decimal comma. Days stay YYYY-MM-DD, which every spreadsheet
// reads as a date whatever its language (as in every other export).
const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;

const words = new Memo<Locale, RiskWords>((locale) => {
  if (locale === "en") return englishRiskWords;
  const intl = intlOf(locale);
  return catalogueRiskWords({
    t: (id, values) => intl.formatMessage({ id }, values),
    number: (v) => intl.formatNumber(v),
    oneDecimal: (v) => intl.formatNumber(v, oneDecimal),
    score: (v) => intl.formatNumber(shownScore(v), oneDecimal),
    percent: (share) => intl.formatNumber(share, { style: "percent" }),
    day: (day) => day,
  });
});

/** The words of the risk list's cells in `locale`. */
export const riskWordsOf = (locale: Locale): RiskWords => words.get(locale);
