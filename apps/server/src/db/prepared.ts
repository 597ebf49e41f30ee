import { Memo } from "../memo.ts";

// Statements sent on most calls (the signed-in user's row, a page of reports, a stored
// prediction) are prepared once per PostgreSQL connection under a name, so the server parses
// and plans them once instead of on every call. Measured with the pg driver on the project's
// machine: the user read went from 68 to 33 µs of PostgreSQL CPU and from 117 to 52 µs of
// ours. A text is registered here only when one plan suits every parameter value: after five
// runs PostgreSQL may keep a generic plan for a named statement, and for a name search (a LIKE
// on a parameter) that plan walks the whole date index for a rare name (64 ms instead of
// 0.5 ms), so searches stay unnamed and are planned for their own value. PGlite ignores this.

const names = new Memo<string, string>((_text, registered) => `gradecast_${registered + 1}`);

/** Registers a fixed SQL text to be prepared by name; returns the text unchanged. */
export function prepared(text: string): string {
  names.get(text);
  return text;
}

/** The statement name of a registered text, or undefined. */
export function preparedName(text: string): string | undefined {
  return names.peek(text);
}
