import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupKFolds, kFolds } from "./cv.ts";
import { FEATURES, NUM_FEATURES, parseCsv, toDataset } from "./data.ts";
import { DEFAULT_PARAMS, type GbtModel, predictGbt, type Tree, trainGbt } from "./gbt.ts";
import { type Setup, schemaFor as setupSchema } from "./hurdle.ts";
import { deriveSeed } from "./prng.ts";
import { ShapWorkspace, treeExpectation, treeShap } from "./shap.ts";
import { synthetic } from "./testutil.ts";

// The reader, the learner, TreeSHAP and the folds. The two-part model: hurdle.test.ts.

const schemaFor = (setup: Setup) => setupSchema(setup, "score");

const DATA_DIR = new URL("../../../../shared/data/", import.meta.url);
const hasData = existsSync(new URL("student-mat.csv", DATA_DIR));

const HEADER =
  "school;sex;age;address;famsize;Pstatus;Medu;Fedu;Mjob;Fjob;reason;guardian;traveltime;studytime;failures;schoolsup;famsup;paid;activities;nursery;higher;internet;romantic;famrel;freetime;goout;Dalc;Walc;health;absences;G1;G2;G3";
const ROW1 =
  '"GP";"F";18;"U";"GT3";"A";4;4;"at_home";"teacher";"course";"mother";2;2;0;"yes";"no";"no";"no";"yes";"yes";"no";"no";4;3;4;1;1;3;6;"5";"6";6';
const ROW2 =
  '"MS";"M";17;"R";"LE3";"T";1;1;"other";"other";"home";"father";1;2;1;"no";"yes";"no";"no";"no";"yes";"yes";"no";5;3;3;1;1;3;4;"15";"14";15';

const SMALL = { ...DEFAULT_PARAMS, nTrees: 60, learningRate: 0.1, maxDepth: 3, seed: 7 };
const CATS = schemaFor("A").categories;

describe("CSV reader", () => {
  it("strips quotes and reads quoted G1/G2 as numbers", () => {
    const recs = parseCsv(`${HEADER}\n${ROW1}\n${ROW2}\n`);
    expect(recs).toHaveLength(2);
    expect(recs[0]!.school).toBe("GP");
    expect(recs[0]!.G1).toBe("5");
    const d = toDataset(recs, true, "por");
    expect(d.x[FEATURES.indexOf("subject")]).toBe(1); // the file's subject fills the column
    expect(() => toDataset(recs)).toThrow(/subject/);
    const g1 = FEATURES.indexOf("G1");
    const g2 = FEATURES.indexOf("G2");
    expect(d.x[g1]).toBe(5);
    expect(d.x[g2]).toBe(6);
    expect(d.x[NUM_FEATURES + g1]).toBe(15);
    expect(Array.from(d.y)).toEqual([6, 15]);
    expect(d.x[FEATURES.indexOf("Mjob")]).toBe(3); // at_home
  });
  it("rejects a bad value", () => {
    expect(() =>
      toDataset(parseCsv(`${HEADER}\n${ROW1.replace('"GP"', '"XX"')}\n`), true, "mat"),
    ).toThrow(/school/);
  });
  it.skipIf(!hasData)("reads the UCI files", () => {
    for (const [f, n] of [
      ["student-mat.csv", 395],
      ["student-por.csv", 649],
    ] as const) {
      const d = toDataset(parseCsv(readFileSync(new URL(f, DATA_DIR), "utf8")), true, "mat");
      expect(d.n).toBe(n);
      const g1 = FEATURES.indexOf("G1");
      for (let i = 0; i < d.n; i++) {
        expect(d.x[i * NUM_FEATURES + g1]).toBeGreaterThanOrEqual(0);
        expect(d.y[i]).toBeLessThanOrEqual(20);
      }
    }
  });
});

describe("learner, weighted rows", () => {
  // A row of weight w is w copies of the row: the same splits, leaves and covers where that is
  // exact (every row in every tree: no subsampling), both losses, with the starting line.
  const d = synthetic(300, 11, false);
  const weights = Float64Array.from({ length: d.y.length }, (_, i) => 1 + (i % 4));
  const reps: number[] = [];
  weights.forEach((w, i) => {
    for (let c = 0; c < w; c++) reps.push(i);
  });
  const rx = new Float64Array(reps.length * NUM_FEATURES);
  reps.forEach((i, k) => {
    rx.set(d.x.subarray(i * NUM_FEATURES, (i + 1) * NUM_FEATURES), k * NUM_FEATURES);
  });
  const ry = Float64Array.from(reps, (i) => d.y[i]!);
  const cases = [
    ["squared", { ...SMALL, subsample: 1 }, d.y, ry],
    ["squared, starting line", { ...SMALL, subsample: 1, linearStart: true }, d.y, ry],
    [
      "logistic",
      { ...SMALL, subsample: 1, loss: "logistic" as const, maxDepth: 2 },
      d.y.map((v) => (v < 10 ? 1 : 0)),
      ry.map((v) => (v < 10 ? 1 : 0)),
    ],
  ] as const;
  for (const [name, params, y, yRep] of cases) {
    it(`gives the fit of repeated rows (${name})`, () => {
      const weighted = trainGbt(d.x, y, NUM_FEATURES, schemaFor("A"), params, weights);
      const repeated = trainGbt(rx, yRep, NUM_FEATURES, schemaFor("A"), params);
      expect(weighted.trees.length).toBe(repeated.trees.length);
      weighted.trees.forEach((t, k) => {
        const r = repeated.trees[k]!;
        expect(t.feature).toEqual(r.feature);
        expect(t.threshold).toEqual(r.threshold);
        t.cover.forEach((c, j) => {
          expect(c).toBeCloseTo(r.cover[j]!, 9);
        });
        t.value.forEach((v, j) => {
          expect(v).toBeCloseTo(r.value[j]!, 9);
        });
      });
      for (let i = 0; i < d.y.length; i++) {
        expect(predictGbt(weighted, d.x, i * NUM_FEATURES, CATS)).toBeCloseTo(
          predictGbt(repeated, d.x, i * NUM_FEATURES, CATS),
          9,
        );
      }
    });
  }
});

describe("learner", () => {
  const train = synthetic(600, 1, false);
  const test = synthetic(300, 2, false);
  const model = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), {
    ...DEFAULT_PARAMS,
    nTrees: 200,
    learningRate: 0.1,
    seed: 3,
  });
  it("recovers a known relationship", () => {
    let se = 0;
    let sv = 0;
    const mean = test.y.reduce((s, v) => s + v, 0) / test.n;
    for (let i = 0; i < test.n; i++) {
      const p = predictGbt(model, test.x, i * NUM_FEATURES, schemaFor("A").categories);
      se += (p - test.y[i]!) ** 2;
      sv += (test.y[i]! - mean) ** 2;
    }
    // noise variance is 1/12; the signal variance is ~20
    expect(Math.sqrt(se / test.n)).toBeLessThan(0.8);
    expect(1 - se / sv).toBeGreaterThan(0.95);
    // the teacher effect is found as a categorical split
    const mjob = FEATURES.indexOf("Mjob");
    expect(model.trees.some((t) => t.feature.includes(mjob))).toBe(true);
  });
  // a blend of boosters of different depths (the shipped learner's form), with per-split
  // column sampling
  const BLEND = {
    ...SMALL,
    nTrees: 20,
    members: [
      { weight: 0.5 },
      { weight: 0.5, maxDepth: 4, minChildSamples: 7, colsampleNode: 0.7 },
    ],
  };
  it.each([
    ["", SMALL],
    [" with a blend and per-split column sampling", BLEND],
  ])("is deterministic for a seed%s", (_, params) => {
    const a = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), params);
    const b = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), params);
    const c = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), { ...params, seed: 8 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });
  it("predicts a blend as the weighted sum of its members", () => {
    const cats = schemaFor("A").categories;
    const blend = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), BLEND);
    const members = BLEND.members.map(({ weight, ...own }, k) => ({
      weight,
      m: trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), {
        ...SMALL,
        nTrees: 20,
        ...own,
        seed: deriveSeed(SMALL.seed, k),
      }),
    }));
    for (let i = 0; i < test.n; i += 7) {
      const want = members.reduce(
        (s, { weight, m }) => s + weight * predictGbt(m, test.x, i * NUM_FEATURES, cats),
        0,
      );
      expect(predictGbt(blend, test.x, i * NUM_FEATURES, cats)).toBeCloseTo(want, 9);
    }
  });
  it("starts from the line through the grades: closer with few trees, and still monotone", () => {
    const rmse = (m: GbtModel) => {
      let se = 0;
      for (let i = 0; i < test.n; i++) {
        se += (predictGbt(m, test.x, i * NUM_FEATURES, CATS) - test.y[i]!) ** 2;
      }
      return Math.sqrt(se / test.n);
    };
    const few = { ...SMALL, nTrees: 10 };
    const line = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), {
      ...few,
      linearStart: true,
    });
    const plain = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), few);
    // y = 0.6·G2 + ...: ten trees of steps are far from it, the line is not
    expect(rmse(line)).toBeLessThan(0.7 * rmse(plain));
    // the line's step trees (G1, G2) come first, then the ten boosted
    const g2 = FEATURES.indexOf("G2");
    const steps = line.trees.slice(0, line.trees.length - 10);
    expect(steps.some((t) => t.feature.includes(g2))).toBe(true);
    for (const t of steps) {
      for (const f of t.feature) expect([-1, FEATURES.indexOf("G1"), g2]).toContain(f);
    }
    const x = Float64Array.from(test.x.subarray(0, NUM_FEATURES));
    let last = Number.NEGATIVE_INFINITY;
    for (let v = 0; v <= 20; v++) {
      x[g2] = v;
      const p = predictGbt(line, x, 0, CATS);
      expect(p).toBeGreaterThanOrEqual(last - 1e-12);
      last = p;
    }
  });
  it("keeps a line's slope only in its monotone direction", () => {
    // the score falls with G2 here, but it may never fall with G2: G2 leaves the line
    const flipped = train.y.map((y) => 20 - y);
    const m = trainGbt(train.x, flipped, NUM_FEATURES, schemaFor("A"), {
      ...SMALL,
      nTrees: 5,
      linearStart: true,
    });
    const g2 = FEATURES.indexOf("G2");
    expect(m.trees.slice(0, m.trees.length - 5).some((t) => t.feature.includes(g2))).toBe(false);
  });
  it("grows the same first trees whatever their number (the tree count is tuned on prefixes)", () => {
    const params = { ...SMALL, linearStart: true, subsample: 0.7, colsampleNode: 0.8 };
    const long = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), params);
    const short = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), {
      ...params,
      nTrees: 15,
    });
    const start = long.trees.length - params.nTrees;
    expect(JSON.stringify(long.trees.slice(0, start + 15))).toBe(JSON.stringify(short.trees));
    expect(long.baseScore).toBe(short.baseScore);
  });
  it("never splits on features a setup drops", () => {
    const m = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("C"), SMALL);
    const banned = [FEATURES.indexOf("G1"), FEATURES.indexOf("G2")];
    for (const t of m.trees) for (const f of t.feature) expect(banned).not.toContain(f);
  });
});

/** Brute-force path-dependent Shapley values of one tree (exponential; small trees only). */
function bruteShap(tree: Tree, x: Float64Array, cats: readonly number[]): Map<number, number> {
  const used = [...new Set(tree.feature.filter((f) => f >= 0))];
  const m = used.length;
  const value = (S: Set<number>) => {
    const rec = (node: number): number => {
      const f = tree.feature[node]!;
      if (f < 0) return tree.value[node]!;
      const l = tree.left[node]!;
      const r = tree.right[node]!;
      if (S.has(f)) {
        const v = x[f]!;
        const left =
          cats[f]! > 0 ? ((tree.threshold[node]! >>> v) & 1) === 1 : v <= tree.threshold[node]!;
        return rec(left ? l : r);
      }
      return (tree.cover[l]! * rec(l) + tree.cover[r]! * rec(r)) / tree.cover[node]!;
    };
    return rec(0);
  };
  const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
  const phi = new Map<number, number>();
  for (const i of used) {
    const others = used.filter((f) => f !== i);
    let s = 0;
    for (let mask = 0; mask < 1 << others.length; mask++) {
      const S = new Set(others.filter((_, j) => (mask >> j) & 1));
      const w = (fact(S.size) * fact(m - S.size - 1)) / fact(m);
      s += w * (value(new Set([...S, i])) - value(S));
    }
    phi.set(i, s);
  }
  return phi;
}

describe("TreeSHAP", () => {
  const d = synthetic(400, 5);
  const schema = schemaFor("A");
  const model: GbtModel = trainGbt(d.x, d.y, NUM_FEATURES, schema, {
    ...SMALL,
    nTrees: 8,
    maxDepth: 4,
    minChildSamples: 5,
  });
  it("matches brute-force Shapley values per tree", () => {
    const ws = new ShapWorkspace();
    const probe = synthetic(20, 6);
    for (let i = 0; i < probe.n; i++) {
      const x = probe.x.slice(i * NUM_FEATURES, (i + 1) * NUM_FEATURES);
      for (const tree of model.trees) {
        const phi = new Float64Array(NUM_FEATURES);
        treeShap(tree, x, 0, schema.categories, phi, ws);
        const brute = bruteShap(tree, x, schema.categories);
        for (let f = 0; f < NUM_FEATURES; f++) expect(phi[f]).toBeCloseTo(brute.get(f) ?? 0, 10);
        const sum = phi.reduce((s, v) => s + v, 0);
        expect(sum + treeExpectation(tree)).toBeCloseTo(
          predictGbt({ baseScore: 0, trees: [tree] }, x, 0, schema.categories),
          10,
        );
      }
    }
  });
});

describe("CV folds", () => {
  it("partition the rows exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 300 }),
        fc.integer({ min: 2, max: 12 }),
        fc.nat(),
        (n, k, seed) => {
          const fold = kFolds(n, k, seed);
          const sizes = new Array<number>(k).fill(0);
          for (const f of fold) {
            expect(f).toBeGreaterThanOrEqual(0);
            expect(f).toBeLessThan(k);
            sizes[f]! += 1;
          }
          expect(sizes.reduce((s, v) => s + v, 0)).toBe(n);
          expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
  it("keep a student's rows together in group folds", () => {
    const keys = Array.from({ length: 200 }, (_, i) => `s${i % 70}`);
    const fold = groupKFolds(keys, 10, 3);
    const byKey = new Map<string, number>();
    keys.forEach((key, i) => {
      if (byKey.has(key)) expect(fold[i]).toBe(byKey.get(key));
      byKey.set(key, fold[i]!);
    });
    expect(new Set(fold).size).toBe(10);
  });
});
