import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupKFolds, kFolds, schemaFor } from "./cv.ts";
import {
  concatDatasets,
  encodeRecord,
  FEATURES,
  NUM_FEATURES,
  parseCsv,
  toDataset,
} from "./data.ts";
import { DEFAULT_PARAMS, type GbtModel, predictGbt, type Tree, trainGbt } from "./gbt.ts";
import { expectedValue, loadDefaultModel, loadModel, rawPredict, shapValues } from "./model.ts";
import { deriveSeed, mulberry32 } from "./prng.ts";
import { ShapWorkspace, treeExpectation, treeShap } from "./shap.ts";
import { inputArbitrary, randomInput } from "./testutil.ts";
import { buildArtifact } from "./train.ts";

const DATA_DIR = new URL("../../../../shared/data/", import.meta.url);
const hasData = existsSync(new URL("student-mat.csv", DATA_DIR));

const HEADER =
  "school;sex;age;address;famsize;Pstatus;Medu;Fedu;Mjob;Fjob;reason;guardian;traveltime;studytime;failures;schoolsup;famsup;paid;activities;nursery;higher;internet;romantic;famrel;freetime;goout;Dalc;Walc;health;absences;G1;G2;G3";
const ROW1 =
  '"GP";"F";18;"U";"GT3";"A";4;4;"at_home";"teacher";"course";"mother";2;2;0;"yes";"no";"no";"no";"yes";"yes";"no";"no";4;3;4;1;1;3;6;"5";"6";6';
const ROW2 =
  '"MS";"M";17;"R";"LE3";"T";1;1;"other";"other";"home";"father";1;2;1;"no";"yes";"no";"no";"no";"yes";"yes";"no";5;3;3;1;1;3;4;"15";"14";15';

/** A small synthetic data set: y = 2*G2 - 1.5*failures + 3*[Mjob=teacher] + noise. */
function synthetic(n: number, seed: number) {
  const rand = mulberry32(seed);
  const recs = Array.from({ length: n }, () => {
    const r = randomInput(rand);
    r.age = 15 + Math.floor(rand() * 8);
    r.failures = Math.floor(rand() * 4);
    r.absences = Math.floor(rand() * 30);
    const y =
      Number(r.G2) * 0.6 - 1.5 * Number(r.failures) + (r.Mjob === "teacher" ? 3 : 0) + rand() - 0.5;
    return {
      ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])),
      G3: String(y),
    };
  });
  return toDataset(recs);
}

const SMALL = { ...DEFAULT_PARAMS, nTrees: 60, learningRate: 0.1, maxDepth: 3, seed: 7 };

describe("CSV reader", () => {
  it("strips quotes and reads quoted G1/G2 as numbers", () => {
    const recs = parseCsv(`${HEADER}\n${ROW1}\n${ROW2}\n`);
    expect(recs).toHaveLength(2);
    expect(recs[0]!.school).toBe("GP");
    expect(recs[0]!.G1).toBe("5");
    const d = toDataset(recs);
    const g1 = FEATURES.indexOf("G1");
    const g2 = FEATURES.indexOf("G2");
    expect(d.x[g1]).toBe(5);
    expect(d.x[g2]).toBe(6);
    expect(d.x[NUM_FEATURES + g1]).toBe(15);
    expect(Array.from(d.y)).toEqual([6, 15]);
    expect(d.x[FEATURES.indexOf("Mjob")]).toBe(3); // at_home
  });
  it("rejects a bad value", () => {
    expect(() => toDataset(parseCsv(`${HEADER}\n${ROW1.replace('"GP"', '"XX"')}\n`))).toThrow(
      /school/,
    );
  });
  it.skipIf(!hasData)("reads the UCI files", () => {
    for (const [f, n] of [
      ["student-mat.csv", 395],
      ["student-por.csv", 649],
    ] as const) {
      const d = toDataset(parseCsv(readFileSync(new URL(f, DATA_DIR), "utf8")));
      expect(d.n).toBe(n);
      const g1 = FEATURES.indexOf("G1");
      for (let i = 0; i < d.n; i++) {
        expect(d.x[i * NUM_FEATURES + g1]).toBeGreaterThanOrEqual(0);
        expect(d.y[i]).toBeLessThanOrEqual(20);
      }
    }
  });
});

describe("learner", () => {
  const train = synthetic(600, 1);
  const test = synthetic(300, 2);
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
  it("is deterministic for a seed", () => {
    const a = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), SMALL);
    const b = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), SMALL);
    const c = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), { ...SMALL, seed: 8 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
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
  it("is deterministic for a seed with a blend and per-split column sampling", () => {
    const a = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), BLEND);
    const b = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), BLEND);
    const c = trainGbt(train.x, train.y, NUM_FEATURES, schemaFor("A"), { ...BLEND, seed: 8 });
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

describe("artifact", () => {
  const d = concatDatasets([synthetic(300, 11), synthetic(200, 12)]);
  const artifact = buildArtifact([{ file: "a.csv", sha256: "0", data: d }], {
    params: { ...SMALL, nTrees: 40 },
    calibrationFolds: 3,
  });
  const small = loadModel(JSON.parse(JSON.stringify(artifact)));
  // deep trees: too many internal nodes for the precomputed tables, so the recursion runs
  const deepArtifact = buildArtifact([{ file: "a.csv", sha256: "0", data: d }], {
    params: { ...SMALL, nTrees: 15, maxDepth: 6, minChildSamples: 3 },
    calibrationFolds: 3,
  });
  const deep = loadModel(deepArtifact);
  // bagged boosters: one sum of trees with leaf values divided by the number of bags
  const bagged = loadModel(
    buildArtifact([{ file: "a.csv", sha256: "0", data: d }], {
      params: { ...SMALL, nTrees: 10, bags: 3 },
      calibrationFolds: 3,
    }),
  );
  // blended boosters of two depths: one sum of trees with each member's leaves weighted
  const blended = loadModel(
    buildArtifact([{ file: "a.csv", sha256: "0", data: d }], {
      params: {
        ...SMALL,
        nTrees: 15,
        members: [{ weight: 0.5 }, { weight: 0.5, maxDepth: 4, minChildSamples: 7 }],
      },
      calibrationFolds: 3,
    }),
  );
  const models = existsSync(new URL("../artifact/model.json", import.meta.url))
    ? [small, deep, bagged, blended, loadDefaultModel()]
    : [small, deep, bagged, blended];

  it("contributions add up to the raw prediction (property)", () => {
    for (const model of models) {
      fc.assert(
        fc.property(inputArbitrary(), (input) => {
          const p = model.predict(input);
          expect(p.contributions).toHaveLength(30);
          expect(p.contributions.map((c) => c.feature)).toEqual([...FEATURES]);
          const sum = p.contributions.reduce((s, c) => s + c.effect, p.baseValue);
          expect(Math.abs(sum - p.raw)).toBeLessThan(1e-9);
          expect(p.prediction).toBe(Math.min(20, Math.max(0, p.raw)));
          expect(p.interval.low).toBeLessThanOrEqual(p.prediction);
          expect(p.interval.high).toBeGreaterThanOrEqual(p.prediction);
          expect(p.interval.low).toBeGreaterThanOrEqual(0);
          expect(p.interval.high).toBeLessThanOrEqual(20);
          expect(p.interval.level).toBe(0.8);
        }),
        { numRuns: 300 },
      );
    }
  });

  it("explains with exactly the TreeSHAP recursion's values (tables and recursion agree)", () => {
    expect(deepArtifact.trees.some((t) => t.feature.filter((f) => f >= 0).length > 9)).toBe(true);
    const rand = mulberry32(17);
    for (const model of models) {
      for (let i = 0; i < 50; i++) {
        const input = randomInput(rand);
        const x = new Float64Array(NUM_FEATURES);
        encodeRecord(input, x);
        const phi = shapValues(model.artifact, x);
        const p = model.predict(input);
        p.contributions.forEach((c, f) => {
          expect(Math.abs(c.effect - phi[f]!)).toBeLessThan(1e-12);
        });
        expect(Math.abs(p.raw - rawPredict(model.artifact, x))).toBeLessThan(1e-12);
        expect(Math.abs(p.baseValue - expectedValue(model.artifact))).toBeLessThan(1e-12);
      }
    }
  });

  it("is monotone in G1, G2 (up) and failures (down) on a grid", () => {
    const rand = mulberry32(99);
    let violations = 0;
    let checks = 0;
    const check = (lower: number, higher: number) => {
      checks++;
      if (higher < lower - 1e-12) violations++;
    };
    for (const model of models) {
      for (let trial = 0; trial < 10; trial++) {
        const base = randomInput(rand);
        // grid[failures][G1 / 2][G2]
        const grid = [0, 1, 2, 3, 4].map((failures) =>
          Array.from({ length: 11 }, (_, i) =>
            Array.from(
              { length: 21 },
              (_, g2) => model.predict({ ...base, G1: 2 * i, G2: g2, failures }).raw,
            ),
          ),
        );
        for (let f = 0; f < 5; f++) {
          for (let i = 0; i < 11; i++) {
            for (let g2 = 0; g2 < 21; g2++) {
              const v = grid[f]![i]![g2]!;
              if (g2 > 0) check(grid[f]![i]![g2 - 1]!, v);
              if (i > 0) check(grid[f]![i - 1]![g2]!, v);
              if (f > 0) check(v, grid[f - 1]![i]![g2]!);
            }
          }
        }
      }
    }
    expect(checks).toBeGreaterThan(20000);
    expect(violations).toBe(0);
  }, 30_000);

  it("flags extrapolation and answers inputs outside the data's range", () => {
    for (const model of models) {
      const input = randomInput(mulberry32(5));
      const p = model.predict({ ...input, age: 25, absences: 100, failures: 4 });
      expect(p.extrapolation).toBe(true);
      expect(p.extrapolationFeatures).toEqual(expect.arrayContaining(["age", "absences"]));
      expect(Number.isFinite(p.prediction)).toBe(true);
      const q = model.predict({ ...input, age: 17, absences: 2, failures: 0, G1: 10, G2: 10 });
      expect(q.extrapolation).toBe(false);
      expect(q.extrapolationFeatures).toEqual([]);
    }
  });

  it("accepts numeric strings and rejects a missing input", () => {
    const input = randomInput(mulberry32(6));
    const asStrings = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)]));
    expect(small.predict(asStrings).raw).toBe(small.predict(input).raw);
    const { G2: _drop, ...missing } = input;
    expect(() => small.predict(missing)).toThrow(/G2/);
  });

  it("rejects a malformed artifact", () => {
    expect(() => loadModel({})).toThrow(/format/);
    expect(() => loadModel({ ...artifact, trees: [] })).toThrow(/trees/);
    expect(() => loadModel({ ...artifact, features: FEATURES.slice(1) })).toThrow(/features/);
  });

  it.skipIf(!existsSync(new URL("../artifact/model.json", import.meta.url)))(
    "the committed artifact loads and carries its metadata",
    () => {
      const m = loadDefaultModel();
      expect(m.version).toMatch(/^gbt-/);
      expect(m.features).toHaveLength(30);
      expect(m.globalImportance).toHaveLength(30);
      const top = m.globalImportance[0]!.feature;
      expect(["G1", "G2"]).toContain(top);
      const a = m.artifact;
      expect(a.data.map((f) => f.file)).toEqual(["student-mat.csv", "student-por.csv"]);
      expect(JSON.stringify(a)).not.toMatch(/\/work\//);
    },
  );
});
