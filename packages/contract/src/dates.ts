// One date format on every screen and in every export (issue 28): the day, the short month and
// the year ("27 Nov 2026"), and with the time "27 Nov 2026, 14:05". The screens show the
// reader's time; an export written by the server says which zone it uses (UTC).

const dayOptions = { day: "numeric", month: "short", year: "numeric" } as const;
const timeOptions = { ...dayOptions, hour: "2-digit", minute: "2-digit", hour12: false } as const;

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(options: Intl.DateTimeFormatOptions, timeZone: string | undefined) {
  const key = `${JSON.stringify(options)}|${timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", timeZone ? { ...options, timeZone } : options);
    formats.set(key, format);
  }
  return format;
}

/** "27 Nov 2026" (a date of YYYY-MM-DD is that day, whatever the zone). */
export function formatDay(value: string | Date, timeZone?: string): string {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return formatOf(dayOptions, "UTC").format(new Date(`${value}T00:00:00Z`));
  }
  return formatOf(dayOptions, timeZone).format(new Date(value));
}

/** "27 Nov 2026, 14:05". */
export function formatDayTime(value: string | Date, timeZone?: string): string {
  return formatOf(timeOptions, timeZone).format(new Date(value));
}
