import {
  classLimits,
  classMessages,
  type RosterRow,
  rosterEmail,
  rosterLimits,
  rosterLineKey,
  rosterLineReason,
} from "@gradecast/contract/classes";
import { isSingleLine, singleLineMessage } from "@gradecast/contract/text";
import { decodeUtf8, delimiterOf, readRecords } from "../csv/read.ts";

// A roster file: UTF-8 CSV (a BOM is fine) with the header `name,email` and up to 1,000 rows,
// separated by commas or, as spreadsheets save them where the comma is the decimal sign, by
// semicolons: the header says which. Every line is checked and every bad one named (its line
// number, the reason and the text refused), so a teacher corrects the whole file at once; the
// service refuses the file whole if any line is bad.
//
// The file is read a slice at a time (csv/read.ts), letting other requests run in between.

/** Records read after the header, blank ones included, before the file is refused as too long. */
const maxRecords = 2 * rosterLimits.rows;

export interface ParsedRoster {
  rows: RosterRow[];
  /** Bad lines: "line 3" → reason; "file" for the file as a whole. */
  errors: Record<string, string>;
}

export async function parseRosterFile(bytes: Buffer): Promise<ParsedRoster> {
  const fail = (reason: string): ParsedRoster => ({ rows: [], errors: { file: reason } });
  if (bytes.length > rosterLimits.bytes) return fail(classMessages.rosterTooLarge);
  const text = decodeUtf8(bytes);
  if (text === undefined) return fail(classMessages.rosterNotUtf8);
  const delimiter = delimiterOf(text);
  const read = await readRecords(text, delimiter, maxRecords);
  if ("tooMany" in read) return fail(classMessages.rosterTooMany);
  if ("badLine" in read) {
    return {
      rows: [],
      errors: { [read.badLine ? rosterLineKey(read.badLine) : "file"]: classMessages.rosterNotCsv },
    };
  }

  const errors: Record<string, string> = {};
  const rows: RosterRow[] = [];
  const [header, ...body] = read.records;
  const headerCells = header?.record.map((c) => c.trim().toLowerCase()) ?? [];
  if (headerCells.length !== 2 || headerCells[0] !== "name" || headerCells[1] !== "email") {
    const shown = header?.record.join(delimiter) ?? "";
    return {
      rows: [],
      errors: {
        [rosterLineKey(header?.line ?? 1)]: header
          ? rosterLineReason(classMessages.rosterHeader, shown)
          : classMessages.rosterHeader,
      },
    };
  }
  // Lines whose every value is blank (",", " ; ") are left out, as empty lines are.
  const filled = body.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (filled.length === 0) return fail(classMessages.rosterEmpty);
  if (filled.length > rosterLimits.rows) return fail(classMessages.rosterTooMany);

  const firstLineOf = new Map<string, number>();
  for (const { record, line } of filled) {
    const key = rosterLineKey(line);
    if (record.length !== 2) {
      errors[key] = rosterLineReason(classMessages.rosterColumns, record.join(delimiter));
      continue;
    }
    const rawName = record[0] ?? "";
    const rawEmail = record[1] ?? "";
    const name = rawName.trim().normalize("NFC");
    const email = rosterEmail(rawEmail);
    if (name === "")
      errors[key] = rosterLineReason(classMessages.rosterNameRequired, record.join(delimiter));
    else if (/[\n\r\u2028\u2029]/.test(name))
      errors[key] = rosterLineReason(classMessages.rosterNameMultiline, name);
    else if (!isSingleLine(name)) errors[key] = rosterLineReason(singleLineMessage, name);
    else if (name.length > classLimits.name)
      errors[key] = rosterLineReason(classMessages.rosterNameLong, name);
    else if (!email) errors[key] = rosterLineReason(classMessages.rosterEmailInvalid, rawEmail);
    if (errors[key] || !email) continue;
    const first = firstLineOf.get(email);
    if (first !== undefined) {
      errors[key] = rosterLineReason(classMessages.rosterDuplicate(first), email);
      continue;
    }
    firstLineOf.set(email, line);
    rows.push({ line, name, email });
  }
  return { rows, errors };
}
