/** Training pipeline: fit the trees on all rows, calibrate the interval, build the artifact. */
import { createHash } from "node:crypto";
import { clampGrade, conformalQuantile, outOfFold, schemaFor } from "./cv.ts";
import {
  concatDatasets,
  type Dataset,
  FEATURE_CATEGORIES,
  FEATURES,
  MONOTONE,
  NUM_FEATURES,
} from "./data.ts";
import { type GbtParams, trainGbt } from "./gbt.ts";
import {
  ARTIFACT_FORMAT,
  type FeatureRange,
  type ModelArtifact,
  type SubjectEvaluation,
  shapValues,
} from "./model.ts";
import { ShapWorkspace } from "./shap.ts";

export const MODEL_VERSION_PREFIX = "gbt-1.0.0";

export interface TrainingFile {
  /** File name only (never a machine path). */
  file: string;
  sha256: string;
  data: Dataset;
}

export interface BuildOptions {
  params: GbtParams;
  level?: number;
  calibrationFolds?: number;
  evaluation?: SubjectEvaluation[];
  trainedAt?: string;
  onProgress?: (msg: string) => void;
}

export const sha256 = (buf: Buffer | string) => createHash("sha256").update(buf).digest("hex");

const round6 = (v: number) => Number(v.toPrecision(6));

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

/** Mean |SHAP value| per feature over the rows of `d`, sorted descending. */
export function globalImportance(
  model: Pick<ModelArtifact, "trees">,
  d: Dataset,
): { feature: string; importance: number }[] {
  const sum = new Float64Array(NUM_FEATURES);
  const ws = new ShapWorkspace();
  for (let i = 0; i < d.n; i++) {
    const phi = shapValues(model, d.x, i * NUM_FEATURES, ws);
    for (let f = 0; f < NUM_FEATURES; f++) sum[f] = sum[f]! + Math.abs(phi[f]!);
  }
  return FEATURES.map((feature, f) => ({ feature, importance: round6(sum[f]! / d.n) })).sort(
    (a, b) => b.importance - a.importance,
  );
}

export function buildArtifact(files: readonly TrainingFile[], opts: BuildOptions): ModelArtifact {
  const level = opts.level ?? 0.8;
  const calibrationFolds = opts.calibrationFolds ?? 10;
  const log = opts.onProgress ?? (() => {});
  const all = concatDatasets(files.map((f) => f.data));
  const schema = schemaFor("A");
  log(`training on ${all.n} rows`);
  const gbt = trainGbt(all.x, all.y, NUM_FEATURES, schema, opts.params);
  const trees = gbt.trees.map((t) => ({ ...t, value: t.value.map(round6) }));
  const baseScore = round6(gbt.baseScore);

  log(`calibrating the ${level} interval on ${calibrationFolds}-fold out-of-fold residuals`);
  const oof = outOfFold(all, schema, opts.params, calibrationFolds, opts.params.seed);
  const res = oof.map((p, i) => Math.abs(clampGrade(p) - all.y[i]!));
  const quantile = round6(conformalQuantile(res, level));

  const hash = sha256(JSON.stringify({ baseScore, trees })).slice(0, 8);
  const model = { baseScore, trees };
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
    hyperparameters: { learner: "gradient-boosted trees, squared error", ...opts.params },
    target: { name: "G3", min: 0, max: 20 },
    baseScore,
    trees,
    conformal: {
      level,
      quantile,
      calibrationRows: all.n,
      method: `split-conformal on |residual| of ${calibrationFolds}-fold out-of-fold predictions (folds grouped by student), quantile ceil((n+1)*level)/n`,
    },
    featureRanges: featureRanges(all),
    globalImportance: globalImportance(model, all),
    evaluation: opts.evaluation ?? [],
  };
}
