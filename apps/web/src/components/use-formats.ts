import { formatDay, formatDayTime } from "@gradecast/contract/dates";
import { formatScore, shownScore } from "@gradecast/contract/score";
import { type PageIntl, useIntl } from "../i18n/intl.tsx";

// The screens' one way to write dates (contract dates.ts: "27 Nov 2026", "27 Nov 2026, 14:05")
// and scores (contract score.ts: "12.5") in the page's language: English keeps the contract's
// own; Portuguese gets the same parts through Intl ("27/11/2026, 14:05", "12,5").
const day = { day: "numeric", month: "short", year: "numeric" } as const;
const dayTime = { ...day, hour: "2-digit", minute: "2-digit", hour12: false } as const;
const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;

export interface Formats {
  day: (value: string | Date) => string;
  dayTime: (value: string | Date) => string;
  score: (value: number) => string;
  number: (value: number) => string;
}

export function useFormats(): Formats {
  return formatsOf(useIntl());
}

/** The same formats from a given intl (a part rendered outside the page's provider). */
export function formatsOf(intl: PageIntl): Formats {
  const number = (v: number) => intl.formatNumber(v);
  if (intl.locale === "en") {
    return {
      day: (v) => formatDay(v),
      dayTime: (v) => formatDayTime(v),
      score: formatScore,
      number,
    };
  }
  return {
    day: (v) =>
      typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? intl.formatDate(`${v}T00:00:00Z`, { ...day, timeZone: "UTC" })
        : intl.formatDate(v, day),
    dayTime: (v) => intl.formatDate(v, dayTime),
    score: (v) => intl.formatNumber(shownScore(v), oneDecimal),
    number,
  };
}
