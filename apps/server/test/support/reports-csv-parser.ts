import { expect } from "vitest";
import type { SignedInUser } from "./accounts.ts";
import type { TestApp } from "./helpers.ts";

// A small RFC 4180 parser for the tests (not the writer's mirror image): records end with CRLF,
// a quoted field may hold the delimiter (a comma, or the Portuguese files' semicolon), CR, LF
// and doubled quotes.
export function parseCsv(text: string, delimiter: "," | ";" = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  if (n === 0) return rows;
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error("unterminated quoted field");
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else {
          field += c;
          i++;
        }
      }
    } else {
      while (i < n && text[i] !== delimiter && !(text[i] === "\r" && text[i + 1] === "\n")) {
        if (text[i] === '"') throw new Error(`bare quote at ${i}`);
        if (text[i] === "\n" || text[i] === "\r") throw new Error(`bare line break at ${i}`);
        field += text[i];
        i++;
      }
    }
    row.push(field);
    if (text[i] === delimiter) {
      i++;
      continue;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") {
      i += 2;
      rows.push(row);
      row = [];
      if (i >= n) return rows;
      continue;
    }
    if (i >= n) {
      rows.push(row);
      return rows;
    }
    throw new Error(`unexpected character at ${i}`);
  }
}

/** The report ids ("Report ID", the last column) of who's export with this query, once it has answered 200. */
export async function exportedIds(
  t: TestApp,
  who: SignedInUser,
  query = "",
): Promise<(string | undefined)[]> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/reports/export.csv${query}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  const [header = [], ...rows] = parseCsv(res.body.replace(/^\uFEFF/, ""));
  const at = header.indexOf("Report ID");
  expect(at, "the Report ID column").toBeGreaterThanOrEqual(0);
  return rows.map((row) => row[at]);
}
