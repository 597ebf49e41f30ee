import type { Locale } from "@gradecast/contract/locale";
import { csvHeaderText } from "../i18n/translate.ts";

// CSV of RFC 4180 for every export (reports, the class risk list, the evaluation, the data
// export's tables): CRLF line ends, fields holding the delimiter, a quote or a line break quoted
// with their quotes doubled. A cell that a spreadsheet would read as a formula (starting with =,
// +, -, @, a tab or a carriage return) gets a leading apostrophe, so opening an export never runs
// anything.
//
// Issue 33: a file is written for the spreadsheet of the caller's language. English: commas and
// decimal points. European Portuguese: a spreadsheet set to Portuguese splits on semicolons and
// reads 12,5 as a number, so there the delimiter is ";" and decimals take a comma. Both start
// with a byte-order mark, which makes Excel read the file as UTF-8. Imports (read.ts) take
// either delimiter and either decimal sign.
const formulaStart = /^[=+\-@\t\r]/;

export interface CsvFormat {
  locale: Locale;
  delimiter: "," | ";";
  decimal: "." | ",";
}

export const englishCsv: CsvFormat = { locale: "en", delimiter: ",", decimal: "." };
const portugueseCsv: CsvFormat = { locale: "pt-PT", delimiter: ";", decimal: "," };

/** The CSV a spreadsheet in this language opens as a table. */
export function csvFormatOf(locale: Locale): CsvFormat {
  return locale === "pt-PT" ? portugueseCsv : englishCsv;
}

/** The byte-order mark every export starts with. */
export const bom = "\uFEFF";

// Text that is only a figure, a range or a percentage ("12.5", "11.2-13.4", "85.5%"): its
// decimal points are decimal signs. Dates (2026-11-28) have none; times with letters never match.
const numericText = /^\d[\d.]*(%|-\d[\d.]*)?$/;

function withDecimal(text: string, decimal: "." | ","): string {
  return decimal === "." ? text : text.replace(/(\d)\.(\d)/g, `$1${decimal}$2`);
}

export function csvCell(
  value: string | number | null | undefined,
  format: CsvFormat = englishCsv,
): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (typeof value === "number") text = withDecimal(String(value), format.decimal);
  else if (numericText.test(value)) text = withDecimal(value, format.decimal);
  else text = formulaStart.test(value) ? `'${value}` : value;
  const needsQuotes = text.includes(format.delimiter) || text.includes('"') || /[\r\n]/.test(text);
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(
  values: readonly (string | number | null | undefined)[],
  format: CsvFormat = englishCsv,
): string {
  return `${values.map((v) => csvCell(v, format)).join(format.delimiter)}\r\n`;
}

/** The header line: each column's name in the file's language (the csv catalogue). */
export function csvHeaderRow(columns: readonly string[], format: CsvFormat = englishCsv): string {
  return csvRow(
    columns.map((column) => csvHeaderText(column, format.locale)),
    format,
  );
}
