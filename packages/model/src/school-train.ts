/**
 * A candidate model that learns from its school (issue 30): the base rows (the UCI files) plus
 * the school's outcome rows, the school's rows weighted by a factor chosen by cross-validation
 * over the school's rows, each setup with the same two parts, constraints, calibration and
 * intervals as the shipped model (trainSetup). The same cross-validation gives the gate its
 * held-out rows: each school row is predicted by a candidate trained without it and by the
 * model in use, which never saw it.
 */
import {
  concatDatasets,
  type Dataset,
  FEATURE_CATEGORIES,
  FEATURES,
  NUM_FEATURES,
} from "./data.ts";
import { rawOutput } from "./ensemble.ts";
import { type GateRow, type PairedRow, pairedRow } from "./gate.ts";
import type { GbtParams } from "./gbt.ts";
import { clampGrade } from "./grade.ts";
import {
  groupKFolds,
  SETUPS,
  type Setup,
  schemaFor,
  type TrainedSetup,
  trainScore,
  trainSetup,
} from "./hurdle.ts";
import {
  ARTIFACT_FORMAT,
  COMBINATION_TEXT,
  type GradeModel,
  loadModel,
  type ModelArtifact,
} from "./model.ts";
import { type OutcomeRow, rowsForSetup, toWeightedDataset } from "./outcomes.ts";
import { deriveSeed } from "./prng.ts";
import {
  type BuildOptions,
  featureRanges,
  globalImportance,
  MODEL_VERSION_PREFIX,
  sha256,
  toSetupArtifact,
} from "./train.ts";

export const SCHOOL_WEIGHTS: readonly number[] = [1, 2, 4];

/**
 * A setup whose school has many outcome rows: the folds' figures vary little, so its
 * cross-validation does less. The weight is chosen on fewer folds and the search stops at the
 * first weight whose RMSE is higher than the previous one's (weights ascending); the gate's
 * held-out rows come from one repeat whose fits calibrate on fewer folds; the final fit calibrates
 * on fewer folds and compares its hyperparameters on the first of them only (its held-out rows
 * are a fifth of many). A smaller school keeps the options' figures.
 */
export interface LargeSchool {
  /** A setup is large from this many school rows. */
  rows: number;
  weightFolds: number;
  repeats: number;
  cvCalibrationFolds: number;
  calibrationFolds: number;
  /** The final fit compares its score candidates on this many of its folds (trainSetup). */
  chooseOnFolds: number;
}

export const LARGE_SCHOOL: LargeSchool = {
  rows: 1000,
  weightFolds: 3,
  repeats: 1,
  cvCalibrationFolds: 2,
  calibrationFolds: 5,
  chooseOnFolds: 1,
};

export interface SchoolTrainOptions {
  /** The base rows (the UCI files) and their description for the artifact. */
  base: Dataset;
  baseFiles: { file: string; sha256: string; rows: number }[];
  /** The school's outcome rows (one per student and stage). */
  school: readonly OutcomeRow[];
  /** The model in use: the gate's reference on the same held-out rows. */
  current: GradeModel;
  setups?: readonly Setup[];
  weights?: readonly number[];
  /** Cross-validation over the school's rows: folds and repeats (the weight is chosen on the first). */
  folds?: number;
  repeats?: number;
  scoreCandidates: readonly GbtParams[];
  riskParams: GbtParams;
  /** Folds of the final fit's calibration (10 as the shipped model) and of the CV's fits. */
  calibrationFolds?: number;
  cvCalibrationFolds?: number;
  /** Less cross-validation for a setup with many school rows (default LARGE_SCHOOL; null: never). */
  large?: LargeSchool | null;
  seed: number;
  trainedAt?: string;
  /** Steps done of the total, and what is being done. */
  onProgress?: (done: number, total: number, message: string) => void;
}

export interface SchoolTrainResult {
  artifact: ModelArtifact;
  /** The school rows' weight chosen per setup, and each weight's cross-validated RMSE. */
  weights: { setup: Setup; weight: number; rmse: Record<string, number | null>; rows: number }[];
  /** Each school row held out, predicted by the candidate and the model in use. */
  heldOut: PairedRow[];
}

/** The hyperparameters the model in use chose for a setup: the cross-validation's fits use them. */
function cvCandidates(opts: SchoolTrainOptions, setup: Setup): GbtParams[] {
  const s = opts.current.artifact.setups.find((a) => a.setup === setup);
  const chosen = s?.hyperparameters.score as GbtParams | undefined;
  return [chosen ?? opts.scoreCandidates[0]!];
}

/** One fit of a setup on the base rows plus school rows of a weight. */
function fit(
  opts: SchoolTrainOptions,
  setup: Setup,
  school: readonly OutcomeRow[],
  weight: number,
  candidates: readonly GbtParams[],
  folds: number,
  seed: number,
  chooseOnFolds?: number,
): { trained: TrainedSetup; data: Dataset } {
  const data = concatDatasets([opts.base, toWeightedDataset(school, weight)]);
  const trained = trainSetup(data, {
    setup,
    scoreCandidates: candidates,
    riskParams: { ...opts.riskParams, seed },
    folds,
    chooseOnFolds,
    seed,
  });
  return { trained, data };
}

/** A fit's predictions of rows, as the runtime model makes them. */
function asModel(t: TrainedSetup, data: Dataset, opts: SchoolTrainOptions): GradeModel {
  const setup = toSetupArtifact(t, data, {
    scoreCandidates: [],
    riskParams: opts.riskParams,
    seed: opts.seed,
  } as BuildOptions);
  return loadModel({
    ...opts.current.artifact,
    setups: [setup],
    featureRanges: featureRanges(data),
  });
}

/** A setup's outcome row as the gate pairs it, with the groups whose coverage it checks. */
const gateRow = (r: OutcomeRow, setup: Setup): GateRow => ({
  setup,
  subject: r.subject,
  g3: r.g3,
  input: r.input,
  groups: groupsOfInput(r.input, r.g3),
});

/** The groups whose interval coverage the gate checks. */
export function groupsOfInput(input: Record<string, string | number | null>, g3: number): string[] {
  const age = Number(input.age);
  return [
    "all",
    g3 === 0 ? "ended with 0" : "sat the final",
    `subject ${input.subject}`,
    `sex ${input.sex}`,
    `address ${input.address}`,
    `age ${age <= 16 ? "15-16" : age <= 18 ? "17-18" : "19+"}`,
  ];
}

/**
 * Outcome rows the candidate never saw (an outcomes file, a held-out half) as pairedOn reads
 * them: each setup's rows with the groups whose coverage the gate checks.
 */
export function gateRowsOf(rows: readonly OutcomeRow[], setups: readonly Setup[]) {
  return setups.flatMap((setup) => rowsForSetup(rows, setup).map((r) => gateRow(r, setup)));
}

/** The score's predictions (clamped, as scoreIfSits) of `test` by a fit on `train` of a weight. */
function scoreOnly(
  opts: SchoolTrainOptions,
  setup: Setup,
  train: readonly OutcomeRow[],
  test: readonly OutcomeRow[],
  weight: number,
  params: GbtParams,
  seed: number,
): number[] {
  const data = concatDatasets([opts.base, toWeightedDataset(train, weight)]);
  const m = trainScore(data, [...Array(data.n).keys()], schemaFor(setup, "score"), {
    ...params,
    seed,
  });
  const t = toWeightedDataset(test, 1);
  return test.map((_, i) => clampGrade(rawOutput(m, t.x, i * NUM_FEATURES)));
}

/**
 * Trains the candidate. Steps, per setup: the weights' cross-validation (weights × folds fits of
 * the score alone: the choice reads only the score's RMSE on those who sat), the chosen weight's
 * repeats (folds whole fits each: both parts, calibration and intervals, whose held-out rows the
 * gate compares), then the final fit on every row. The school's rows are weighted, not
 * repeated (outcomes.ts).
 */
export function trainSchoolCandidate(opts: SchoolTrainOptions): SchoolTrainResult {
  const setups = opts.setups ?? SETUPS;
  const weights = opts.weights ?? SCHOOL_WEIGHTS;
  const large = opts.large === undefined ? LARGE_SCHOOL : opts.large;
  /** Each setup's rows and the cross-validation's figures for them. */
  const plans = setups.map((setup) => {
    const rows = rowsForSetup(opts.school, setup);
    const folds = opts.folds ?? 5;
    const plan = {
      setup,
      rows,
      folds,
      weightFolds: folds,
      repeats: Math.max(1, opts.repeats ?? 2),
      cvCal: opts.cvCalibrationFolds ?? 5,
      calibrationFolds: opts.calibrationFolds ?? 10,
      chooseOnFolds: undefined as number | undefined,
      stopWhenWorse: false,
    };
    if (!large || rows.length < large.rows) return plan;
    return {
      ...plan,
      weightFolds: Math.min(folds, large.weightFolds),
      repeats: Math.min(plan.repeats, large.repeats),
      cvCal: Math.min(plan.cvCal, large.cvCalibrationFolds),
      calibrationFolds: Math.min(plan.calibrationFolds, large.calibrationFolds),
      chooseOnFolds: large.chooseOnFolds,
      stopWhenWorse: true,
    };
  });
  const total = plans.reduce(
    (s, p) => s + weights.length * p.weightFolds + p.repeats * p.folds + 1,
    0,
  );
  let done = 0;
  const step = (message: string) => opts.onProgress?.(done, total, message);
  const heldOut: PairedRow[] = [];
  const chosenWeights: SchoolTrainResult["weights"] = [];
  const trained: { t: TrainedSetup; data: Dataset }[] = [];

  for (const {
    setup,
    rows,
    folds,
    weightFolds,
    repeats,
    cvCal,
    calibrationFolds,
    chooseOnFolds,
    stopWhenWorse,
  } of plans) {
    const candidates = cvCandidates(opts, setup);
    const foldsOf = (repeat: number, k = folds) => {
      const seed = deriveSeed(opts.seed, 1000 * repeat + 7);
      const fold = groupKFolds(
        rows.map((r) => r.key),
        k,
        seed,
      );
      return { seed, fold };
    };
    /** The score's cross-validated RMSE on those who sat, with the school's rows of a weight. */
    const weightRmse = (weight: number): number | null => {
      const { seed, fold } = foldsOf(0, weightFolds);
      let se = 0;
      let m = 0;
      for (let j = 0; j < weightFolds; j++) {
        step(`setup ${setup}: weight ${weight}, fold ${j + 1} of ${weightFolds}`);
        const train = rows.filter((_, i) => fold[i] !== j);
        const test = rows.filter((_, i) => fold[i] === j);
        if (test.length > 0) {
          const p = scoreOnly(
            opts,
            setup,
            train,
            test,
            weight,
            candidates[0]!,
            deriveSeed(seed, j),
          );
          test.forEach((r, i) => {
            if (r.g3 > 0) {
              se += (p[i]! - r.g3) ** 2;
              m++;
            }
          });
        }
        done++;
      }
      return m === 0 ? null : Math.sqrt(se / m);
    };
    /** Held-out predictions of one repeat with one weight: whole fits, as the candidate's. */
    const crossValidate = (weight: number, repeat: number): PairedRow[] => {
      const { seed, fold } = foldsOf(repeat);
      const out: PairedRow[] = [];
      for (let j = 0; j < folds; j++) {
        step(`setup ${setup}: weight ${weight}, repeat ${repeat + 1}, fold ${j + 1} of ${folds}`);
        const train = rows.filter((_, i) => fold[i] !== j);
        const test = rows.filter((_, i) => fold[i] === j);
        if (test.length > 0) {
          const f = fit(opts, setup, train, weight, candidates, cvCal, deriveSeed(seed, j));
          const model = asModel(f.trained, f.data, opts);
          for (const r of test) out.push(pairedRow(gateRow(r, setup), model, opts.current, repeat));
        }
        done++;
      }
      return out;
    };
    const byWeight: { w: number; rmse: number | null }[] = [];
    let stopped = false;
    for (const w of weights) {
      const [before, last] = byWeight.slice(-2).map((b) => b.rmse);
      if (stopWhenWorse && last != null && before != null && last > before) stopped = true;
      if (rows.length > 0 && !stopped) byWeight.push({ w, rmse: weightRmse(w) });
      else {
        done += weightFolds;
        byWeight.push({ w, rmse: null });
      }
    }
    const rmse = Object.fromEntries(byWeight.map((b) => [String(b.w), b.rmse]));
    // the lowest cross-validated RMSE; a tie keeps the smaller weight
    let best = byWeight[0]!;
    for (const b of byWeight) {
      if (b.rmse !== null && (best.rmse === null || b.rmse < best.rmse - 1e-12)) best = b;
    }
    chosenWeights.push({ setup, weight: best.w, rmse, rows: rows.length });
    for (let r = 0; r < repeats; r++) {
      if (rows.length > 0) heldOut.push(...crossValidate(best.w, r));
      else done += folds;
    }
    step(`setup ${setup}: final fit with the school's rows weighted ${best.w}`);
    const f = fit(
      opts,
      setup,
      rows,
      best.w,
      opts.scoreCandidates,
      calibrationFolds,
      opts.seed,
      chooseOnFolds,
    );
    trained.push({ t: f.trained, data: f.data });
    done++;
    step(`setup ${setup} done`);
  }

  const buildOpts = {
    scoreCandidates: opts.scoreCandidates,
    riskParams: opts.riskParams,
    seed: opts.seed,
  } as BuildOptions;
  const setupArtifacts = trained.map(({ t, data }) => toSetupArtifact(t, data, buildOpts));
  const all = concatDatasets([opts.base, toWeightedDataset(opts.school, 1)]);
  const hash = sha256(JSON.stringify(setupArtifacts)).slice(0, 8);
  const artifact: ModelArtifact = {
    format: ARTIFACT_FORMAT,
    modelVersion: `${MODEL_VERSION_PREFIX}-school-${hash}`,
    trainedAt: opts.trainedAt ?? new Date().toISOString().slice(0, 10),
    data: [...opts.baseFiles, { file: "school outcomes", sha256: "", rows: opts.school.length }],
    features: [...FEATURES],
    categories: Object.fromEntries(
      FEATURES.flatMap((f, i) => (FEATURE_CATEGORIES[i] ? [[f, [...FEATURE_CATEGORIES[i]!]]] : [])),
    ),
    monotone: { ...opts.current.artifact.monotone },
    target: { name: "G3", min: 0, max: 20 },
    combination: COMBINATION_TEXT,
    setups: setupArtifacts,
    featureRanges: featureRanges(all),
    globalImportance: globalImportance(setupArtifacts[0]!, opts.base),
    evaluation: [
      {
        protocol: "school outcomes",
        weights: chosenWeights.map(({ setup, weight, rows }) => ({ setup, weight, rows })),
      },
    ],
  };
  return { artifact, weights: chosenWeights, heldOut };
}
