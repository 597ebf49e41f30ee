import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "../../src/csv/csv.ts";
import { parseCsv } from "../support/reports-csv-parser.ts";

// The CSV writer of the report export: RFC 4180 quoting and the formula-injection guard, checked
// against an independent RFC 4180 parser.
describe("report CSV writer", () => {
  it("leaves plain cells alone and writes numbers as digits", () => {
    expect(csvRow(["Ann", 42, "Math"])).toBe("Ann,42,Math\r\n");
    expect(csvCell(null)).toBe("");
  });

  it("quotes cells with commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("Smith, Ann")).toBe('"Smith, Ann"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"');
  });

  it("prefixes cells a spreadsheet would run as formulas with an apostrophe", () => {
    expect(csvCell("=SUM(A1:A9)")).toBe("'=SUM(A1:A9)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("round-trips any text through an RFC 4180 parser", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 6,
        }),
        (rows) => {
          const text = rows.map((r) => csvRow(r)).join("");
          const back = parseCsv(text);
          const expected = rows.map((r) => r.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
          expect(back).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
