// The sort keys inside page cursors come back from clients. Each must be a value PostgreSQL
// accepts for its column: otherwise a crafted cursor fails in the database (a 500) instead of
// being refused as a bad cursor (a 400).

const timestamp =
  /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2}$/;

/** A timestamptz as PostgreSQL writes it as text ("2025-09-01 08:00:00.123456+00"), a real date. */
export function isTimestampText(text: string): boolean {
  const m = timestamp.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const bigintMax = 9223372036854775807n;

/** A positive bigint, as text. */
export function isBigintText(text: string): boolean {
  return /^[0-9]{1,19}$/.test(text) && BigInt(text) <= bigintMax;
}

/** Text PostgreSQL can hold (no NUL), of at most `max` characters. */
export function isTextKey(text: string, max: number): boolean {
  return text.length <= max && !text.includes("\u0000");
}
