import { describe, expect, it } from "vitest";
import artifact from "../artifact/model.json" with { type: "json" };
import {
  ageBand,
  bootstrapFigures,
  calibration,
  expectedForMix,
  expectedFromEvaluation,
  figuresOf,
  type ScoredOutcome,
  worseThanExpected,
} from "./school-eval.ts";

const row = (
  p: Partial<ScoredOutcome> & Pick<ScoredOutcome, "scoreIfSits" | "g3" | "sat">,
): ScoredOutcome => ({
  score: p.scoreIfSits,
  risk: 0.1,
  low: p.scoreIfSits - 2,
  high: p.scoreIfSits + 2,
  ...p,
});

describe("a school's figures", () => {
  const rows = [
    row({ scoreIfSits: 12, g3: 14, sat: true, risk: 0.05 }),
    row({ scoreIfSits: 9, g3: 8, sat: true, risk: 0.2 }),
    row({ scoreIfSits: 11, g3: 7, sat: true, risk: 0.1 }),
    row({ scoreIfSits: 8, g3: null, sat: false, risk: 0.6, score: 3 }),
  ];

  it("scores the students who sat for RMSE and MAE, and counts not sitting as a fail and as 0", () => {
    const f = figuresOf(rows);
    expect(f.rmse).toBeCloseTo(Math.sqrt((4 + 1 + 16) / 3), 12);
    expect(f.mae).toBeCloseTo((2 + 1 + 4) / 3, 12);
    // 12 vs 14 pass/pass, 9 vs 8 fail/fail, 11 vs 7 pass/fail, 3 vs did not sit fail/fail.
    expect(f.accuracy).toBe(3 / 4);
    expect(f.brier).toBeCloseTo((0.05 ** 2 + 0.2 ** 2 + 0.1 ** 2 + 0.4 ** 2) / 4, 12);
    // The one who did not sit had the highest risk.
    expect(f.auc).toBe(1);
    // 14 in [10,14], 8 in [7,11], 7 not in [9,13], 0 not in [6,10].
    expect(f.coverage).toBe(2 / 4);
  });

  it("has no RMSE when nobody sat and no AUC when everybody did", () => {
    expect(figuresOf([rows[3]!]).rmse).toBeNull();
    expect(figuresOf(rows.slice(0, 3)).auc).toBeNull();
  });

  it("gives the same bootstrap intervals for the same seed, around the figure", () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      row({ scoreIfSits: 10 + (i % 5), g3: 9 + (i % 7), sat: i % 9 !== 0, risk: (i % 10) / 10 }),
    );
    const a = bootstrapFigures(many, { resamples: 300, seed: 7 });
    const b = bootstrapFigures(many, { resamples: 300, seed: 7 });
    expect(a).toEqual(b);
    const f = figuresOf(many);
    for (const m of ["rmse", "mae", "accuracy", "brier", "auc", "coverage"] as const) {
      expect(a[m]!.low).toBeLessThanOrEqual(f[m]!);
      expect(a[m]!.high).toBeGreaterThanOrEqual(f[m]!);
    }
  });

  it("says worse only where the expected value is outside the interval on the good side", () => {
    expect(worseThanExpected("rmse", { low: 2, high: 3 }, 1.5)).toBe(true);
    expect(worseThanExpected("rmse", { low: 2, high: 3 }, 3.5)).toBe(false);
    expect(worseThanExpected("coverage", { low: 0.6, high: 0.75 }, 0.8)).toBe(true);
    expect(worseThanExpected("coverage", { low: 0.82, high: 0.9 }, 0.8)).toBe(false);
    expect(worseThanExpected("auc", null, 0.8)).toBe(false);
  });

  it("bins predicted risk and predicted scores with the observed rate and mean", () => {
    const c = calibration(rows);
    expect(c.risk.reduce((a, b) => a + b.n, 0)).toBe(4);
    const top = c.risk.at(-1)!;
    expect(top.observed).toBe(1);
    expect(c.score.reduce((a, b) => a + b.n, 0)).toBe(3);
  });

  it("bands ages as 15-16, 17 and 18+", () => {
    expect([15, 16, 17, 18, 21].map(ageBand)).toEqual(["15-16", "15-16", "17", "18+", "18+"]);
  });

  it("reads the shipped model's cross-validated figures per subject and setup", () => {
    const expected = expectedFromEvaluation(artifact.evaluation as Record<string, unknown>[]);
    for (const s of ["mat", "por"])
      for (const setup of ["A", "B", "C"]) {
        const e = expected.get(`${s}:${setup}`)!;
        expect(e.rmse).toBeGreaterThan(0);
        expect(e.coverage).toBeGreaterThan(0.7);
        expect(e.brier).toBeGreaterThan(0);
      }
    const mix = expectedForMix(
      expected,
      "A",
      new Map([
        ["mat", 1],
        ["por", 1],
      ]),
    );
    const mat = expected.get("mat:A")!;
    const por = expected.get("por:A")!;
    expect(mix.coverage).toBeCloseTo((mat.coverage! + por.coverage!) / 2, 12);
    expect(mix.rmse).toBeCloseTo(Math.sqrt((mat.rmse! ** 2 + por.rmse! ** 2) / 2), 12);
  });
});
