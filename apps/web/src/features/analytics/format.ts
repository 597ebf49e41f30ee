import { formatDay, formatDayTime } from "@gradecast/contract/dates";
import type { Locale } from "@gradecast/contract/locale-tags";

// Numbers and dates of the teacher's screens, in the page's language: 12.5 and "27 Nov 2026,
// 14:05" in English (the contract's one format of every screen), 12,5 and "27/11/2026, 14:05"
// in Portuguese. Dates in the reader's time.

export function formatNumber(value: number, digits = 0, locale?: Locale): string {
  return new Intl.NumberFormat(locale, {
    maximumFractionDigits: digits,
    minimumFractionDigits: 0,
  }).format(value);
}

const ptDay = { day: "2-digit", month: "2-digit", year: "numeric" } as const;
const ptTime = { ...ptDay, hour: "2-digit", minute: "2-digit", hour12: false } as const;

export function formatDate(iso: string, locale: Locale = "en"): string {
  if (locale === "en") return formatDay(iso);
  if (/^\d{4}-\d{2}-\d{2}$/.test(iso)) {
    return new Intl.DateTimeFormat(locale, { ...ptDay, timeZone: "UTC" }).format(
      new Date(`${iso}T00:00:00Z`),
    );
  }
  return new Intl.DateTimeFormat(locale, ptDay).format(new Date(iso));
}

export function formatDateTime(iso: string, locale: Locale = "en"): string {
  if (locale === "en") return formatDayTime(iso);
  return new Intl.DateTimeFormat(locale, ptTime).format(new Date(iso));
}
