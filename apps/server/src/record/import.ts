import {
  type RecordField,
  recordFields,
  recordImportLimits,
  recordLineKey,
  recordMessages,
  recordRanges,
  satTexts,
} from "@gradecast/contract/school-record";
import { decimalOf, decodeUtf8, delimiterOf, readRecords } from "../csv/read.ts";

// A gradebook file: UTF-8 CSV (a BOM is fine), comma or semicolon separated, figures with a
// decimal point or comma, whose header names
// `email` and any of the value columns (G1, G2, absences, failures, G3, sat, in any order and
// case). Each row names an enrolled student by email; a blank cell leaves the value as it is.
// Every line is checked and every bad one named, so a teacher corrects the whole file at once;
// the service refuses the file whole if any line is bad.

/** Records read after the header, blank ones included, before the file is refused as too long. */
const maxRecords = 2 * recordImportLimits.rows;

/** One row of the file: the student and the values it gives (blank cells left out). */
export interface RecordFileRow {
  line: number;
  student: { id: string; name: string; email: string };
  values: Partial<Record<RecordField, number | boolean>>;
}

export interface ParsedRecordFile {
  rows: RecordFileRow[];
  /** Bad lines: "line 3" → reason; "file" for the file as a whole. */
  errors: Record<string, string>;
}

const fieldByName = new Map<string, RecordField>(recordFields.map((f) => [f.toLowerCase(), f]));
const satYes = new Set<string>(satTexts.yes);
const satNo = new Set<string>(satTexts.no);

/** A cell's value for its field, or the reason it is refused. */
function cellValue(
  field: RecordField,
  text: string,
): { value: number | boolean } | { error: string } {
  if (field === "sat") {
    const said = text.toLowerCase().replace(/\s+/g, " ");
    if (satYes.has(said)) return { value: true };
    if (satNo.has(said)) return { value: false };
    return { error: recordMessages.satValue };
  }
  const { min, max } = recordRanges[field];
  // Whole numbers, written with a decimal point or comma or neither ("14", "14,0", "14.0").
  const n = decimalOf(text) ?? Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    return { error: recordMessages.valueRange(field) };
  return { value: n };
}

/** The address as accounts hold it: trimmed, lower case. */
export const importEmail = (text: string) => text.trim().toLowerCase();

/**
 * Reads the file against the class's enrolled students (by email). A line is refused for an
 * unknown or repeated email, a bad value or the wrong number of values.
 */
export async function parseRecordFile(
  bytes: Buffer,
  students: readonly { id: string; name: string; email: string }[],
): Promise<ParsedRecordFile> {
  const fail = (key: string, reason: string): ParsedRecordFile => ({
    rows: [],
    errors: { [key]: reason },
  });
  if (bytes.length > recordImportLimits.bytes) return fail("file", recordMessages.importTooLarge);
  const text = decodeUtf8(bytes);
  if (text === undefined) return fail("file", recordMessages.importNotUtf8);
  const delimiter = delimiterOf(text);
  const read = await readRecords(text, delimiter, maxRecords);
  const tooMany = recordMessages.importTooManyRows(recordImportLimits.rows);
  if ("tooMany" in read) return fail("file", tooMany);
  if ("badLine" in read) {
    return fail(read.badLine ? recordLineKey(read.badLine) : "file", recordMessages.importNotCsv);
  }

  const [header, ...body] = read.records;
  if (!header) return fail(recordLineKey(1), recordMessages.importHeader);
  const headerKey = recordLineKey(header.line);
  const columns: (RecordField | "email")[] = [];
  for (const raw of header.record) {
    const name = raw.trim();
    const column = name.toLowerCase() === "email" ? "email" : fieldByName.get(name.toLowerCase());
    if (!column) {
      return fail(
        headerKey,
        name === "" ? recordMessages.importHeader : recordMessages.importUnknownColumn(name),
      );
    }
    if (columns.includes(column)) return fail(headerKey, recordMessages.importRepeatedColumn(name));
    columns.push(column);
  }
  const emailAt = columns.indexOf("email");
  if (emailAt < 0) return fail(headerKey, recordMessages.importHeader);
  if (columns.length < 2) return fail(headerKey, recordMessages.importNoValueColumn);

  // Lines whose every cell is blank (",,", " ; ") are left out, as empty lines are.
  const filled = body.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (filled.length === 0) return fail("file", recordMessages.importEmpty);
  if (filled.length > recordImportLimits.rows) return fail("file", tooMany);

  const byEmail = new Map(students.map((s) => [importEmail(s.email), s]));
  const firstLineOf = new Map<string, number>();
  const errors: Record<string, string> = {};
  const rows: RecordFileRow[] = [];
  for (const { record, line } of filled) {
    const key = recordLineKey(line);
    if (record.length !== columns.length) {
      errors[key] = recordMessages.importColumns(columns.length, record.length);
      continue;
    }
    const email = importEmail(record[emailAt] ?? "");
    const student = byEmail.get(email);
    if (!student) {
      errors[key] = recordMessages.importUnknownEmail;
      continue;
    }
    const first = firstLineOf.get(email);
    if (first !== undefined) {
      errors[key] = recordMessages.importDuplicateEmail(first);
      continue;
    }
    firstLineOf.set(email, line);
    const values: RecordFileRow["values"] = {};
    for (let i = 0; i < columns.length; i += 1) {
      const field = columns[i];
      const cell = (record[i] ?? "").trim();
      if (field === undefined || field === "email" || cell === "") continue;
      const checked = cellValue(field, cell);
      if ("error" in checked) {
        errors[key] = checked.error;
        break;
      }
      values[field] = checked.value;
    }
    if (!errors[key]) rows.push({ line, student, values });
  }
  return { rows, errors };
}
