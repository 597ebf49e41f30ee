import { formatDay, formatDayTime } from "@gradecast/contract/dates";
import { useIntl } from "../i18n/intl.tsx";

// The screens' one date format (contract dates.ts: "27 Nov 2026", "27 Nov 2026, 14:05") in the
// page's language: English keeps the contract's own; Portuguese gets the same parts through Intl
// (the platform's own for pt-PT: "27/11/2026, 14:05").
const day = { day: "numeric", month: "short", year: "numeric" } as const;
const dayTime = { ...day, hour: "2-digit", minute: "2-digit", hour12: false } as const;

export function useDates(): {
  day: (value: string | Date) => string;
  dayTime: (value: string | Date) => string;
} {
  const intl = useIntl();
  if (intl.locale === "en") return { day: (v) => formatDay(v), dayTime: (v) => formatDayTime(v) };
  return {
    day: (v) =>
      typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? intl.formatDate(`${v}T00:00:00Z`, { ...day, timeZone: "UTC" })
        : intl.formatDate(v, day),
    dayTime: (v) => intl.formatDate(v, dayTime),
  };
}
