import { setImmediate as nextTurn } from "node:timers/promises";
import { type InfoRecord, type Parser, parse } from "csv-parse";

// Reading an uploaded CSV file (a roster, a gradebook import): UTF-8 (a BOM is fine), separated
// by commas or, as spreadsheets save them where the comma is the decimal sign, by semicolons (the
// header says which), quoted fields, any line ends. The file is parsed a slice at a time, letting
// other requests run in between, and parsing stops as soon as the file has more records than the
// caller allows (issue 26: 512 KB of line breaks, parsed whole, held the server for 17 s).

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Characters parsed before other requests get a turn: about a millisecond of work. */
const slice = 16 * 1024;

/** The file's text (a leading byte-order mark dropped), or undefined when it is not UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The separator the header line uses: a semicolon when it has more of them than commas. */
export function delimiterOf(text: string): "," | ";" {
  const end = text.search(/[\r\n]/);
  const header = end < 0 ? text : text.slice(0, end);
  const count = (c: string) => header.split(c).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/**
 * A figure as a spreadsheet in either language saves it: "12.5" or "12,5" (issue 33), "14",
 * "14,0"; undefined for anything else (signs, thousands separators, letters).
 */
export function decimalOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,9}([.,]\d{1,9})?$/.test(trimmed)) return undefined;
  return Number(trimmed.replace(",", "."));
}

/** One record and the line of the file it starts on (1: the first line). */
export interface Lined {
  record: string[];
  line: number;
}

export type ReadRecords =
  | { records: Lined[] }
  | { tooMany: true }
  | { badLine: number | undefined };

/**
 * The file's records with the line each starts on, read a slice at a time; "too many" as soon
 * as there are more than `maxRecords` after the header, without reading the rest. Empty lines
 * are skipped (and counted, for the line numbers of what follows).
 */
export async function readRecords(
  text: string,
  delimiter: string,
  maxRecords: number,
): Promise<ReadRecords> {
  const records: Lined[] = [];
  let endOfPrevious = 0;
  let emptyBefore = 0;
  let failure: { lines?: number } | undefined;
  const parser: Parser = parse({
    delimiter,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Files saved on Windows, macOS and Linux, or edited by hand into a mix of them.
    record_delimiter: ["\r\n", "\n", "\r"],
    on_record: (data: unknown) => {
      const { record, info } = data as { record: string[]; info: InfoRecord };
      // A record starts on the line after the previous one ended, past any empty lines (a quoted
      // value may span lines).
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
