/** Training pipeline: the three setups' models, their intervals, and the artifact. */
import { createHash } from "node:crypto";
import { combinedEffects, riskEffects } from "./combine.ts";
import {
  concatDatasets,
  type Dataset,
  FEATURE_CATEGORIES,
  FEATURES,
  MONOTONE,
  NUM_FEATURES,
} from "./data.ts";
import { type Ensemble, explainer } from "./ensemble.ts";
import { seenPairs } from "./extrapolation.ts";
import type { GbtParams } from "./gbt.ts";
import { SETUPS, type Setup, type TrainedSetup, trainSetup, unknownIn } from "./hurdle.ts";
import {
  ARTIFACT_FORMAT,
  COMBINATION_TEXT,
  type FeatureRange,
  type ModelArtifact,
  type SetupArtifact,
} from "./model.ts";

export const MODEL_VERSION_PREFIX = "hurdle-3.0.0";

export interface TrainingFile {
  /** File name only (never a machine path). */
  file: string;
  sha256: string;
  data: Dataset;
}

export interface BuildOptions {
  /** The setups to train (default all three). */
  setups?: readonly Setup[];
  scoreCandidates: readonly GbtParams[];
  riskParams: GbtParams;
  seed: number;
  level?: number;
  calibrationFolds?: number;
  evaluation?: Record<string, unknown>[];
  trainedAt?: string;
  onProgress?: (msg: string) => void;
}

export const sha256 = (buf: Buffer | string) => createHash("sha256").update(buf).digest("hex");

const round6 = (v: number) => Number(v.toPrecision(6));
const rounded = (e: Ensemble): Ensemble => ({
  baseScore: round6(e.baseScore),
  trees: e.trees.map((t) => ({ ...t, value: t.value.map(round6) })),
});

export function featureRanges(d: Dataset): FeatureRange[] {
  return FEATURES.map((feature, f) => {
    const cats = FEATURE_CATEGORIES[f];
    if (cats) {
      const seen = new Set<number>();
      for (let i = 0; i < d.n; i++) seen.add(d.x[i * NUM_FEATURES + f]!);
      return { feature, categories: cats.filter((_, c) => seen.has(c)) };
    }
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < d.n; i++) {
      const v = d.x[i * NUM_FEATURES + f]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    return { feature, min, max };
  });
}

/** Mean |effect| on the headline per input over the rows of `d` (setup A), sorted. */
export function globalImportance(
  s: Pick<SetupArtifact, "score" | "risk" | "calibration">,
  d: Dataset,
): { feature: string; importance: number }[] {
  const score = explainer(s.score);
  const risk = explainer(s.risk);
  const b = new Float64Array(NUM_FEATURES);
  const phi = new Float64Array(NUM_FEATURES);
  const r = new Float64Array(NUM_FEATURES);
  const h = new Float64Array(NUM_FEATURES);
  const sum = new Float64Array(NUM_FEATURES);
  for (let i = 0; i < d.n; i++) {
    const x = d.x.subarray(i * NUM_FEATURES, (i + 1) * NUM_FEATURES);
    score.explain(x, b);
    const logit = risk.explain(x, phi);
    const { risk0 } = riskEffects(risk.baseValue, logit, phi, s.calibration, r);
    combinedEffects(score.baseValue, b, risk0, r, h);
    for (let f = 0; f < NUM_FEATURES; f++) sum[f] = sum[f]! + Math.abs(h[f]!);
  }
  return FEATURES.map((feature, f) => ({ feature, importance: round6(sum[f]! / d.n) })).sort(
    (a, b) => b.importance - a.importance,
  );
}

export function toSetupArtifact(t: TrainedSetup, d: Dataset, opts: BuildOptions): SetupArtifact {
  const unknown = unknownIn(t.setup);
  const features = FEATURES.filter((f) => !unknown.includes(f));
  return {
    setup: t.setup,
    features,
    score: rounded(t.score),
    risk: rounded(t.risk),
    calibration: { a: round6(t.calibration.a), b: round6(t.calibration.b) },
    intervals: t.intervals,
    hyperparameters: {
      score: opts.scoreCandidates[t.chosen],
      risk: opts.riskParams,
      candidates: opts.scoreCandidates,
      candidateRmse: t.candidateRmse.map(round6),
      chosen: t.chosen,
    },
    seenPairs: seenPairs(d.x, d.n, features),
  };
}

export function buildArtifact(files: readonly TrainingFile[], opts: BuildOptions): ModelArtifact {
  const log = opts.onProgress ?? (() => {});
  const all = concatDatasets(files.map((f) => f.data));
  const setups = (opts.setups ?? SETUPS).map((setup) => {
    log(`training setup ${setup} on ${all.n} rows`);
    const t = trainSetup(all, {
      setup,
      scoreCandidates: opts.scoreCandidates,
      riskParams: opts.riskParams,
      folds: opts.calibrationFolds ?? 10,
      seed: opts.seed,
      level: opts.level ?? 0.8,
    });
    return toSetupArtifact(t, all, opts);
  });
  const hash = sha256(JSON.stringify(setups)).slice(0, 8);
  log("computing global importance");
  return {
    format: ARTIFACT_FORMAT,
    modelVersion: `${MODEL_VERSION_PREFIX}-${hash}`,
    trainedAt: opts.trainedAt ?? new Date().toISOString().slice(0, 10),
    data: files.map((f) => ({ file: f.file, sha256: f.sha256, rows: f.data.n })),
    features: [...FEATURES],
    categories: Object.fromEntries(
      FEATURES.flatMap((f, i) => (FEATURE_CATEGORIES[i] ? [[f, [...FEATURE_CATEGORIES[i]!]]] : [])),
    ),
    monotone: { ...MONOTONE },
    target: { name: "G3", min: 0, max: 20 },
    combination: COMBINATION_TEXT,
    setups,
    featureRanges: featureRanges(all),
    globalImportance: globalImportance(setups[0]!, all),
    evaluation: opts.evaluation ?? [],
  };
}
