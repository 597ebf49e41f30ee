/** A sum of trees with its exact explanation: the runtime form of one part of the model. */
import { FEATURE_CATEGORIES } from "./data.ts";
import type { Tree } from "./gbt.ts";
import { buildExplainer, explainRow, treeExpectation } from "./shap.ts";

export interface Ensemble {
  baseScore: number;
  trees: Tree[];
}

export const CATEGORY_COUNTS: readonly number[] = FEATURE_CATEGORIES.map((c) => c?.length ?? 0);

/** The expected value of a sum of trees over its training data: baseScore + sum of tree means. */
export function expectedValue(e: Ensemble): number {
  let s = e.baseScore;
  for (const t of e.trees) s += treeExpectation(t);
  return s;
}

export interface Explainer {
  /** The expected output, where the explanation starts. */
  readonly baseValue: number;
  /** Raw output for the encoded row `x`; its SHAP values are written into `phi` (overwritten). */
  explain(x: ArrayLike<number>, phi: Float64Array): number;
}

/**
 * The exact explainer of a sum of trees: shap.ts's tables (docs/decisions/0008), built here, at
 * load, so the first prediction after a start costs what every other one does.
 */
export function explainer(e: Ensemble): Explainer {
  const tables = buildExplainer(e.trees, CATEGORY_COUNTS);
  return {
    baseValue: expectedValue(e),
    explain(x, phi) {
      phi.fill(0);
      return e.baseScore + explainRow(tables, x, phi);
    },
  };
}

/** Raw output only (no explanation): the trees' sum for the encoded row at `offset`. */
export function rawOutput(e: Ensemble, x: ArrayLike<number>, offset = 0): number {
  let s = e.baseScore;
  for (const tree of e.trees) {
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
