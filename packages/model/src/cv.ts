/**
 * Nested, repeated k-fold evaluation. Each outer training fold runs the whole training
 * procedure (trainSetup: the inner cross-validation that chooses the score's hyperparameters,
 * calibrates the risk and the interval); the outer test fold plays no part in any choice.
 */
import { concatDatasets, type Dataset, FEATURES, NUM_FEATURES, subset } from "./data.ts";
import type { GbtParams } from "./gbt.ts";
import {
  predictParts,
  type Setup,
  subjectCode,
  type TrainedSetup,
  trainSetup,
  unknownIn,
} from "./hurdle.ts";
import { intervalFor } from "./intervals.ts";
import { auc, brier, reliability, trainLogistic } from "./logistic.ts";
import { deriveSeed, mulberry32, shuffle } from "./prng.ts";

export { groupKFolds, type Setup } from "./hurdle.ts";

/** Assign each of n rows to one of k folds (sizes differ by at most one), shuffled by seed. */
export function kFolds(n: number, k: number, seed: number): Int32Array {
  const order = shuffle([...Array(n).keys()], mulberry32(seed));
  const fold = new Int32Array(n);
  order.forEach((row, i) => {
    fold[row] = i % k;
  });
  return fold;
}

export interface EvalOptions {
  data: Dataset;
  /** Rows of the other subject added to every training fold (minus the test fold's students). */
  extra?: Dataset | undefined;
  setup: Setup;
  folds: number;
  repeats: number;
  seed: number;
  scoreCandidates: readonly GbtParams[];
  riskParams: GbtParams;
  innerFolds?: number;
  level?: number;
  /** Inputs left out of both parts (e.g. sex, to measure what it costs). */
  without?: readonly string[];
  /** false: both parts without monotone constraints (only to measure what they cost). */
  constrained?: boolean;
  passThreshold?: number;
  onProgress?: (msg: string) => void;
  /** Each outer fold's trained setup and its held-out rows (e.g. to score variants on them). */
  onFold?: (m: TrainedSetup, test: readonly number[], repeat: number) => void;
}

/** One held-out prediction. */
export interface HeldOut {
  repeat: number;
  fold: number;
  row: number;
  y: number;
  prediction: number;
  scoreIfSits: number;
  risk: number;
  baselineRisk: number;
  low: number;
  high: number;
}

export interface GroupFigures {
  group: string;
  rows: number;
  coverage: number;
  rmse: number;
  /** RMSE of scoreIfSits on the group's students who sat (null when none). */
  rmseSat: number | null;
}

export interface EvalResult {
  setup: Setup;
  folds: number;
  repeats: number;
  /** All rows, headline prediction (the paper's protocol). */
  rmse: { mean: number; std: number };
  mae: number;
  passAccuracy: number;
  /** Students who sat (G3 > 0), scoreIfSits. */
  rmseSat: { mean: number; std: number };
  intervalCoverage: number;
  intervalWidth: number;
  /** Share of the held-out rows whose interval reaches down to 0. */
  intervalReachesZero: number;
  noFinalScoreRisk: {
    brier: number;
    auc: number;
    baselineBrier: number;
    baselineAuc: number;
    baseline: string;
    reliability: ReturnType<typeof reliability>;
    /** The logistic baseline's, on the same held-out rows and bins. */
    baselineReliability: ReturnType<typeof reliability>;
  };
  groups: GroupFigures[];
  /** How often each score candidate was chosen by the inner cross-validation. */
  chosen: number[];
  heldOut: HeldOut[];
}

const mean = (a: readonly number[]) => a.reduce((s, v) => s + v, 0) / a.length;
const std = (a: readonly number[]) => {
  if (a.length < 2) return 0;
  const m = mean(a);
  return Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0) / (a.length - 1));
};

const bandNames = ["below 7", "7 to 14", "14 and above"];

/** The groups a held-out row belongs to (for per-group coverage and RMSE). */
export function groupsOf(d: Dataset, h: HeldOut): string[] {
  const at = (f: string) => d.x[h.row * NUM_FEATURES + FEATURES.indexOf(f as never)]!;
  const age = at("age");
  const band = h.prediction < 7 ? 0 : h.prediction < 14 ? 1 : 2;
  return [
    "all",
    h.y === 0 ? "ended with 0" : "sat the final",
    `predicted ${bandNames[band]}`,
    `school ${["GP", "MS"][at("school")]}`,
    `sex ${["F", "M"][at("sex")]}`,
    `address ${["U", "R"][at("address")]}`,
    `age ${age <= 16 ? "15-16" : age <= 18 ? "17-18" : "19+"}`,
  ];
}

export function evaluate(opts: EvalOptions): EvalResult {
  const { data, extra, setup, folds, repeats, seed } = opts;
  const passThreshold = opts.passThreshold ?? 9.5;
  const baselineExcluded = ["absences", ...unknownIn(setup)];
  const heldOut: HeldOut[] = [];
  const chosen = opts.scoreCandidates.map(() => 0);
  for (let r = 0; r < repeats; r++) {
    const rSeed = deriveSeed(seed, r);
    const fold = kFolds(data.n, folds, rSeed);
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
      const m = trainSetup(tr, {
        setup,
        scoreCandidates: opts.scoreCandidates,
        riskParams: opts.riskParams,
        folds: opts.innerFolds ?? 5,
        seed: fSeed,
        level: opts.level ?? 0.8,
        without: opts.without,
        constrained: opts.constrained,
      });
      chosen[m.chosen]!++;
      opts.onFold?.(m, test, r);
      const y0 = tr.y.map((v) => (v === 0 ? 1 : 0));
      const baseline = trainLogistic(tr.x, y0, tr.n, [
        ...baselineExcluded,
        ...(opts.without ?? []),
      ]);
      for (const i of test) {
        const p = predictParts(m, data.x, i * NUM_FEATURES);
        const subject = subjectCode(data.x[i * NUM_FEATURES + FEATURES.indexOf("subject")]!);
        const iv = intervalFor(
          m.intervals,
          { prediction: p.headline, scoreIfSits: p.score, risk: p.risk },
          subject,
        );
        heldOut.push({
          repeat: r,
          fold: j,
          row: i,
          y: data.y[i]!,
          prediction: p.headline,
          scoreIfSits: p.score,
          risk: p.risk,
          baselineRisk: baseline.predict(data.x, i * NUM_FEATURES),
          low: iv.low,
          high: iv.high,
        });
      }
      opts.onProgress?.(`setup ${setup}: repeat ${r + 1}/${repeats}, fold ${j + 1}/${folds}`);
    }
  }
  return summarise(data, opts, heldOut, chosen, passThreshold);
}

function rmseOf(hs: readonly HeldOut[], sat: boolean): number {
  const rows = sat ? hs.filter((h) => h.y > 0) : hs;
  if (rows.length === 0) return Number.NaN;
  const key = sat ? "scoreIfSits" : "prediction";
  return Math.sqrt(rows.reduce((s, h) => s + (h[key] - h.y) ** 2, 0) / rows.length);
}

function summarise(
  data: Dataset,
  opts: EvalOptions,
  heldOut: HeldOut[],
  chosen: number[],
  passThreshold: number,
): EvalResult {
  const perRepeat = Array.from({ length: opts.repeats }, (_, r) =>
    heldOut.filter((h) => h.repeat === r),
  );
  const covered = (h: HeldOut) => h.y >= h.low && h.y <= h.high;
  const y0 = heldOut.map((h) => (h.y === 0 ? 1 : 0));
  const risks = heldOut.map((h) => h.risk);
  const base = heldOut.map((h) => h.baselineRisk);
  const byGroup = new Map<string, HeldOut[]>();
  for (const h of heldOut) {
    for (const g of groupsOf(data, h)) {
      const list = byGroup.get(g);
      if (list) list.push(h);
      else byGroup.set(g, [h]);
    }
  }
  const groups: GroupFigures[] = [...byGroup.entries()].map(([group, hs]) => {
    const sat = hs.filter((h) => h.y > 0);
    return {
      group,
      rows: hs.length,
      coverage: hs.filter(covered).length / hs.length,
      rmse: rmseOf(hs, false),
      rmseSat: sat.length > 0 ? rmseOf(sat, true) : null,
    };
  });
  return {
    setup: opts.setup,
    folds: opts.folds,
    repeats: opts.repeats,
    rmse: {
      mean: mean(perRepeat.map((hs) => rmseOf(hs, false))),
      std: std(perRepeat.map((hs) => rmseOf(hs, false))),
    },
    mae: mean(heldOut.map((h) => Math.abs(h.prediction - h.y))),
    passAccuracy:
      heldOut.filter((h) => h.prediction >= passThreshold === h.y >= 10).length / heldOut.length,
    rmseSat: {
      mean: mean(perRepeat.map((hs) => rmseOf(hs, true))),
      std: std(perRepeat.map((hs) => rmseOf(hs, true))),
    },
    intervalCoverage: heldOut.filter(covered).length / heldOut.length,
    intervalWidth: mean(heldOut.map((h) => h.high - h.low)),
    intervalReachesZero: heldOut.filter((h) => h.low === 0).length / heldOut.length,
    noFinalScoreRisk: {
      brier: brier(risks, y0),
      auc: auc(risks, y0),
      baselineBrier: brier(base, y0),
      baselineAuc: auc(base, y0),
      baseline:
        "L2 logistic regression on the same training folds, without absences (the artefact) and without the grades the setup does not know",
      reliability: reliability(risks, y0),
      baselineReliability: reliability(base, y0),
    },
    groups,
    chosen,
    heldOut,
  };
}
