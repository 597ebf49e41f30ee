/** The runtime model: artifact validation, loading, prediction with exact explanations. */

import { readFileSync } from "node:fs";
import { type Calibration, calibratedRisk, combinedEffects, riskEffects } from "./combine.ts";
import { encodeValue, FEATURE_CATEGORIES, FEATURES, NUM_FEATURES } from "./data.ts";
import { CATEGORY_COUNTS, type Ensemble, type Explainer, explainer } from "./ensemble.ts";
import { type SeenPairs, unseenCombinations } from "./extrapolation.ts";
import type { Tree } from "./gbt.ts";
import { clampGrade } from "./grade.ts";
import { SETUPS, type Setup, setupFor, unknownIn } from "./hurdle.ts";
import { intervalFor, type MondrianIntervals } from "./intervals.ts";
import { marginalise } from "./marginal.ts";

export const ARTIFACT_FORMAT = "gradecast-hurdle/3";

/** How the headline is made from the two parts (the API repeats it). */
export const COMBINATION = "expected-score";
export const COMBINATION_TEXT =
  "prediction = (1 - noFinalScoreRisk) * scoreIfSits: the expected final score, counting a final not sat as 0";

export interface FeatureRange {
  feature: string;
  /** numeric features */
  min?: number;
  max?: number;
  /** categorical features: the categories seen in training */
  categories?: string[];
}

export interface SetupArtifact {
  setup: Setup;
  /** The inputs this setup uses (G2, or G1 and G2, left out for B and C). */
  features: string[];
  score: Ensemble;
  risk: Ensemble;
  calibration: Calibration;
  intervals: MondrianIntervals;
  hyperparameters: Record<string, unknown>;
  seenPairs: SeenPairs;
}

export interface ModelArtifact {
  format: typeof ARTIFACT_FORMAT;
  modelVersion: string;
  trainedAt: string;
  data: { file: string; sha256: string; rows: number }[];
  features: string[];
  categories: Record<string, string[]>;
  /** The score's monotone constraints; the risk's are the opposite. */
  monotone: Record<string, number>;
  target: { name: "G3"; min: 0; max: 20 };
  combination: string;
  setups: SetupArtifact[];
  featureRanges: FeatureRange[];
  globalImportance: { feature: string; importance: number }[];
  /** Evaluation figures (see the model card); free-form, written by the training command. */
  evaluation: Record<string, unknown>[];
}

export interface Contribution {
  feature: string;
  /**
   * The answer; null when not known (G1 or G2 not known yet, the subject not given) or left out
   * ("Prefer not to say": the input is marginalised, its effect exactly 0).
   */
  value: string | number | null;
  effect: number;
}

export interface Prediction {
  /** The headline, clamped to [0, 20]: (1 - noFinalScoreRisk) * scoreIfSits. */
  prediction: number;
  /** Before clamping: exactly baseValue + sum of effects (up to float rounding, < 1e-9). */
  raw: number;
  baseValue: number;
  contributions: Contribution[];
  interval: { low: number; high: number; level: number };
  extrapolation: boolean;
  extrapolationFeatures: string[];
  /** Which model answered: A (G1 and G2 known), B (G1 only), C (neither). */
  modelSetup: Setup;
  /** Inputs left out (sent as null): marginalised, each with an effect of exactly 0. */
  leftOut: string[];
  /** The predicted final score if the student sits the final, clamped to [0, 20]. */
  scoreIfSits: number;
  /** The calibrated probability of not sitting the final (ending with 0). */
  noFinalScoreRisk: number;
}

export type ModelInput = Readonly<Record<string, string | number | null | undefined>>;

export interface GradeModel {
  readonly version: string;
  readonly features: readonly string[];
  readonly globalImportance: readonly { feature: string; importance: number }[];
  readonly evaluation: readonly Record<string, unknown>[];
  readonly artifact: ModelArtifact;
  /** The setups this model answers (the shipped model: all three). */
  readonly setups: readonly Setup[];
  predict(input: ModelInput): Prediction;
}

function fail(msg: string): never {
  throw new Error(`invalid model artifact: ${msg}`);
}

function isNumArray(a: unknown, len?: number): a is number[] {
  return (
    Array.isArray(a) &&
    (len === undefined || a.length === len) &&
    a.every((v) => typeof v === "number" && Number.isFinite(v))
  );
}

function validateTree(t: unknown, i: number): Tree {
  if (typeof t !== "object" || t === null) fail(`tree ${i} is not an object`);
  const o = t as Record<string, unknown>;
  const feature = o.feature;
  if (!isNumArray(feature) || feature.length === 0) fail(`tree ${i}: feature`);
  const n = feature.length;
  for (const k of ["threshold", "left", "right", "value", "cover"]) {
    if (!isNumArray(o[k], n)) fail(`tree ${i}: ${k}`);
  }
  const tree = o as unknown as Tree;
  for (let j = 0; j < n; j++) {
    const f = feature[j]!;
    if (f === -1) continue;
    if (!Number.isInteger(f) || f < 0 || f >= NUM_FEATURES) fail(`tree ${i} node ${j}: feature`);
    const l = tree.left[j]!;
    const r = tree.right[j]!;
    if (!(l > j && l < n && r > j && r < n)) fail(`tree ${i} node ${j}: children`);
    if (!(tree.cover[l]! > 0 && tree.cover[r]! > 0)) fail(`tree ${i} node ${j}: cover`);
  }
  return tree;
}

function validateEnsemble(e: unknown, name: string): void {
  const o = e as Record<string, unknown> | undefined;
  if (!o || typeof o.baseScore !== "number" || !Number.isFinite(o.baseScore)) {
    fail(`${name}: baseScore`);
  }
  if (!Array.isArray(o.trees) || o.trees.length === 0) fail(`${name}: trees`);
  o.trees.forEach(validateTree);
}

/** Validate an artifact's shape (throws a descriptive Error). */
export function validateArtifact(json: unknown): ModelArtifact {
  if (typeof json !== "object" || json === null) fail("not an object");
  const a = json as Record<string, unknown>;
  if (a.format !== ARTIFACT_FORMAT) fail(`format must be ${ARTIFACT_FORMAT}`);
  if (typeof a.modelVersion !== "string") fail("modelVersion");
  if (
    !Array.isArray(a.features) ||
    a.features.length !== NUM_FEATURES ||
    a.features.some((f, i) => f !== FEATURES[i])
  ) {
    fail(`features must be the ${NUM_FEATURES} Gradecast inputs in order`);
  }
  if (!Array.isArray(a.setups) || a.setups.length === 0) fail("setups");
  const names = a.setups.map((x) => (x as { setup?: unknown })?.setup);
  if (names.some((n, i) => !SETUPS.includes(n as Setup) || names.indexOf(n) !== i)) {
    fail("setups must be distinct, each A, B or C");
  }
  for (const raw of a.setups) {
    const s = raw as Record<string, unknown>;
    const setup = s.setup as Setup;
    validateEnsemble(s.score, `setup ${setup} score`);
    validateEnsemble(s.risk, `setup ${setup} risk`);
    const c = s.calibration as Record<string, unknown> | undefined;
    if (!c || typeof c.a !== "number" || !(c.a > 0) || typeof c.b !== "number") {
      fail(`setup ${setup}: calibration`);
    }
    const iv = s.intervals as Record<string, unknown> | undefined;
    if (
      !iv ||
      typeof iv.level !== "number" ||
      !Array.isArray(iv.cells) ||
      !Array.isArray(iv.zero)
    ) {
      fail(`setup ${setup}: intervals`);
    }
    if (typeof s.seenPairs !== "object" || s.seenPairs === null) fail(`setup ${setup}: seenPairs`);
  }
  if (!Array.isArray(a.featureRanges) || a.featureRanges.length !== NUM_FEATURES) {
    fail("featureRanges");
  }
  if (!Array.isArray(a.globalImportance)) fail("globalImportance");
  if (!Array.isArray(a.evaluation)) fail("evaluation");
  return json as ModelArtifact;
}

/** Is an answer given? G1, G2, the subject and the school may be null (not known, not set). */
const isGiven = (v: unknown) => v !== undefined && v !== null && v !== "";

const OPTIONAL = new Set(["G1", "G2", "subject", "school"]);

/**
 * Every other input may be left out by sending null ("Prefer not to say", issue 31; the server
 * allows it only for the questions its deployment marks optional): the model then answers with
 * that input marginalised (marginal.ts), so its effect is exactly 0, and its interval is the
 * hull of the intervals every possible answer would have got, never narrower than any of them.
 * An input absent (undefined) is still an error.
 */
export const MAX_INTERVAL_COMBINATIONS = 20_000;

/**
 * The school is the deployment's, not the student's answer (issue 28): one of the two schools of
 * the data set, or neither. For neither, the model answers for both and takes their plain
 * average, favouring neither: the score's raw output and the risk's log-odds are sums of trees,
 * so their averages and the averages of their exact explanations add up exactly as before. The
 * school's row of the explanation then says "not set" and carries the average of its two effects.
 */
const SCHOOL = FEATURES.indexOf("school");

export function loadModel(json: unknown): GradeModel {
  const artifact = validateArtifact(json);
  const ranges = artifact.featureRanges.map((r, f) => ({
    min: r.min ?? Number.NEGATIVE_INFINITY,
    max: r.max ?? Number.POSITIVE_INFINITY,
    seen: new Set((r.categories ?? []).map((c) => FEATURE_CATEGORIES[f]!.indexOf(c))),
  }));
  const parts = new Map(
    artifact.setups.map((s) => [
      s.setup,
      { artifact: s, score: explainer(s.score), risk: explainer(s.risk) },
    ]),
  );
  // The explainers with some inputs marginalised, built on first use (at most 2^k per setup for
  // the k inputs a deployment lets students leave out).
  const marginalised = new Map<string, { score: Explainer; risk: Explainer }>();
  const explainersFor = (setup: Setup, out: number[]) => {
    const part = parts.get(setup)!;
    if (out.length === 0) return part;
    const key = `${setup}:${out.join(",")}`;
    let found = marginalised.get(key);
    if (!found) {
      const set = new Set(out);
      found = {
        score: explainer(marginalise(part.artifact.score, set)),
        risk: explainer(marginalise(part.artifact.risk, set)),
      };
      marginalised.set(key, found);
    }
    return found;
  };
  // Each input's possible values (codes seen in training; whole numbers within the range).
  const possible = artifact.featureRanges.map((r, f) => {
    if (CATEGORY_COUNTS[f]! > 0) return [...ranges[f]!.seen].filter((c) => c >= 0);
    const out: number[] = [];
    for (let v = Math.ceil(r.min ?? 0); v <= (r.max ?? 0); v++) out.push(v);
    return out;
  });
  const x = new Float64Array(NUM_FEATURES);
  const b = new Float64Array(NUM_FEATURES);
  const phi = new Float64Array(NUM_FEATURES);
  const r = new Float64Array(NUM_FEATURES);
  const h = new Float64Array(NUM_FEATURES);
  const bOne = new Float64Array(NUM_FEATURES);
  const phiOne = new Float64Array(NUM_FEATURES);
  const schoolCodes = FEATURE_CATEGORIES[SCHOOL]!.map((_, code) => code);
  return {
    version: artifact.modelVersion,
    features: FEATURES,
    globalImportance: artifact.globalImportance,
    evaluation: artifact.evaluation,
    artifact,
    setups: SETUPS.filter((s) => parts.has(s)),
    predict(input) {
      const g1 = isGiven(input.G1);
      const g2 = isGiven(input.G2);
      const setup = setupFor(g1, g2);
      const part = parts.get(setup);
      if (!part) throw new Error(`this model does not answer setup ${setup}`);
      const unknown = new Set<string>(unknownIn(setup));
      const extrapolationFeatures: string[] = [];
      const values: (string | number | null)[] = [];
      const out: number[] = [];
      for (let f = 0; f < NUM_FEATURES; f++) {
        const name = FEATURES[f]!;
        const given = input[name];
        if (!isGiven(given)) {
          if (!OPTIONAL.has(name)) {
            if (given !== null) throw new Error(`missing input ${name}`);
            out.push(f);
          }
          x[f] = CATEGORY_COUNTS[f]! > 0 ? -1 : Number.NaN;
          values.push(null);
          continue;
        }
        if (unknown.has(name)) throw new Error(`input ${name} given without G1`);
        const v = encodeValue(f, given);
        x[f] = v;
        if (CATEGORY_COUNTS[f]! > 0) {
          values.push(String(given));
          if (!ranges[f]!.seen.has(v)) extrapolationFeatures.push(name);
        } else {
          if (Number.isNaN(v)) throw new Error(`input ${name} is not a number`);
          values.push(v);
          if (v < ranges[f]!.min || v > ranges[f]!.max) extrapolationFeatures.push(name);
        }
      }
      const explainers = explainersFor(setup, out);
      // One run for a school given; one for each school, averaged, when it is not set.
      const schools = isGiven(input.school) ? [x[SCHOOL]!] : schoolCodes;
      let sRaw = 0;
      let logit = 0;
      b.fill(0);
      phi.fill(0);
      for (const code of schools) {
        x[SCHOOL] = code;
        for (const name of unseenCombinations(part.artifact.seenPairs, x)) {
          if (name === "school" && schools.length > 1) continue;
          if (!extrapolationFeatures.includes(name)) extrapolationFeatures.push(name);
        }
        sRaw += explainers.score.explain(x, bOne) / schools.length;
        logit += explainers.risk.explain(x, phiOne) / schools.length;
        for (let f = 0; f < NUM_FEATURES; f++) {
          b[f]! += bOne[f]! / schools.length;
          phi[f]! += phiOne[f]! / schools.length;
        }
      }
      const { risk0, risk } = riskEffects(
        part.risk.baseValue,
        logit,
        phi,
        part.artifact.calibration,
        r,
      );
      const baseValue = combinedEffects(part.score.baseValue, b, risk0, r, h);
      const raw = (1 - risk) * sRaw;
      const prediction = clampGrade(raw);
      const contributions: Contribution[] = new Array(NUM_FEATURES);
      for (let f = 0; f < NUM_FEATURES; f++) {
        contributions[f] = { feature: FEATURES[f]!, value: values[f]!, effect: h[f]! };
      }
      const subject = isGiven(input.subject) ? String(input.subject) : null;
      const interval = intervalFor(
        part.artifact.intervals,
        { prediction, scoreIfSits: clampGrade(sRaw), risk },
        subject,
      );
      if (out.length > 0) {
        // The hull of the intervals every combination of the left-out answers would have got.
        const choices = out.map((f) => possible[f]!);
        const total = choices.reduce((n, c) => n * c.length, 1);
        if (total > MAX_INTERVAL_COMBINATIONS) {
          interval.low = 0;
          interval.high = 20;
        } else {
          const k = new Array<number>(out.length).fill(0);
          for (let i = 0; i < total; i++) {
            let rest = i;
            for (let j = 0; j < out.length; j++) {
              k[j] = rest % choices[j]!.length;
              rest = Math.floor(rest / choices[j]!.length);
              x[out[j]!] = choices[j]![k[j]!]!;
            }
            let s = 0;
            let l = 0;
            for (const code of schools) {
              x[SCHOOL] = code;
              // the same arithmetic as a prediction with these answers, to the last bit
              s += part.score.explain(x, bOne) / schools.length;
              l += part.risk.explain(x, phiOne) / schools.length;
            }
            const rk = calibratedRisk(l, part.artifact.calibration);
            const p = clampGrade((1 - rk) * s);
            const iv = intervalFor(
              part.artifact.intervals,
              { prediction: p, scoreIfSits: clampGrade(s), risk: rk },
              subject,
            );
            interval.low = Math.min(interval.low, iv.low);
            interval.high = Math.max(interval.high, iv.high);
          }
        }
      }
      return {
        prediction,
        raw,
        baseValue,
        contributions,
        interval,
        extrapolation: extrapolationFeatures.length > 0,
        extrapolationFeatures,
        modelSetup: setup,
        leftOut: out.map((f) => FEATURES[f]!),
        scoreIfSits: clampGrade(sRaw),
        noFinalScoreRisk: risk,
      };
    },
  };
}

/** Load the committed artifact (artifact/model.json next to this package's src). */
export function loadDefaultModel(): GradeModel {
  const url = new URL("../artifact/model.json", import.meta.url);
  return loadModel(JSON.parse(readFileSync(url, "utf8")));
}
