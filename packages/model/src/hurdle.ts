/**
 * One setup's model: the risk of not sitting the final (logistic trees, all rows, calibrated)
 * and the score if the student sits (regression trees, rows with G3 > 0), both monotone, and
 * the conditional interval of the headline (1 - risk) * score. `trainSetup` is the whole
 * training procedure, hyperparameter choice included, so that the evaluation can run it
 * inside each outer training fold (nested).
 */

import { type Calibration, calibratedRisk, fitPlatt } from "./combine.ts";
import {
  type Dataset,
  FEATURES,
  type FeatureName,
  MONOTONE,
  NUM_FEATURES,
  SUBJECTS,
  subset,
} from "./data.ts";
import { CATEGORY_COUNTS, type Ensemble, rawOutput } from "./ensemble.ts";
import { type FeatureSchema, type GbtParams, trainGbt } from "./gbt.ts";
import { clampGrade } from "./grade.ts";
import { calibrateIntervals, type MondrianIntervals } from "./intervals.ts";
import { deriveSeed, mulberry32, shuffle } from "./prng.ts";

export type Setup = "A" | "B" | "C";
export const SETUPS: readonly Setup[] = ["A", "B", "C"];

/** The inputs a setup does not know. */
export function unknownIn(setup: Setup): FeatureName[] {
  return setup === "A" ? [] : setup === "B" ? ["G2"] : ["G1", "G2"];
}

/** The setup a questionnaire gets: by which of G1 and G2 are known. */
export function setupFor(g1Known: boolean, g2Known: boolean): Setup {
  if (g2Known && !g1Known) throw new Error("G2 is given without G1");
  return g1Known && g2Known ? "A" : g1Known ? "B" : "C";
}

/** The inputs the score's starting line may use (those of them the setup knows). */
export const LINE_INPUTS: readonly FeatureName[] = ["G1", "G2"];

/**
 * The score's constraints; the risk's are the opposite (it falls when the score may rise).
 * `constrained: false` drops every constraint (only to measure what they cost).
 */
export function schemaFor(
  setup: Setup,
  part: "score" | "risk",
  without: readonly string[] = [],
  constrained = true,
) {
  const dropped = [...unknownIn(setup), ...without];
  const sign = part === "score" ? 1 : -1;
  return {
    categories: CATEGORY_COUNTS,
    monotone: FEATURES.map((f) => (constrained ? sign * (MONOTONE[f] ?? 0) : 0)),
    allowed: FEATURES.map((f) => !dropped.includes(f)),
    linear: FEATURES.map((f) => part === "score" && LINE_INPUTS.includes(f)),
  } satisfies FeatureSchema;
}

export interface SetupOptions {
  setup: Setup;
  scoreCandidates: readonly GbtParams[];
  riskParams: GbtParams;
  /** Folds of the inner cross-validation (hyperparameter choice and calibration). */
  folds: number;
  /**
   * Compare the score's candidates on the first this many folds only (default all); the other
   * folds train the chosen candidate alone, for the calibration's and intervals' held-out rows.
   * With many rows one fold's held-out rows already tell the candidates apart.
   */
  chooseOnFolds?: number;
  seed: number;
  level?: number;
  /** Inputs left out (e.g. sex, to measure what it costs). */
  without?: readonly string[];
  /** false: no monotone constraints in either part (only to measure what they cost). */
  constrained?: boolean;
}

export interface TrainedSetup {
  setup: Setup;
  score: Ensemble;
  risk: Ensemble;
  calibration: Calibration;
  intervals: MondrianIntervals;
  /** Index of the chosen score candidate and each candidate's inner-CV RMSE on the sitters. */
  chosen: number;
  candidateRmse: number[];
}

/**
 * Folds where rows sharing a key (the same student in both subjects) stay together. With
 * `weights`, a row counts as that many rows (the folds of the rows repeated).
 */
export function groupKFolds(
  keys: readonly string[],
  k: number,
  seed: number,
  weights?: ArrayLike<number>,
): Int32Array {
  const groups = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const size = (g: readonly number[]) => {
    if (!weights) return g.length;
    let s = 0;
    for (const r of g) s += weights[r]!;
    return s;
  };
  const list = shuffle([...groups.values()], mulberry32(seed)).map((g) => ({ g, n: size(g) }));
  // largest groups first keeps fold sizes even; ties keep the shuffled order
  list.sort((a, b) => b.n - a.n);
  const sizes = new Array<number>(k).fill(0);
  const fold = new Int32Array(keys.length);
  for (const { g, n } of list) {
    let best = 0;
    for (let j = 1; j < k; j++) if (sizes[j]! < sizes[best]!) best = j;
    for (const r of g) fold[r] = best;
    sizes[best]! += n;
  }
  return fold;
}

/** Items repeated by their rows' weights (whole numbers); as they stand when there are none. */
function repeatByWeight<T>(items: readonly T[], weights: readonly number[] | null): T[] {
  if (!weights) return [...items];
  const out: T[] = [];
  items.forEach((v, k) => {
    for (let c = 0; c < weights[k]!; c++) out.push(v);
  });
  return out;
}

const SUBJECT = FEATURES.indexOf("subject");

/** The subject's code of an encoded value, null when not given. */
export function subjectCode(v: number): string | null {
  return SUBJECTS[v] ?? null;
}

function sittersOf(d: Dataset, rows: readonly number[]): number[] {
  return rows.filter((i) => d.y[i]! > 0);
}

export function trainScore(
  d: Dataset,
  rows: readonly number[],
  schema: FeatureSchema,
  params: GbtParams,
): Ensemble {
  const s = subset(d, sittersOf(d, rows));
  return trainGbt(s.x, s.y, NUM_FEATURES, schema, params, s.w);
}

export function trainRisk(
  d: Dataset,
  rows: readonly number[],
  schema: FeatureSchema,
  params: GbtParams,
): Ensemble {
  const s = subset(d, rows);
  const y0 = s.y.map((v) => (v === 0 ? 1 : 0));
  return trainGbt(s.x, y0, NUM_FEATURES, schema, params, s.w);
}

export interface PartsOutput {
  score: number;
  risk: number;
  headline: number;
}

/** The two parts and the headline (unexplained) for row `i` of row-major `x`. */
export function predictParts(
  m: Pick<TrainedSetup, "score" | "risk" | "calibration">,
  x: ArrayLike<number>,
  offset: number,
): PartsOutput {
  const sRaw = rawOutput(m.score, x, offset);
  const risk = calibratedRisk(rawOutput(m.risk, x, offset), m.calibration);
  return { score: clampGrade(sRaw), risk, headline: clampGrade((1 - risk) * sRaw) };
}

/**
 * Candidates that differ only in their number of trees share one training: boosting with the
 * same seed draws the same first trees whatever the total, so the first k trees of the largest
 * are the k-tree candidate. A blend or bag is not a prefix of itself, so it trains alone.
 */
export function stagedGroups(
  candidates: readonly GbtParams[],
): { train: number; members: number[] }[] {
  const groups = new Map<string, { train: number; members: number[] }>();
  candidates.forEach((c, i) => {
    const { nTrees: _, ...rest } = c;
    const key = c.members || (c.bags ?? 1) > 1 ? `alone:${i}` : JSON.stringify(rest);
    const g = groups.get(key);
    if (!g) groups.set(key, { train: i, members: [i] });
    else {
      g.members.push(i);
      if (c.nTrees > candidates[g.train]!.nTrees) g.train = i;
    }
  });
  return [...groups.values()];
}

/** Train a setup on `rows` of `d` (all rows by default): choose, calibrate, fit. */
export function trainSetup(
  d: Dataset,
  opts: SetupOptions,
  rows: readonly number[] = [...Array(d.n).keys()],
): TrainedSetup {
  const { setup, scoreCandidates, riskParams, folds, seed } = opts;
  const scoreSchema = schemaFor(setup, "score", opts.without, opts.constrained);
  const riskSchema = schemaFor(setup, "risk", opts.without, opts.constrained);
  const groups = stagedGroups(scoreCandidates);
  const keys = rows.map((i) => d.keys[i]!);
  const rowWeights = d.w ? rows.map((i) => d.w![i]!) : null;
  const fold = groupKFolds(keys, folds, seed, rowWeights ?? undefined);
  const n = rows.length;
  const logit = new Float64Array(n);
  const score = scoreCandidates.map(() => new Float64Array(n));
  const chooseOn = Math.min(folds, Math.max(1, opts.chooseOnFolds ?? folds));
  const runFold = (j: number, trained: typeof groups) => {
    const train: number[] = [];
    const test: number[] = [];
    for (let k = 0; k < n; k++) (fold[k] === j ? test : train).push(k);
    const trainRows = train.map((k) => rows[k]!);
    const risk = trainRisk(d, trainRows, riskSchema, { ...riskParams, seed: deriveSeed(seed, j) });
    for (const k of test) logit[k] = rawOutput(risk, d.x, rows[k]! * NUM_FEATURES);
    for (const g of trained) {
      const params = { ...scoreCandidates[g.train]!, seed: deriveSeed(seed, j) };
      const m = trainScore(d, trainRows, scoreSchema, params);
      // the boosted trees come after the starting line's: a prefix of them is a smaller model
      const start = m.trees.length - params.nTrees;
      for (const c of g.members) {
        const prefix = { ...m, trees: m.trees.slice(0, start + scoreCandidates[c]!.nTrees) };
        for (const k of test) score[c]![k] = rawOutput(prefix, d.x, rows[k]! * NUM_FEATURES);
      }
    }
  };
  for (let j = 0; j < chooseOn; j++) runFold(j, groups);
  // each candidate's RMSE on the sitters held out in the folds that compared them
  const candidateRmse = score.map((s) => {
    let se = 0;
    let m = 0;
    for (let k = 0; k < n; k++) {
      const y = d.y[rows[k]!]!;
      if (y > 0 && fold[k]! < chooseOn) {
        const wk = rowWeights?.[k] ?? 1;
        se += wk * (clampGrade(s[k]!) - y) ** 2;
        m += wk;
      }
    }
    return Math.sqrt(se / Math.max(m, 1));
  });
  const chosen = candidateRmse.indexOf(Math.min(...candidateRmse));
  const chosenGroup = groups.filter((g) => g.members.includes(chosen));
  for (let j = chooseOn; j < folds; j++) runFold(j, chosenGroup);
  // the calibration and the intervals count a row of weight w w times
  const rep = <T>(v: readonly T[]) => repeatByWeight(v, rowWeights);
  const y = rep(rows.map((i) => d.y[i]!));
  const logits = rep([...logit]);
  const calibration = fitPlatt(
    logits,
    y.map((v) => (v === 0 ? 1 : 0)),
  );
  const risks = logits.map((l) => calibratedRisk(l, calibration));
  const chosenScore = rep([...score[chosen]!]);
  const headline = chosenScore.map((s, k) => clampGrade((1 - risks[k]!) * s));
  const subjects = rep(rows.map((i) => subjectCode(d.x[i * NUM_FEATURES + SUBJECT]!)));
  const intervals = calibrateIntervals(
    { headline, score: chosenScore.map(clampGrade), risk: risks, y, subjects },
    opts.level ?? 0.8,
  );
  return {
    setup,
    score: trainScore(d, rows, scoreSchema, { ...scoreCandidates[chosen]!, seed }),
    risk: trainRisk(d, rows, riskSchema, { ...riskParams, seed: deriveSeed(seed, 999) }),
    calibration,
    intervals,
    chosen,
    candidateRmse,
  };
}
