/**
 * How the two parts make the headline, with an explanation that stays exactly additive.
 *
 * risk  = sigmoid(a * L + b): L is the risk trees' log-odds, (a, b) the Platt calibration
 * score = S, the trees' score if the student sits
 * headline = (1 - risk) * S, the expected final score (0 when the student does not sit)
 *
 * Explanations: S = s0 + sum(b_i) and L = l0 + sum(phi_i) are exact TreeSHAP sums. The risk's
 * effects are the log-odds effects scaled by the secant slope of the calibrated sigmoid between
 * the base and this student, r_i = slope * a * phi_i, so risk = risk0 + sum(r_i) exactly. With
 * q = 1 - risk = q0 + sum(a_i) (a_i = -r_i), the product splits as
 *   q * S = q0 * s0 + sum_i [a_i * s0 + b_i * q0 + (a_i * B + b_i * A) / 2]
 * (A = sum a_i, B = sum b_i): each cross term a_i * b_j is shared half and half between i and j,
 * which is the Shapley value of the product when both parts are additive.
 */

export interface Calibration {
  a: number;
  b: number;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function calibratedRisk(logit: number, c: Calibration): number {
  return sigmoid(c.a * logit + c.b);
}

/** Risk effects (probability points) from log-odds effects; returns risk0 and fills `out`. */
export function riskEffects(
  l0: number,
  logit: number,
  phi: ArrayLike<number>,
  c: Calibration,
  out: Float64Array,
): { risk0: number; risk: number } {
  const z0 = c.a * l0 + c.b;
  const z = c.a * logit + c.b;
  const risk0 = sigmoid(z0);
  const risk = sigmoid(z);
  const slope = Math.abs(z - z0) > 1e-12 ? (risk - risk0) / (z - z0) : risk0 * (1 - risk0);
  for (let i = 0; i < out.length; i++) out[i] = slope * c.a * phi[i]!;
  return { risk0, risk };
}

/**
 * The headline's effects from the score's (b) and the risk's (r); returns its base value.
 * `out` = per-feature effects; baseValue + sum(out) = (1 - risk) * score.
 */
export function combinedEffects(
  s0: number,
  b: ArrayLike<number>,
  risk0: number,
  r: ArrayLike<number>,
  out: Float64Array,
): number {
  const q0 = 1 - risk0;
  let A = 0;
  let B = 0;
  for (let i = 0; i < out.length; i++) {
    A -= r[i]!;
    B += b[i]!;
  }
  for (let i = 0; i < out.length; i++) {
    const ai = -r[i]!;
    const bi = b[i]!;
    out[i] = ai * s0 + bi * q0 + (ai * B + bi * A) / 2;
  }
  return q0 * s0;
}

/**
 * Platt scaling: (a, b) minimising the log loss of sigmoid(a * logit + b) on out-of-fold
 * log-odds. `a` is kept positive, so the calibration never turns a monotone risk around.
 */
export function fitPlatt(logits: ArrayLike<number>, y: ArrayLike<number>): Calibration {
  let a = 1;
  let b = 0;
  const n = logits.length;
  for (let it = 0; it < 100; it++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-9;
    let hab = 0;
    let hbb = 1e-9;
    for (let i = 0; i < n; i++) {
      const l = logits[i]!;
      const p = sigmoid(a * l + b);
      const d = p - y[i]!;
      const w = Math.max(p * (1 - p), 1e-9);
      ga += d * l;
      gb += d;
      haa += w * l * l;
      hab += w * l;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(Math.abs(det) > 1e-15)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-10) break;
  }
  if (!(a > 0.05) || !Number.isFinite(a) || !Number.isFinite(b)) {
    // a degenerate fit (no signal in a fold): keep the trees' own probabilities
    return { a: 1, b: 0 };
  }
  return { a, b };
}
