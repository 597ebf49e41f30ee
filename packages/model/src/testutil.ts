/** Helpers shared by the tests: random valid questionnaire inputs and small synthetic data. */

import { numericRange } from "@gradecast/contract/questionnaire";
import fc from "fast-check";
import {
  CATEGORIES,
  type Dataset,
  FEATURES,
  type FeatureName,
  type RawRecord,
  toDataset,
} from "./data.ts";
import { mulberry32 } from "./prng.ts";

/** Ranges the app accepts (wider than the data for age, absences, failures). */
const NUMERIC_RANGES: Partial<Record<FeatureName, [number, number]>> = Object.fromEntries(
  FEATURES.filter((f) => !CATEGORIES[f]).map((f) => [f, numericRange(f)]),
);

export function inputArbitrary(): fc.Arbitrary<Record<string, string | number>> {
  const model: Record<string, fc.Arbitrary<string | number>> = {};
  for (const f of FEATURES) {
    const cats = CATEGORIES[f];
    if (cats) model[f] = fc.constantFrom(...cats);
    else {
      const [lo, hi] = NUMERIC_RANGES[f]!;
      model[f] = fc.integer({ min: lo, max: hi });
    }
  }
  return fc.record(model);
}

/** A random valid input from a uniform PRNG. */
export function randomInput(rand: () => number): Record<string, string | number> {
  const rec: Record<string, string | number> = {};
  for (const f of FEATURES) {
    const cats = CATEGORIES[f];
    if (cats) rec[f] = cats[Math.floor(rand() * cats.length)]!;
    else {
      const [lo, hi] = NUMERIC_RANGES[f]!;
      rec[f] = lo + Math.floor(rand() * (hi - lo + 1));
    }
  }
  return rec;
}

/**
 * A small synthetic data set: y = 0.6*G2 - 1.5*failures + 3*[Mjob=teacher] + noise, and (unless
 * `dropouts` is false), as in the UCI files, about one row in eight ends with 0 (more often with low G2 and failures) and
 * then has 0 absences recorded: the artefact the model must not learn.
 */
export function synthetic(n: number, seed: number, dropouts = true): Dataset {
  return toDataset(syntheticRecords(n, seed, dropouts));
}

/** The rows of `synthetic`, as the CSV reader gives them (strings keyed by column, with G3). */
export function syntheticRecords(n: number, seed: number, dropouts = true): RawRecord[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const r = randomInput(rand);
    r.age = 15 + Math.floor(rand() * 8);
    r.failures = Math.floor(rand() * 4);
    r.absences = Math.floor(rand() * 30);
    r.G1 = Math.floor(rand() * 21);
    r.G2 = Math.max(0, Math.min(20, Number(r.G1) + Math.floor(rand() * 5) - 2));
    let y =
      Number(r.G2) * 0.6 + 3 - 1.5 * Number(r.failures) + (r.Mjob === "teacher" ? 3 : 0) + rand();
    y = Math.max(1, y);
    const dropout =
      dropouts && rand() < 0.04 + 0.02 * Number(r.failures) + (Number(r.G2) < 6 ? 0.2 : 0);
    if (dropout) {
      y = 0;
      r.absences = 0;
    }
    return {
      ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])),
      G3: String(y),
    };
  });
}

/**
 * Records as a UCI Student Performance file: `;`-separated, strings quoted, the subject left
 * out (it comes from the file's name), and the columns the model does not use (Dalc, Walc)
 * present as in the real files.
 */
export function toUciCsv(records: readonly RawRecord[]): string {
  const columns = [...FEATURES.filter((f) => f !== "subject"), "Dalc", "Walc", "G3"];
  const cell = (v: string) => (/^[0-9.]+$/.test(v) ? v : `"${v}"`);
  const lines = records.map((r) => columns.map((c) => cell(r[c] ?? "1")).join(";"));
  return `${columns.join(";")}\n${lines.join("\n")}\n`;
}
