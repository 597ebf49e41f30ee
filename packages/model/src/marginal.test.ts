import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { FEATURE_CATEGORIES, FEATURES } from "./data.ts";
import { expectedValue, rawOutput } from "./ensemble.ts";
import { marginalise } from "./marginal.ts";
import { mulberry32 } from "./prng.ts";
import { SMALL, smallModel } from "./test-models.ts";
import { inputArbitrary, randomInput } from "./testutil.ts";

// Answers left out ("Prefer not to say", issue 31): the model answers with the input
// marginalised, its effect exactly 0, the explanation still adding up, the interval never
// narrower than the one any answer would have got.

vi.setConfig({ testTimeout: 120_000 });

const OPTIONAL = ["health", "romantic", "famrel", "Pstatus", "Mjob", "Fjob"] as const;

const { built, small, models } = smallModel([21, 22], [SMALL]);

/** Every answer a question may take, as the model reads them. */
function answers(key: string): (string | number)[] {
  const cats = FEATURE_CATEGORIES[FEATURES.indexOf(key as never)];
  if (cats) return [...cats];
  return [1, 2, 3, 4, 5];
}

describe("an ensemble with an input marginalised", () => {
  it("never uses it, keeps its expected value, and averages its output over the input's sides", () => {
    const score = built.setups[0]!.score;
    const f = FEATURES.indexOf("health");
    const m = marginalise(score, new Set([f]));
    expect(m.trees.some((t) => t.feature.includes(f))).toBe(false);
    expect(expectedValue(m)).toBeCloseTo(expectedValue(score), 9);
    // a tree splitting only on the input: the marginalised output is its expected value
    const stump = {
      baseScore: 0,
      trees: [
        {
          feature: [f, -1, -1],
          threshold: [2, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 10, 4],
          cover: [4, 1, 3],
        },
      ],
    };
    expect(
      rawOutput(marginalise(stump, new Set([f])), new Float64Array(FEATURES.length)),
    ).toBeCloseTo((10 * 1 + 4 * 3) / 4, 12);
  });
});

describe("a prediction with an optional question left out", () => {
  for (const key of OPTIONAL) {
    it(`answers without ${key}: its effect is 0, the explanation adds up, the interval is not narrower`, () => {
      const rng = mulberry32(31);
      for (const model of models) {
        for (const setup of ["A", "B", "C"] as const) {
          for (let n = 0; n < 5; n++) {
            const input = randomInput(rng);
            const given = {
              ...input,
              G1: setup === "C" ? null : input.G1!,
              G2: setup === "A" ? input.G2! : null,
            };
            const p = model.predict({ ...given, [key]: null });
            expect(p.modelSetup).toBe(setup);
            expect(p.leftOut).toEqual([key]);
            const c = p.contributions.find((x) => x.feature === key)!;
            expect(c.value).toBeNull();
            expect(c.effect).toBe(0);
            const sum = p.baseValue + p.contributions.reduce((s, x) => s + x.effect, 0);
            expect(Math.abs(sum - p.raw)).toBeLessThan(1e-9);
            expect(p.baseValue).toBeCloseTo(model.predict(given).baseValue, 9);
            for (const value of answers(key)) {
              const q = model.predict({ ...given, [key]: value });
              expect(p.interval.low).toBeLessThanOrEqual(q.interval.low);
              expect(p.interval.high).toBeGreaterThanOrEqual(q.interval.high);
            }
          }
        }
      }
    });
  }

  it("answers with all six left out at once, each effect 0 (property)", () => {
    for (const model of models) {
      fc.assert(
        fc.property(inputArbitrary(), (input) => {
          const given = { ...input, G1: input.G1!, G2: null };
          const p = model.predict({
            ...given,
            ...Object.fromEntries(OPTIONAL.map((k) => [k, null])),
          });
          for (const key of OPTIONAL) {
            expect(p.contributions.find((x) => x.feature === key)!.effect).toBe(0);
          }
          const sum = p.baseValue + p.contributions.reduce((s, x) => s + x.effect, 0);
          expect(Math.abs(sum - p.raw)).toBeLessThan(1e-9);
          const full = model.predict(given);
          expect(p.interval.low).toBeLessThanOrEqual(full.interval.low);
          expect(p.interval.high).toBeGreaterThanOrEqual(full.interval.high);
        }),
        { numRuns: 15 },
      );
    }
  });

  it("still refuses an input that is absent (undefined)", () => {
    const { health: _, ...rest } = randomInput(mulberry32(3));
    expect(() => small.predict({ ...rest, G1: 10, G2: 10 })).toThrow(/missing input health/);
  });
});
