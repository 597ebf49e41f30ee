/**
 * The baseline for the risk of not sitting: an L2-regularised logistic regression on one-hot
 * categories and standardised numbers, fitted by Newton's method. Evaluation only.
 */
import { FEATURE_CATEGORIES, FEATURES, NUM_FEATURES } from "./data.ts";

export interface LogisticModel {
  predict(x: ArrayLike<number>, offset: number): number;
}

export function trainLogistic(
  x: Float64Array,
  y: ArrayLike<number>,
  n: number,
  exclude: readonly string[],
  lambda = 1,
): LogisticModel {
  // design: intercept, then per used feature a standardised number or one column per category
  const cols: { f: number; cat: number; mean: number; sd: number }[] = [];
  for (let f = 0; f < NUM_FEATURES; f++) {
    if (exclude.includes(FEATURES[f]!)) continue;
    const cats = FEATURE_CATEGORIES[f];
    if (cats) {
      for (let c = 1; c < cats.length; c++) cols.push({ f, cat: c, mean: 0, sd: 1 });
    } else {
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < n; i++) {
        const v = x[i * NUM_FEATURES + f]!;
        s += v;
        s2 += v * v;
      }
      const mean = s / n;
      const sd = Math.sqrt(Math.max(s2 / n - mean * mean, 1e-9));
      cols.push({ f, cat: -1, mean, sd });
    }
  }
  const p = cols.length + 1;
  const row = (xs: ArrayLike<number>, off: number, out: Float64Array) => {
    out[0] = 1;
    cols.forEach((c, j) => {
      const v = xs[off + c.f]!;
      out[j + 1] = c.cat < 0 ? (Number.isNaN(v) ? 0 : (v - c.mean) / c.sd) : v === c.cat ? 1 : 0;
    });
  };
  const X = new Float64Array(n * p);
  const tmp = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    row(x, i * NUM_FEATURES, tmp);
    X.set(tmp, i * p);
  }
  const w = new Float64Array(p);
  for (let it = 0; it < 25; it++) {
    const g = new Float64Array(p);
    const H = new Float64Array(p * p);
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < p; j++) z += X[i * p + j]! * w[j]!;
      const pr = 1 / (1 + Math.exp(-z));
      const d = pr - y[i]!;
      const h = Math.max(pr * (1 - pr), 1e-9);
      for (let j = 0; j < p; j++) {
        const xij = X[i * p + j]!;
        g[j] = g[j]! + d * xij;
        for (let k = 0; k <= j; k++) H[j * p + k] = H[j * p + k]! + h * xij * X[i * p + k]!;
      }
    }
    for (let j = 1; j < p; j++) {
      g[j] = g[j]! + lambda * w[j]!;
      H[j * p + j] = H[j * p + j]! + lambda;
    }
    for (let j = 0; j < p; j++) for (let k = j + 1; k < p; k++) H[j * p + k] = H[k * p + j]!;
    const step = solve(H, g, p);
    let moved = 0;
    for (let j = 0; j < p; j++) {
      w[j] = w[j]! - step[j]!;
      moved += Math.abs(step[j]!);
    }
    if (moved < 1e-8) break;
  }
  const buf = new Float64Array(p);
  return {
    predict(xs, offset) {
      row(xs, offset, buf);
      let z = 0;
      for (let j = 0; j < p; j++) z += buf[j]! * w[j]!;
      return 1 / (1 + Math.exp(-z));
    },
  };
}

/** Solve A s = b (A symmetric positive definite, p x p) by Gaussian elimination. */
function solve(A: Float64Array, b: Float64Array, p: number): Float64Array {
  const M = Float64Array.from(A);
  const v = Float64Array.from(b);
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++)
      if (Math.abs(M[r * p + c]!) > Math.abs(M[piv * p + c]!)) piv = r;
    if (piv !== c) {
      for (let k = 0; k < p; k++) {
        const t = M[c * p + k]!;
        M[c * p + k] = M[piv * p + k]!;
        M[piv * p + k] = t;
      }
      const t = v[c]!;
      v[c] = v[piv]!;
      v[piv] = t;
    }
    const d = M[c * p + c]!;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = c + 1; r < p; r++) {
      const f = M[r * p + c]! / d;
      if (f === 0) continue;
      for (let k = c; k < p; k++) M[r * p + k] = M[r * p + k]! - f * M[c * p + k]!;
      v[r] = v[r]! - f * v[c]!;
    }
  }
  const s = new Float64Array(p);
  for (let r = p - 1; r >= 0; r--) {
    let acc = v[r]!;
    for (let k = r + 1; k < p; k++) acc -= M[r * p + k]! * s[k]!;
    const d = M[r * p + r]!;
    s[r] = Math.abs(d) < 1e-12 ? 0 : acc / d;
  }
  return s;
}

/** Brier score: mean squared difference between the probability and the 0/1 outcome. */
export function brier(p: ArrayLike<number>, y: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += (p[i]! - y[i]!) ** 2;
  return s / p.length;
}

/** Area under the ROC curve (ties count half). */
export function auc(p: ArrayLike<number>, y: ArrayLike<number>): number {
  const idx = [...Array(p.length).keys()].sort((a, b) => p[a]! - p[b]!);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && p[idx[j + 1]!] === p[idx[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (y[idx[k]!] === 1) {
        rankSum += rank;
        pos++;
      }
    }
    i = j + 1;
  }
  const neg = p.length - pos;
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

export const RELIABILITY_BINS = [0, 0.02, 0.05, 0.1, 0.2, 0.4, 1] as const;

/** Per bin of predicted probability: rows, mean prediction, observed rate. */
export function reliability(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
): { from: number; to: number; rows: number; predicted: number; observed: number }[] {
  const out = [];
  for (let b = 0; b < RELIABILITY_BINS.length - 1; b++) {
    const from = RELIABILITY_BINS[b]!;
    const to = RELIABILITY_BINS[b + 1]!;
    let rows = 0;
    let sp = 0;
    let sy = 0;
    for (let i = 0; i < p.length; i++) {
      const v = p[i]!;
      if (v >= from && (v < to || (b === RELIABILITY_BINS.length - 2 && v <= to))) {
        rows++;
        sp += v;
        sy += y[i]!;
      }
    }
    out.push({ from, to, rows, predicted: rows ? sp / rows : 0, observed: rows ? sy / rows : 0 });
  }
  return out;
}
