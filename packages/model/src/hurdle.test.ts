import { whatIfKeys } from "@gradecast/contract/prediction";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { combinedEffects, fitPlatt, riskEffects, sigmoid } from "./combine.ts";
import { evaluate, groupsOf } from "./cv.ts";
import { FEATURES, MONOTONE, NUM_FEATURES } from "./data.ts";
import { rawOutput } from "./ensemble.ts";
import { ORDERED } from "./gate.ts";
import { DEFAULT_PARAMS, type GbtParams } from "./gbt.ts";
import { clampGrade } from "./grade.ts";
import { groupKFolds, schemaFor, setupFor, trainScore, trainSetup } from "./hurdle.ts";
import { calibrateIntervals, intervalFor } from "./intervals.ts";
import { loadDefaultModel, loadModel } from "./model.ts";
import { deriveSeed, mulberry32 } from "./prng.ts";
import { SMALL, SMALL_RISK, shipped, smallModel } from "./test-models.ts";
import { inputArbitrary, randomInput, synthetic } from "./testutil.ts";

// The two-part model: the headline and its exact explanation, the monotone directions (no
// harmful what-if), the setups chosen by what is known, conditional intervals, extrapolation
// on combinations, and per-group coverage on held-out folds.

// trains small models and walks grids: seconds on a quiet machine, more on a shared one
vi.setConfig({ testTimeout: 60_000 });

const { data, built, small, models } = smallModel(
  [11, 12],
  [SMALL, { ...SMALL, maxDepth: 4, minChildSamples: 7 }],
);

describe("the headline and its explanation", () => {
  it("adds up exactly: baseValue + every effect = raw = (1 - risk) * score (property)", () => {
    for (const model of models) {
      fc.assert(
        fc.property(
          inputArbitrary(),
          fc.constantFrom("A", "B", "C"),
          fc.boolean(),
          (input, setup, noSubject) => {
            const given = {
              ...input,
              G1: setup === "C" ? null : input.G1!,
              G2: setup === "A" ? input.G2! : null,
              subject: noSubject ? null : input.subject!,
            };
            const p = model.predict(given);
            expect(p.modelSetup).toBe(setup);
            expect(p.contributions.map((c) => c.feature)).toEqual([...FEATURES]);
            const sum = p.contributions.reduce((s, c) => s + c.effect, p.baseValue);
            expect(Math.abs(sum - p.raw)).toBeLessThan(1e-9);
            expect(p.prediction).toBe(Math.min(20, Math.max(0, p.raw)));
            // the score is clamped; the headline is the unclamped score times 1 - risk
            expect(p.prediction).toBeLessThanOrEqual(p.scoreIfSits + 1e-9);
            expect(p.noFinalScoreRisk).toBeGreaterThan(0);
            expect(p.noFinalScoreRisk).toBeLessThan(1);
            // an unknown grade has no effect
            for (const c of p.contributions)
              if (c.value === null && c.feature !== "subject") {
                expect(c.effect).toBe(0);
              }
            expect(p.interval.low).toBeLessThanOrEqual(p.prediction);
            expect(p.interval.high).toBeGreaterThanOrEqual(p.prediction);
          },
        ),
        { numRuns: 200 },
      );
    }
  });

  it("splits a product of two additive parts exactly and symmetrically", () => {
    const rand = mulberry32(3);
    for (let t = 0; t < 200; t++) {
      const n = 5;
      const b = Float64Array.from({ length: n }, () => rand() * 4 - 2);
      const phi = Float64Array.from({ length: n }, () => rand() * 2 - 1);
      const c = { a: 0.5 + rand(), b: rand() - 0.5 };
      const l0 = rand() * 4 - 3;
      const logit = l0 + phi.reduce((s, v) => s + v, 0);
      const r = new Float64Array(n);
      const { risk0, risk } = riskEffects(l0, logit, phi, c, r);
      expect(risk0 + r.reduce((s, v) => s + v, 0)).toBeCloseTo(risk, 12);
      expect(risk).toBeCloseTo(sigmoid(c.a * logit + c.b), 12);
      const s0 = 5 + rand() * 10;
      const h = new Float64Array(n);
      const base = combinedEffects(s0, b, risk0, r, h);
      const score = s0 + b.reduce((s, v) => s + v, 0);
      expect(base + h.reduce((s, v) => s + v, 0)).toBeCloseTo((1 - risk) * score, 12);
      // a feature that moves neither part gets no effect
      b[0] = 0;
      phi[0] = 0;
      riskEffects(l0, logit - 0, phi, c, r);
      r[0] = 0;
      combinedEffects(s0, b, risk0, r, h);
      expect(h[0]).toBe(0);
    }
  });

  it("keeps Platt scaling increasing, so the risk stays monotone", () => {
    const logits = Array.from({ length: 200 }, (_, i) => i / 20 - 5);
    const y = logits.map((l) => (l > 1 ? 1 : 0));
    expect(fitPlatt(logits, y).a).toBeGreaterThan(0);
    // a relation turned around cannot turn the calibration around
    expect(
      fitPlatt(
        logits,
        y.map((v) => 1 - v),
      ).a,
    ).toBeGreaterThan(0);
  });
});

describe("never harmful advice", () => {
  it("declares the directions a teacher would defend", () => {
    // every entry is 1 or -1 (its type), so the two lists are the whole table
    const raising = (direction: 1 | -1) =>
      Object.entries(MONOTONE)
        .filter(([, d]) => d === direction)
        .map(([name]) => name)
        .sort();
    expect(raising(1), "more is better").toEqual(["G1", "G2", "higher", "schoolsup", "studytime"]);
    expect(raising(-1), "more is worse").toEqual(["absences", "failures", "goout"]);
  });

  it("constrains every input the what-if panel offers, so no suggestion rests on a free one", () => {
    expect(whatIfKeys.length).toBeGreaterThan(0);
    for (const key of whatIfKeys) expect(MONOTONE, key).toHaveProperty(key);
    // and the grids below walk each of them
    for (const key of whatIfKeys) expect(Object.keys(ORDERED)).toContain(key);
  });

  it("moves the headline and the score the constrained way and the risk the other, on grids over random profiles", () => {
    const runs = 60;
    let checks = 0;
    for (const model of models) {
      fc.assert(
        fc.property(inputArbitrary(), fc.constantFrom("A", "B", "C"), (input, setup) => {
          const base: Record<string, string | number | null> = {
            ...input,
            G1: setup === "C" ? null : input.G1!,
            G2: setup === "A" ? input.G2! : null,
          };
          for (const [feature, values] of Object.entries(ORDERED)) {
            if (base[feature] === null) continue;
            const sign = MONOTONE[feature as keyof typeof MONOTONE]!;
            const ps = values.map((v) => model.predict({ ...base, [feature]: v }));
            for (let i = 1; i < ps.length; i++) {
              const lo = ps[i - 1]!;
              const hi = ps[i]!;
              checks++;
              expect(sign * (hi.raw - lo.raw)).toBeGreaterThanOrEqual(-1e-9);
              expect(sign * (hi.scoreIfSits - lo.scoreIfSits)).toBeGreaterThanOrEqual(-1e-9);
              expect(sign * (hi.noFinalScoreRisk - lo.noFinalScoreRisk)).toBeLessThanOrEqual(1e-12);
            }
          }
        }),
        { numRuns: runs },
      );
    }
    // Every run walks every input but the grades (G1 and G2 are skipped when not known), so the
    // floor is fixed whatever setups the runs drew.
    const perRun = Object.entries(ORDERED)
      .filter(([feature]) => feature !== "G1" && feature !== "G2")
      .reduce((sum, [, values]) => sum + values.length - 1, 0);
    expect(checks).toBeGreaterThanOrEqual(models.length * runs * perRun);
  }, 60_000);

  it("never predicts a higher score for fewer absences' opposite: no '0 absences -> 0' (the artefact is in the training data)", () => {
    // in the synthetic data every row that ended with 0 has 0 absences, as in the UCI files
    let zeros = 0;
    const abs = FEATURES.indexOf("absences");
    for (let i = 0; i < data.n; i++) {
      if (data.y[i] === 0) {
        zeros++;
        expect(data.x[i * NUM_FEATURES + abs]).toBe(0);
      }
    }
    expect(zeros).toBeGreaterThan(30);
    const rand = mulberry32(12);
    for (let t = 0; t < 200; t++) {
      const input = { ...randomInput(rand), G1: 5, G2: 4, failures: 1 };
      const none = small.predict({ ...input, absences: 0 });
      const many = small.predict({ ...input, absences: 30 });
      expect(many.prediction).toBeLessThanOrEqual(none.prediction + 1e-9);
      expect(many.noFinalScoreRisk).toBeGreaterThanOrEqual(none.noFinalScoreRisk - 1e-12);
    }
  });
});

describe("setups chosen by what is known", () => {
  it("A with G1 and G2, B with G1 only, C with neither; G2 alone is refused", () => {
    expect(setupFor(true, true)).toBe("A");
    expect(setupFor(true, false)).toBe("B");
    expect(setupFor(false, false)).toBe("C");
    expect(() => setupFor(false, true)).toThrow(/G2/);
    const input = randomInput(mulberry32(4));
    for (const model of models) {
      expect(model.predict(input).modelSetup).toBe("A");
      expect(model.predict({ ...input, G2: null }).modelSetup).toBe("B");
      expect(model.predict({ ...input, G1: null, G2: null }).modelSetup).toBe("C");
      expect(model.predict({ ...input, G1: "", G2: undefined }).modelSetup).toBe("C");
      expect(() => model.predict({ ...input, G1: null })).toThrow(/G2/);
      // a later setup never reads the grade it does not know
      const c = model.predict({ ...input, G1: null, G2: null });
      expect(c.contributions.find((x) => x.feature === "G1")).toEqual({
        feature: "G1",
        value: null,
        effect: 0,
      });
    }
  });

  it("widens the interval honestly when less is known (the shipped model, on average)", () => {
    if (!shipped) return;
    const m = loadDefaultModel();
    const rand = mulberry32(8);
    const width = { A: 0, B: 0, C: 0 };
    for (let t = 0; t < 200; t++) {
      const input: Record<string, string | number> = {
        ...randomInput(rand),
        age: 17,
        absences: 4,
        failures: 0,
      };
      input.G2 = Math.max(0, Math.min(20, Number(input.G1) + 1));
      for (const [s, i] of [
        ["A", input],
        ["B", { ...input, G2: null }],
        ["C", { ...input, G1: null, G2: null }],
      ] as const) {
        const p = m.predict(i);
        width[s] += p.interval.high - p.interval.low;
      }
    }
    expect(width.B).toBeGreaterThan(width.A);
    expect(width.C).toBeGreaterThan(width.B);
  }, 60_000);
});

describe("conditional intervals", () => {
  it("cover 80 % of the students who sit within each cell, and 80 % of those who end with 0", () => {
    const rand = mulberry32(21);
    // two kinds of students: safe ones with small errors, at-risk ones who often end with 0
    // (`risk` is the true chance of ending with 0)
    const draw = () => {
      const atRisk = rand() < 0.3;
      const risk = atRisk ? 0.2 + 0.4 * rand() : 0.02 * rand();
      const scoreIfSits = atRisk ? 6 + rand() : 10 + rand() * 3;
      const y = rand() < risk ? 0 : scoreIfSits + (rand() - 0.5) * (atRisk ? 4 : 1);
      return { prediction: (1 - risk) * scoreIfSits, scoreIfSits, risk, y };
    };
    const cal = Array.from({ length: 3000 }, draw);
    const m = calibrateIntervals({
      headline: cal.map((c) => c.prediction),
      score: cal.map((c) => c.scoreIfSits),
      risk: cal.map((c) => c.risk),
      y: cal.map((c) => c.y),
    });
    const fresh = Array.from({ length: 6000 }, draw);
    const coverage = (group: typeof fresh) =>
      group.filter((f) => {
        const iv = intervalFor(m, f);
        return f.y >= iv.low && f.y <= iv.high;
      }).length / group.length;
    for (const atRisk of [true, false]) {
      const rate = coverage(fresh.filter((f) => f.y > 0 && f.risk > 0.1 === atRisk));
      expect(rate).toBeGreaterThan(0.77);
      expect(rate).toBeLessThan(0.86);
    }
    // the students who end with 0: the group an interval around the score alone would miss
    const zeros = coverage(fresh.filter((f) => f.y === 0));
    expect(zeros).toBeGreaterThan(0.75);
    expect(zeros).toBeLessThan(0.87);
    // a likely dropout's interval reaches 0; a safe student's stays narrow and near the score
    expect(intervalFor(m, { prediction: 3.3, scoreIfSits: 6.5, risk: 0.5 }).low).toBe(0);
    expect(intervalFor(m, { prediction: 11, scoreIfSits: 11.1, risk: 0.01 }).low).toBeGreaterThan(
      10,
    );
  });

  it("computes per-group coverage on held-out folds only (nested evaluation)", () => {
    const d = synthetic(240, 31);
    const r = evaluate({
      data: d,
      setup: "A",
      folds: 4,
      repeats: 1,
      seed: 5,
      scoreCandidates: [SMALL, { ...SMALL, maxDepth: 2 }],
      riskParams: SMALL_RISK,
      innerFolds: 3,
    });
    // every row held out exactly once, by a model that never saw it
    expect(r.heldOut.map((h) => h.row).sort((a, b) => a - b)).toEqual([...Array(d.n).keys()]);
    expect(r.chosen.reduce((s, v) => s + v, 0)).toBe(4);
    const names = r.groups.map((g) => g.group);
    for (const g of ["all", "ended with 0", "school GP", "sex F", "address U", "age 17-18"]) {
      expect(names).toContain(g);
    }
    // each group's figure is recomputed from its held-out rows
    for (const g of r.groups) {
      const rows = r.heldOut.filter((h) => groupsOf(d, h).includes(g.group));
      expect(g.rows).toBe(rows.length);
      const covered = rows.filter((h) => h.y >= h.low && h.y <= h.high).length;
      expect(g.coverage).toBeCloseTo(covered / rows.length, 12);
    }
    expect(r.noFinalScoreRisk.brier).toBeGreaterThan(0);
    expect(r.noFinalScoreRisk.brier).toBeLessThan(0.25);
  }, 60_000);
});

describe("extrapolation", () => {
  it("flags a combination unlike any in training, naming its inputs", () => {
    for (const model of models) {
      const input = { ...randomInput(mulberry32(5)), age: 17, studytime: 2 };
      // each value alone is common; together (G1 high, G2 0, no failures) they are not
      const p = model.predict({ ...input, G1: 18, G2: 0, failures: 0, absences: 0 });
      expect(p.extrapolation).toBe(true);
      expect(p.extrapolationFeatures).toEqual(expect.arrayContaining(["G1", "G2"]));
      const q = model.predict({ ...input, absences: 2, failures: 0, G1: 11, G2: 11 });
      expect(q.extrapolation).toBe(false);
    }
  });

  it("flags G1 = G2 = 0 with no failures and no absences in the shipped model", () => {
    if (!shipped) return;
    const input = { ...randomInput(mulberry32(9)), age: 17 };
    const p = loadDefaultModel().predict({ ...input, G1: 0, G2: 0, failures: 0, absences: 0 });
    expect(p.extrapolation).toBe(true);
  });
});

describe("artifact", () => {
  it("rejects a malformed artifact", () => {
    expect(() => loadModel({})).toThrow(/format/);
    expect(() => loadModel({ ...built, setups: [] })).toThrow(/setups/);
    expect(() => loadModel({ ...built, features: FEATURES.slice(1) })).toThrow(/features/);
    const [a] = built.setups;
    expect(() => loadModel({ ...built, setups: [{ ...a, calibration: { a: -1, b: 0 } }] })).toThrow(
      /calibration/,
    );
  });

  it.skipIf(!shipped)("the committed artifact answers all three setups and names its data", () => {
    const m = loadDefaultModel();
    expect(m.version).toMatch(/^hurdle-/);
    expect(m.setups).toEqual(["A", "B", "C"]);
    expect(m.features).toHaveLength(31);
    expect(["G1", "G2"]).toContain(m.globalImportance[0]!.feature);
    expect(m.artifact.data.map((f) => f.file)).toEqual(["student-mat.csv", "student-por.csv"]);
    expect(JSON.stringify(m.artifact)).not.toMatch(/\/work\//);
  });
});

// The school is the deployment's (issue 28): set to one of the two, or neither.
describe("a school not set", () => {
  it("is neither school: between the two on every part, and the explanation still adds up (property)", () => {
    for (const model of models) {
      fc.assert(
        fc.property(inputArbitrary(), (input) => {
          const gp = model.predict({ ...input, school: "GP" });
          const ms = model.predict({ ...input, school: "MS" });
          const none = model.predict({ ...input, school: null });
          const between = (v: number, a: number, b: number) =>
            v >= Math.min(a, b) - 1e-9 && v <= Math.max(a, b) + 1e-9;
          expect(between(none.scoreIfSits, gp.scoreIfSits, ms.scoreIfSits)).toBe(true);
          expect(between(none.noFinalScoreRisk, gp.noFinalScoreRisk, ms.noFinalScoreRisk)).toBe(
            true,
          );
          const school = none.contributions.find((c) => c.feature === "school");
          expect(school?.value).toBeNull();
          const sum = none.contributions.reduce((s, c) => s + c.effect, none.baseValue);
          expect(Math.abs(sum - none.raw)).toBeLessThan(1e-9);
          expect(none.extrapolationFeatures).not.toContain("school");
          // Left out of the input altogether, it is the same as null.
          const { school: _left, ...rest } = input;
          expect(model.predict(rest).prediction).toBe(none.prediction);
        }),
        { numRuns: 60 },
      );
    }
  });

  it("is the plain average of the two schools where the score and the risk are sums of trees", () => {
    // Where neither school's risk moves, the score if the student sits is the average of the two.
    for (const model of models) {
      const rand = mulberry32(28);
      for (let t = 0; t < 50; t++) {
        const input = randomInput(rand);
        const gp = model.predict({ ...input, school: "GP" });
        const ms = model.predict({ ...input, school: "MS" });
        const none = model.predict({ ...input, school: null });
        const inside = [gp, ms].every((p) => p.scoreIfSits > 0 && p.scoreIfSits < 20);
        if (inside && none.scoreIfSits > 0 && none.scoreIfSits < 20) {
          expect(none.scoreIfSits).toBeCloseTo((gp.scoreIfSits + ms.scoreIfSits) / 2, 9);
        }
      }
    }
  });
});

describe("choosing the score's hyperparameters", () => {
  it("on the first fold only when asked: each candidate's RMSE is its RMSE on that fold's sitters, and the calibration still covers every row", () => {
    const d = synthetic(300, 41);
    const small: GbtParams = { ...DEFAULT_PARAMS, nTrees: 20, minChildSamples: 5 };
    const candidates = [
      { ...small, maxDepth: 1 },
      { ...small, maxDepth: 3, learningRate: 0.2 },
    ];
    const opts = { setup: "A" as const, scoreCandidates: candidates, riskParams: small, folds: 3 };
    const one = trainSetup(d, { ...opts, seed: 5, chooseOnFolds: 1 });
    // independently: each candidate trained on folds 1 and 2, scored on fold 0's sitters
    const fold = groupKFolds(d.keys, 3, 5);
    const rows = [...Array(d.n).keys()];
    const train = rows.filter((i) => fold[i] !== 0);
    const test = rows.filter((i) => fold[i] === 0 && d.y[i]! > 0);
    candidates.forEach((c, k) => {
      const m = trainScore(d, train, schemaFor("A", "score"), { ...c, seed: deriveSeed(5, 0) });
      const se = test.reduce(
        (s, i) => s + (clampGrade(rawOutput(m, d.x, i * NUM_FEATURES)) - d.y[i]!) ** 2,
        0,
      );
      expect(one.candidateRmse[k]).toBeCloseTo(Math.sqrt(se / test.length), 9);
    });
    expect(one.chosen).toBe(one.candidateRmse[0]! <= one.candidateRmse[1]! ? 0 : 1);
    // every row's held-out score fed the intervals: they are as wide as with all folds compared
    const all = trainSetup(d, { ...opts, seed: 5 });
    expect(all.chosen).toBe(one.chosen);
    expect(one.intervals).toEqual(all.intervals);
    expect(one.calibration).toEqual(all.calibration);
  });
});
