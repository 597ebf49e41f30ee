import { formatDay, formatDayTime } from "@gradecast/contract/dates";
// Numbers and dates of the report, in the reader's locale.
export function formatNumber(value: number, digits = 0): string {
  return new Intl.NumberFormat(undefined, {
    maximumFractionDigits: digits,
    minimumFractionDigits: 0,
  }).format(value);
}

// Dates in the one format of every screen (the contract's), in the reader's time.
export function formatDate(iso: string): string {
  return formatDay(iso);
}

export function formatDateTime(iso: string): string {
  return formatDayTime(iso);
}
