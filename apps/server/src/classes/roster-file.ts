import { setImmediate as nextTurn } from "node:timers/promises";
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
import { type InfoRecord, type Parser, parse } from "csv-parse";

// A roster file: UTF-8 CSV (a BOM is fine) with the header `name,email` and up to 1,000 rows,
// separated by commas or, as spreadsheets save them where the comma is the decimal sign, by
// semicolons: the header says which. Every line is checked and every bad one named (its line
// number, the reason and the text refused), so a teacher corrects the whole file at once; the
// service refuses the file whole if any line is bad.
//
// The file is parsed a slice at a time, letting other requests run in between, and parsing
// stops as soon as the file has more lines than a roster may (issue 26: 512 KB of line breaks,
// parsed whole, held the server for 17 s).

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Characters parsed before other requests get a turn: about a millisecond of work. */
const slice = 16 * 1024;
/** Records read after the header, blank ones included, before the file is refused as too long. */
const maxRecords = 2 * rosterLimits.rows;

export interface ParsedRoster {
  rows: RosterRow[];
  /** Bad lines: "line 3" → reason; "file" for the file as a whole. */
  errors: Record<string, string>;
}

/** The separator the header line uses: a semicolon when it has more of them than commas. */
export function delimiterOf(text: string): "," | ";" {
  const end = text.search(/[\r\n]/);
  const header = end < 0 ? text : text.slice(0, end);
  const count = (c: string) => header.split(c).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

interface Lined {
  record: string[];
  line: number;
}

/**
 * The file's records with the line each starts on, read a slice at a time; "too many" as soon
 * as there are more than `maxRecords` after the header, without reading the rest.
 */
async function readRecords(
  text: string,
  delimiter: string,
): Promise<{ records: Lined[] } | { tooMany: true } | { badLine: number | undefined }> {
  const records: Lined[] = [];
  let endOfPrevious = 0;
  let emptyBefore = 0;
  let failure: { lines?: number } | undefined;
  const parser: Parser = parse({
    delimiter,
    info: true,
    relax_column_count: true,
    // Empty lines are skipped (and counted, for the line numbers of what follows).
    skip_empty_lines: true,
    // Files saved on Windows, macOS and Linux, or edited by hand into a mix of them.
    record_delimiter: ["\r\n", "\n", "\r"],
    on_record: (data: unknown) => {
      const { record, info } = data as { record: string[]; info: InfoRecord };
      // A record starts on the line after the previous one ended, past any empty lines (a quoted
      // name may span lines).
      const line = endOfPrevious + 1 + (info.empty_lines - emptyBefore);
      endOfPrevious = info.lines;
      emptyBefore = info.empty_lines;
      records.push({ record, line });
      return null;
    },
  });
  const finished = new Promise<void>((resolve) => {
    parser.on("end", resolve);
    parser.on("close", resolve);
    parser.on("error", (error: { lines?: number }) => {
      failure ??= error;
      resolve();
    });
  });
  // Nothing is read from the stream: every record is taken by on_record.
  parser.resume();
  for (let at = 0; at < text.length && !failure; at += slice) {
    parser.write(text.slice(at, at + slice));
    await nextTurn();
    if (records.length > maxRecords + 1) {
      parser.destroy();
      return { tooMany: true };
    }
  }
  if (!failure) parser.end();
  await finished;
  if (failure) return { badLine: failure.lines };
  if (records.length > maxRecords + 1) return { tooMany: true };
  return { records };
}

export async function parseRosterFile(bytes: Buffer): Promise<ParsedRoster> {
  const fail = (reason: string): ParsedRoster => ({ rows: [], errors: { file: reason } });
  if (bytes.length > rosterLimits.bytes) return fail(classMessages.rosterTooLarge);
  let text: string;
  try {
    // The decoder drops a leading byte-order mark.
    text = utf8.decode(bytes);
  } catch {
    return fail(classMessages.rosterNotUtf8);
  }
  const delimiter = delimiterOf(text);
  const read = await readRecords(text, delimiter);
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
