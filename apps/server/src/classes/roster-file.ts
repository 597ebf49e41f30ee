import {
  classLimits,
  classMessages,
  type RosterRow,
  rosterEmail,
  rosterLimits,
  rosterLineKey,
} from "@gradecast/contract/classes";
import { isSingleLine, singleLineMessage } from "@gradecast/contract/text";
import { parse as parseCsv } from "csv-parse/sync";

// A roster file: UTF-8 CSV with the header `name,email` and up to 1,000 rows. Every line is
// checked and every bad one named (its line number and the reason), so a teacher corrects the
// whole file at once; the service refuses the file whole if any line is bad.

const utf8 = new TextDecoder("utf-8", { fatal: true });

export interface ParsedRoster {
  rows: RosterRow[];
  /** Bad lines: "line 3" → reason; "file" for the file as a whole. */
  errors: Record<string, string>;
}

export function parseRosterFile(bytes: Buffer): ParsedRoster {
  const fail = (reason: string): ParsedRoster => ({ rows: [], errors: { file: reason } });
  if (bytes.length > rosterLimits.bytes) return fail(classMessages.rosterTooLarge);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail(classMessages.rosterNotUtf8);
  }
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes with where it ended (its last line).
    records = parseCsv(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: false,
      // Files saved on Windows, macOS and Linux, or edited by hand into a mix of them.
      record_delimiter: ["\r\n", "\n", "\r"],
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return {
      rows: [],
      errors: { [line ? rosterLineKey(line) : "file"]: classMessages.rosterNotCsv },
    };
  }

  const errors: Record<string, string> = {};
  const rows: RosterRow[] = [];
  let endOfPrevious = 0;
  const lined = records.map(({ record, info }) => {
    // A record starts on the line after the previous one ended (a quoted name may span lines).
    const line = endOfPrevious + 1;
    endOfPrevious = info.lines;
    return { record, line };
  });
  const [header, ...body] = lined;
  const headerCells = header?.record.map((c) => c.trim().toLowerCase()) ?? [];
  if (headerCells.length !== 2 || headerCells[0] !== "name" || headerCells[1] !== "email") {
    return { rows: [], errors: { [rosterLineKey(header?.line ?? 1)]: classMessages.rosterHeader } };
  }
  const filled = body.filter(({ record }) => !(record.length === 1 && record[0]?.trim() === ""));
  if (filled.length === 0) return fail(classMessages.rosterEmpty);
  if (filled.length > rosterLimits.rows) return fail(classMessages.rosterTooMany);

  const firstLineOf = new Map<string, number>();
  for (const { record, line } of filled) {
    const key = rosterLineKey(line);
    if (record.length !== 2) {
      errors[key] = classMessages.rosterColumns;
      continue;
    }
    const name = (record[0] ?? "").trim().normalize("NFC");
    const email = rosterEmail(record[1] ?? "");
    if (name === "") errors[key] = classMessages.rosterNameRequired;
    else if (/[\n\r\u2028\u2029]/.test(name)) errors[key] = classMessages.rosterNameMultiline;
    else if (!isSingleLine(name)) errors[key] = singleLineMessage;
    else if (name.length > classLimits.name) errors[key] = classMessages.rosterNameLong;
    else if (!email) errors[key] = classMessages.rosterEmailInvalid;
    if (errors[key] || !email) continue;
    const first = firstLineOf.get(email);
    if (first !== undefined) {
      errors[key] = classMessages.rosterDuplicate(first);
      continue;
    }
    firstLineOf.set(email, line);
    rows.push({ line, name, email });
  }
  return { rows, errors };
}
