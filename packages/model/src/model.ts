/** The runtime model: artifact validation, loading, prediction with exact explanations. */
import { readFileSync } from "node:fs";
import { encodeValue, FEATURE_CATEGORIES, FEATURES, NUM_FEATURES } from "./data.ts";
import type { Tree } from "./gbt.ts";
import {
  buildLeafShapTable,
  buildShapTable,
  flattenTree,
  type LeafShapTable,
  predictFlat,
  type ShapTable,
  ShapWorkspace,
  shapFromLeafTable,
  shapFromTable,
  treeExpectation,
  treeShap,
  treeShapFlat,
} from "./shap.ts";

export const ARTIFACT_FORMAT = "gradecast-gbt/1";

export interface FeatureRange {
  feature: string;
  /** numeric features */
  min?: number;
  max?: number;
  /** categorical features: the categories seen in training */
  categories?: string[];
}

export interface SubjectEvaluation {
  subject: string;
  setup: string;
  folds: number;
  repeats: number;
  rmse: { mean: number; std: number };
  mae: number;
  passAccuracy: number;
  intervalCoverage: number | null;
  trainedWithOtherSubject: boolean;
}

export interface ModelArtifact {
  format: typeof ARTIFACT_FORMAT;
  modelVersion: string;
  trainedAt: string;
  data: { file: string; sha256: string; rows: number }[];
  features: string[];
  categories: Record<string, string[]>;
  monotone: Record<string, number>;
  hyperparameters: Record<string, unknown>;
  target: { name: "G3"; min: 0; max: 20 };
  baseScore: number;
  trees: Tree[];
  conformal: { level: number; quantile: number; calibrationRows: number; method: string };
  featureRanges: FeatureRange[];
  globalImportance: { feature: string; importance: number }[];
  evaluation: SubjectEvaluation[];
}

export interface Contribution {
  feature: string;
  value: string | number;
  effect: number;
}

export interface Prediction {
  /** Clamped to [0, 20]. */
  prediction: number;
  /** Before clamping: exactly baseValue + sum of effects (up to float rounding, < 1e-9). */
  raw: number;
  baseValue: number;
  contributions: Contribution[];
  interval: { low: number; high: number; level: number };
  extrapolation: boolean;
  extrapolationFeatures: string[];
}

export interface GradeModel {
  readonly version: string;
  readonly features: readonly string[];
  readonly globalImportance: readonly { feature: string; importance: number }[];
  readonly evaluation: readonly SubjectEvaluation[];
  readonly artifact: ModelArtifact;
  predict(input: Readonly<Record<string, string | number>>): Prediction;
}

const CATEGORY_COUNTS: readonly number[] = FEATURE_CATEGORIES.map((c) => c?.length ?? 0);
const clampGrade = (v: number) => (v < 0 ? 0 : Math.min(v, 20));

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
    fail("features must be the 30 Gradecast inputs in order");
  }
  if (typeof a.baseScore !== "number" || !Number.isFinite(a.baseScore)) fail("baseScore");
  if (!Array.isArray(a.trees) || a.trees.length === 0) fail("trees");
  a.trees.forEach(validateTree);
  const c = a.conformal as Record<string, unknown> | undefined;
  if (!c || typeof c.quantile !== "number" || typeof c.level !== "number") fail("conformal");
  if (!Array.isArray(a.featureRanges) || a.featureRanges.length !== NUM_FEATURES) {
    fail("featureRanges");
  }
  if (!Array.isArray(a.globalImportance)) fail("globalImportance");
  if (!Array.isArray(a.evaluation)) fail("evaluation");
  return json as ModelArtifact;
}

/** Sum of the trees' outputs (raw prediction) for an encoded row. */
export function rawPredict(
  artifact: Pick<ModelArtifact, "baseScore" | "trees">,
  x: ArrayLike<number>,
  offset = 0,
): number {
  let s = artifact.baseScore;
  for (const tree of artifact.trees) {
    let node = 0;
    for (;;) {
      const f = tree.feature[node]!;
      if (f < 0) break;
      const v = x[offset + f]!;
      let left: boolean;
      if (CATEGORY_COUNTS[f]! > 0) {
        left =
          v >= 0 && v < 31 && Number.isInteger(v)
            ? ((tree.threshold[node]! >>> v) & 1) === 1
            : tree.cover[tree.left[node]!]! >= tree.cover[tree.right[node]!]!;
      } else {
        left = Number.isNaN(v)
          ? tree.cover[tree.left[node]!]! >= tree.cover[tree.right[node]!]!
          : v <= tree.threshold[node]!;
      }
      node = left ? tree.left[node]! : tree.right[node]!;
    }
    s += tree.value[node]!;
  }
  return s;
}

/** The expected value of the model over its training data: baseScore + sum of tree means. */
export function expectedValue(artifact: Pick<ModelArtifact, "baseScore" | "trees">): number {
  let s = artifact.baseScore;
  for (const t of artifact.trees) s += treeExpectation(t);
  return s;
}

/** SHAP values of an encoded row (one per feature) into a fresh array. */
export function shapValues(
  artifact: Pick<ModelArtifact, "trees">,
  x: ArrayLike<number>,
  offset = 0,
  ws = new ShapWorkspace(),
): Float64Array {
  const phi = new Float64Array(NUM_FEATURES);
  for (const t of artifact.trees) treeShap(t, x, offset, CATEGORY_COUNTS, phi, ws);
  return phi;
}

export function loadModel(json: unknown): GradeModel {
  const artifact = validateArtifact(json);
  const baseValue = expectedValue(artifact);
  const ws = new ShapWorkspace();
  const q = artifact.conformal.quantile;
  const level = artifact.conformal.level;
  const ranges = artifact.featureRanges.map((r, f) => ({
    min: r.min ?? Number.NEGATIVE_INFINITY,
    max: r.max ?? Number.POSITIVE_INFINITY,
    seen: new Set((r.categories ?? []).map((c) => FEATURE_CATEGORIES[f]!.indexOf(c))),
  }));
  const x = new Float64Array(NUM_FEATURES);
  const phi = new Float64Array(NUM_FEATURES);
  const flat = artifact.trees.map((t) => flattenTree(t, CATEGORY_COUNTS));
  // Per tree, the fastest exact explainer that fits: a table of every direction pattern for a
  // shallow tree, per-leaf tables for a deeper one, else the recursion. They take a tenth of a
  // second or more to build: built by the first prediction rather than at load, so that a
  // server is up sooner.
  let tables: (ShapTable | LeafShapTable | null)[] | undefined;
  const dir = new Uint8Array(Math.max(...flat.map((t) => t.feature.length)));
  const baseScore = artifact.baseScore;
  return {
    version: artifact.modelVersion,
    features: FEATURES,
    globalImportance: artifact.globalImportance,
    evaluation: artifact.evaluation,
    artifact,
    predict(input) {
      const extrapolationFeatures: string[] = [];
      const values: (string | number)[] = [];
      for (let f = 0; f < NUM_FEATURES; f++) {
        const name = FEATURES[f]!;
        const given = input[name];
        if (given === undefined || given === null) throw new Error(`missing input ${name}`);
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
      tables ??= flat.map((t) => buildShapTable(t, ws) ?? buildLeafShapTable(t, ws));
      let raw = baseScore;
      phi.fill(0);
      for (let k = 0; k < flat.length; k++) {
        const table = tables[k];
        if (table && "leaf" in table) raw += shapFromTable(table, x, phi);
        else if (table) raw += shapFromLeafTable(table, x, phi, dir);
        else {
          raw += predictFlat(flat[k]!, x);
          treeShapFlat(flat[k]!, x, phi, ws);
        }
      }
      const contributions: Contribution[] = new Array(NUM_FEATURES);
      for (let f = 0; f < NUM_FEATURES; f++) {
        contributions[f] = { feature: FEATURES[f]!, value: values[f]!, effect: phi[f]! };
      }
      return {
        prediction: clampGrade(raw),
        raw,
        baseValue,
        contributions,
        interval: { low: clampGrade(raw - q), high: clampGrade(raw + q), level },
        extrapolation: extrapolationFeatures.length > 0,
        extrapolationFeatures,
      };
    },
  };
}

/** Load the committed artifact (artifact/model.json next to this package's src). */
export function loadDefaultModel(): GradeModel {
  const url = new URL("../artifact/model.json", import.meta.url);
  return loadModel(JSON.parse(readFileSync(url, "utf8")));
}
