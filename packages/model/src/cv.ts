/** Cross-validation folds, split-conformal quantiles and the repeated k-fold evaluation. */
import {
  concatDatasets,
  type Dataset,
  FEATURE_CATEGORIES,
  FEATURES,
  MONOTONE,
  NUM_FEATURES,
  subset,
} from "./data.ts";
import { type FeatureSchema, type GbtParams, predictGbt, trainGbt } from "./gbt.ts";
import { deriveSeed, mulberry32, shuffle } from "./prng.ts";

export type Setup = "A" | "B" | "C";

export const SCHEMA_CATEGORIES: readonly number[] = FEATURE_CATEGORIES.map((c) => c?.length ?? 0);
export const SCHEMA_MONOTONE: readonly number[] = FEATURES.map((f) => MONOTONE[f] ?? 0);

export function schemaFor(setup: Setup = "A"): FeatureSchema {
  const dropped: string[] = setup === "B" ? ["G2"] : setup === "C" ? ["G1", "G2"] : [];
  return {
    categories: SCHEMA_CATEGORIES,
    monotone: SCHEMA_MONOTONE,
    allowed: FEATURES.map((f) => !dropped.includes(f)),
  };
}

/** Assign each of n rows to one of k folds (sizes differ by at most one), shuffled by seed. */
export function kFolds(n: number, k: number, seed: number): Int32Array {
  const order = shuffle([...Array(n).keys()], mulberry32(seed));
  const fold = new Int32Array(n);
  order.forEach((row, i) => {
    fold[row] = i % k;
  });
  return fold;
}

/** Folds where rows sharing a key (the same student in both subjects) stay together. */
export function groupKFolds(keys: readonly string[], k: number, seed: number): Int32Array {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const list = shuffle([...groups.values()], mulberry32(seed));
  // largest groups first keeps fold sizes even; ties keep the shuffled order
  list.sort((a, b) => b.length - a.length);
  const sizes = new Array<number>(k).fill(0);
  const fold = new Int32Array(keys.length);
  for (const g of list) {
    let best = 0;
    for (let j = 1; j < k; j++) if (sizes[j]! < sizes[best]!) best = j;
    for (const r of g) fold[r] = best;
    sizes[best]! += g.length;
  }
  return fold;
}

/** Split-conformal quantile of |residual|: the ceil((n+1)*level)-th smallest. */
export function conformalQuantile(absResiduals: ArrayLike<number>, level: number): number {
  const sorted = Float64Array.from(absResiduals).sort();
  const n = sorted.length;
  const k = Math.ceil((n + 1) * level);
  if (k > n || n === 0) return Number.POSITIVE_INFINITY;
  return sorted[k - 1]!;
}

export const clampGrade = (v: number) => (v < 0 ? 0 : Math.min(v, 20));

/** Out-of-fold predictions (raw) for every row of `d`, with group folds on the student key. */
export function outOfFold(
  d: Dataset,
  schema: FeatureSchema,
  params: GbtParams,
  k: number,
  seed: number,
): Float64Array {
  const fold = groupKFolds(d.keys, k, seed);
  const oof = new Float64Array(d.n);
  for (let j = 0; j < k; j++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < d.n; i++) (fold[i] === j ? test : train).push(i);
    const tr = subset(d, train);
    const m = trainGbt(tr.x, tr.y, NUM_FEATURES, schema, { ...params, seed: deriveSeed(seed, j) });
    for (const i of test) oof[i] = predictGbt(m, d.x, i * NUM_FEATURES, schema.categories);
  }
  return oof;
}

export interface EvalOptions {
  data: Dataset;
  /** Rows of the other subject added to every training fold (minus the test fold's students). */
  extra?: Dataset | undefined;
  setup: Setup;
  folds: number;
  repeats: number;
  seed: number;
  params: GbtParams;
  /** Repeats (the first ones) on which interval coverage is measured with an inner CV. */
  coverageRepeats: number;
  innerFolds?: number;
  level?: number;
  passThreshold?: number;
  onProgress?: (msg: string) => void;
}

export interface EvalResult {
  rmse: { mean: number; std: number };
  mae: number;
  passAccuracy: number;
  intervalCoverage: number | null;
  intervalWidth: number | null;
  rmsePerRepeat: number[];
}

const mean = (a: readonly number[]) => a.reduce((s, v) => s + v, 0) / a.length;
const std = (a: readonly number[]) => {
  if (a.length < 2) return 0;
  const m = mean(a);
  return Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0) / (a.length - 1));
};

/**
 * Repeated k-fold CV over `data`'s rows. RMSE is computed over all out-of-fold predictions of a
 * repeat; mean and sample std are over repeats (the paper's protocol). Predictions are clamped.
 */
export function evaluate(opts: EvalOptions): EvalResult {
  const { data, extra, setup, folds, repeats, seed, params } = opts;
  const level = opts.level ?? 0.8;
  const passThreshold = opts.passThreshold ?? 9.5;
  const innerFolds = opts.innerFolds ?? 5;
  const schema = schemaFor(setup);
  const rmses: number[] = [];
  const maes: number[] = [];
  const accs: number[] = [];
  let covered = 0;
  let coverN = 0;
  let widthSum = 0;
  for (let r = 0; r < repeats; r++) {
    const rSeed = deriveSeed(seed, r);
    const fold = kFolds(data.n, folds, rSeed);
    const pred = new Float64Array(data.n);
    for (let j = 0; j < folds; j++) {
      const train: number[] = [];
      const test: number[] = [];
      for (let i = 0; i < data.n; i++) (fold[i] === j ? test : train).push(i);
      let tr = subset(data, train);
      if (extra) {
        const testKeys = new Set(test.map((i) => data.keys[i]!));
        const keep: number[] = [];
        for (let i = 0; i < extra.n; i++) if (!testKeys.has(extra.keys[i]!)) keep.push(i);
        tr = concatDatasets([tr, subset(extra, keep)]);
      }
      const fSeed = deriveSeed(rSeed, j + 1000);
      const m = trainGbt(tr.x, tr.y, NUM_FEATURES, schema, { ...params, seed: fSeed });
      for (const i of test) pred[i] = predictGbt(m, data.x, i * NUM_FEATURES, schema.categories);
      if (r < opts.coverageRepeats) {
        const oof = outOfFold(tr, schema, params, innerFolds, fSeed);
        const res = oof.map((p, i) => Math.abs(clampGrade(p) - tr.y[i]!));
        const q = conformalQuantile(res, level);
        for (const i of test) {
          const lo = clampGrade(pred[i]! - q);
          const hi = clampGrade(pred[i]! + q);
          const y = data.y[i]!;
          if (y >= lo && y <= hi) covered++;
          coverN++;
          widthSum += hi - lo;
        }
      }
    }
    let se = 0;
    let ae = 0;
    let ok = 0;
    for (let i = 0; i < data.n; i++) {
      const p = clampGrade(pred[i]!);
      const y = data.y[i]!;
      se += (p - y) ** 2;
      ae += Math.abs(p - y);
      if (p >= passThreshold === y >= 10) ok++;
    }
    rmses.push(Math.sqrt(se / data.n));
    maes.push(ae / data.n);
    accs.push(ok / data.n);
    opts.onProgress?.(`repeat ${r + 1}/${repeats}: rmse ${rmses[r]!.toFixed(4)}`);
  }
  return {
    rmse: { mean: mean(rmses), std: std(rmses) },
    mae: mean(maes),
    passAccuracy: mean(accs),
    intervalCoverage: coverN > 0 ? covered / coverN : null,
    intervalWidth: coverN > 0 ? widthSum / coverN : null,
    rmsePerRepeat: rmses,
  };
}
