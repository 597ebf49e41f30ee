/** Helpers shared by the tests: random valid questionnaire inputs and small synthetic data. */
import fc from "fast-check";
import { CATEGORIES, FEATURES } from "./data.ts";

/** Ranges the app accepts (wider than the data for age, absences, failures). */
export const NUMERIC_RANGES: Record<string, [number, number]> = {
  age: [10, 25],
  Medu: [0, 4],
  Fedu: [0, 4],
  traveltime: [1, 4],
  studytime: [1, 4],
  failures: [0, 4],
  famrel: [1, 5],
  freetime: [1, 5],
  goout: [1, 5],
  health: [1, 5],
  absences: [0, 100],
  G1: [0, 20],
  G2: [0, 20],
};

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
