/**
 * A straight line as the boosting's starting point. Among the students who sat, the final grade
 * is close to a line in the period grades (G3 ≈ a·G1 + b·G2 + c); trees approximate a line with
 * steps and, on a few hundred rows, either stay coarse or overfit: a least-squares line through
 * G1 and G2 alone scored 0.83 in Mathematics where the trees reached 0.87-0.88. So the booster
 * may start from that line and let the trees fit what it leaves.
 *
 * The line is stored as trees, so that inference, TreeSHAP and the artifact stay as they are:
 * one step tree per input, splitting between the input's distinct training values, whose leaf
 * for value v holds slope·v. Grades are integers, so on every value seen in training the steps
 * are the line exactly. A slope against the input's monotone direction is not kept (the input is
 * dropped from the line and the rest refitted), so the start respects the constraints too.
 */
import type { Tree } from "./tree.ts";

export interface LinearStart {
  intercept: number;
  /** One step tree per input kept in the line. */
  trees: Tree[];
  /** The line's value for each training row. */
  pred: Float64Array;
}

/** Weighted least squares of y on the columns `features` (with an intercept). */
function fitLine(
  x: Float64Array,
  y: Float64Array,
  w: Float64Array,
  nf: number,
  features: readonly number[],
): number[] {
  const k = features.length + 1;
  const a = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  const row = new Array<number>(k);
  for (let i = 0; i < y.length; i++) {
    row[0] = 1;
    features.forEach((f, j) => {
      row[j + 1] = x[i * nf + f]!;
    });
    for (let p = 0; p < k; p++) {
      a[p]![k]! += w[i]! * row[p]! * y[i]!;
      for (let q = 0; q < k; q++) a[p]![q]! += w[i]! * row[p]! * row[q]!;
    }
  }
  // a whisper of ridge keeps the system solvable when an input is constant
  for (let p = 1; p < k; p++) a[p]![p]! += 1e-9 * (a[p]![p]! + 1);
  // Gauss-Jordan elimination with partial pivoting
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[piv]![c]!)) piv = r;
    [a[c], a[piv]] = [a[piv]!, a[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c || a[c]![c] === 0) continue;
      const m = a[r]![c]! / a[c]![c]!;
      for (let q = c; q <= k; q++) a[r]![q]! -= m * a[c]![q]!;
    }
  }
  return a.map((r, p) => (r[p] === 0 ? 0 : r[k]! / r[p]!));
}

/** A balanced tree over the sorted distinct values `vals` whose leaf for v holds slope·v. */
function stepTree(vals: readonly number[], counts: readonly number[], slope: number, f: number) {
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [], cover: [] };
  const build = (lo: number, hi: number): number => {
    const id = tree.feature.length;
    let cover = 0;
    for (let j = lo; j <= hi; j++) cover += counts[j]!;
    tree.feature.push(lo === hi ? -1 : f);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    tree.value.push(lo === hi ? slope * vals[lo]! : 0);
    tree.cover.push(cover);
    if (lo === hi) return id;
    const mid = (lo + hi) >> 1;
    tree.threshold[id] = (vals[mid]! + vals[mid + 1]!) / 2;
    tree.left[id] = build(lo, mid);
    tree.right[id] = build(mid + 1, hi);
    return id;
  };
  build(0, vals.length - 1);
  return tree;
}

/**
 * The least-squares line of y on `features` whose slopes agree with `monotone` (+1 a slope
 * >= 0, -1 <= 0): an input whose slope disagrees is dropped and the line refitted.
 */
export function linearStart(
  x: Float64Array,
  y: Float64Array,
  w: Float64Array,
  nf: number,
  features: readonly number[],
  monotone: readonly number[],
): LinearStart {
  let used = features.filter((f) => {
    for (let i = 0; i < y.length; i++) if (!Number.isFinite(x[i * nf + f]!)) return false;
    return true;
  });
  let coef = fitLine(x, y, w, nf, used);
  for (;;) {
    const wrong = used.findIndex((f, j) => monotone[f]! * coef[j + 1]! < 0);
    if (wrong < 0) break;
    used = used.filter((_, j) => j !== wrong);
    coef = fitLine(x, y, w, nf, used);
  }
  let intercept = coef[0]!;
  const pred = new Float64Array(y.length);
  const trees: Tree[] = [];
  used.forEach((f, j) => {
    const slope = coef[j + 1]!;
    const count = new Map<number, number>();
    for (let i = 0; i < y.length; i++) {
      const v = x[i * nf + f]!;
      count.set(v, (count.get(v) ?? 0) + w[i]!);
      pred[i]! += slope * v;
    }
    const vals = [...count.keys()].sort((p, q) => p - q);
    // a single value is a constant: the intercept holds it
    if (vals.length < 2) intercept += slope * vals[0]!;
    else
      trees.push(
        stepTree(
          vals,
          vals.map((v) => count.get(v)!),
          slope,
          f,
        ),
      );
  });
  for (let i = 0; i < y.length; i++) pred[i]! += coef[0]!;
  return { intercept, trees, pred };
}
