// CSV of RFC 4180 for every export (reports, the class risk list): CRLF line ends, fields
// holding a comma, a quote or a line break quoted with their quotes doubled. A cell that a
// spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage return)
// gets a leading apostrophe, so opening an export never runs anything.
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && formulaStart.test(text)) text = `'${text}`;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
