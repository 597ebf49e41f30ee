import { messages } from "@gradecast/contract/messages";
import { invalid } from "./domain-errors.ts";

// Page cursors: base64url of a JSON array of text parts (the sort keys and the row's id). The
// parts come back from clients, so each is checked against what its column accepts:
// otherwise a crafted cursor fails in the database (a 500) instead of being refused (a 400).

export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** The parts of a cursor, one per check, each passing its check; otherwise a 400. */
export function decodeCursor(
  cursor: string,
  checks: readonly ((part: string) => boolean)[],
): string[] {
  const bad = () => invalid(messages.cursorInvalid, { cursor: messages.cursorInvalid });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== checks.length) throw bad();
  const ok = value.every((part, i) => typeof part === "string" && checks[i]?.(part));
  if (!ok) throw bad();
  return value as string[];
}

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

/**
 * A page of at most `limit` items, read as `limit + 1` rows: a row past the page says there is a
 * next one, which starts after the page's last row (its cursor).
 */
export function pageOf<R, T>(
  rows: readonly R[],
  limit: number,
  item: (row: R) => T,
  cursorAfter: (last: R) => string,
): { items: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(item),
    nextCursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null,
  };
}
