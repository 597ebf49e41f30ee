import type { Locale } from "@gradecast/contract/locale-tags";
import { formatScore } from "@gradecast/contract/score";
import { type ReactNode, useMemo } from "react";
import { formatsOf } from "../../components/use-formats.ts";
import {
  createIntl,
  type MessageValues,
  type PageIntl,
  type RichValues,
  useIntlOrNull,
} from "../../i18n/intl.tsx";
import type { Messages } from "../../i18n/types.ts";
import analytics from "../../locales/en/analytics.json";
import { formatDate, formatDateTime, formatNumber } from "./format.ts";

// How the analytics report and its charts write their words and figures in the page's language
// (issue 33): English as it always has (12.5, "27 Nov 2026, 14:05"); Portuguese through the
// catalogue and Intl (12,5, 27/11/2026). The charts' builders are plain functions: given no
// intl (their tests, a part drawn on its own) they speak English, from this area's catalogue.

let english: PageIntl | undefined;
const englishIntl = () => {
  english ??= createIntl("en", analytics as Messages);
  return english;
};

export interface ReportText {
  intl: PageIntl;
  locale: Locale;
  english: boolean;
  t: (id: string, values?: MessageValues) => string;
  /** A message with tags (`<b>…</b>`) given as elements. */
  rich: (id: string, values: RichValues) => ReactNode;
  /** A figure with at most `digits` decimals: 71.5 or 71,5. */
  number: (value: number, digits?: number) => string;
  /** A score out of 20 with one decimal: 12.5 or 12,5. */
  score: (value: number) => string;
  date: (iso: string) => string;
  dateTime: (iso: string) => string;
}

export function reportText(intl: PageIntl = englishIntl()): ReportText {
  const en = intl.locale === "en";
  // English keeps the platform's default number format, as the report always wrote it.
  const numberLocale = en ? undefined : intl.locale;
  return {
    intl,
    locale: intl.locale,
    english: en,
    t: (id, values) => intl.formatMessage({ id }, values),
    rich: (id, values) => intl.formatMessage({ id }, values),
    number: (value, digits = 0) => formatNumber(value, digits, numberLocale),
    score: en ? formatScore : formatsOf(intl).score,
    date: (iso) => formatDate(iso, intl.locale),
    dateTime: (iso) => formatDateTime(iso, intl.locale),
  };
}

/** The page's report text; English outside a provider. */
export function useReportText(): ReportText {
  const intl = useIntlOrNull() ?? englishIntl();
  return useMemo(() => reportText(intl), [intl]);
}
