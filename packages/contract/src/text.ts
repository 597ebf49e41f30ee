// What typed text may hold. Names and other one-line fields are printed in emails, lists and
// CSV files: a line break there lets a registrant write their own lines into a genuine email,
// and bidirectional overrides make a name read differently from what it is.

/** Control characters (C0 and C1), and the bidirectional embeddings, overrides and isolates. */
const controls = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
const lineBreaks = /[\n\r\u2028\u2029]/;

export const singleLineMessage = "Use one line of letters, numbers, spaces and punctuation.";
export const plainTextMessage = "Remove the control characters from this text.";

/** True for text fit for a one-line field. */
export function isSingleLine(text: string): boolean {
  return !controls.test(text) && !lineBreaks.test(text);
}

/** True for text fit for a multi-line field: line breaks and tabs allowed, other controls not. */
export function isPlainText(text: string): boolean {
  return !controls.test(text.replace(/[\t\n\r]/g, ""));
}
