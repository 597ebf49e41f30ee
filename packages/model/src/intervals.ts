/**
 * The 80 % interval of the final score, in two parts as the model is.
 *
 * - **If the student sits**: Mondrian split-conformal on the students who sat. Their
 *   out-of-fold residuals G3 - scoreIfSits are split into cells by subject, the headline's band
 *   (below 7, 7 to under 14, 14 and above) and the risk of not sitting (below 5 %, 5 to 20 %,
 *   20 % and above); each cell keeps the 10th and 90th conformal quantiles of its residuals, so
 *   80 % of the students who sit are covered within each cell, not only on average. A cell with
 *   too few rows falls back to a coarser one: subject and band, band and risk, band, all rows.
 * - **If the student does not sit** (G3 = 0): the interval reaches down to 0 when the risk is at
 *   least a threshold, the conformal lower quantile of the risks of the calibration students who
 *   ended with 0 (per subject when it has enough of them). This is label-conditional conformal
 *   prediction: 80 % of the students who end with 0 are covered, the very students an early
 *   warning is for. The price is width: where the risk part cannot tell them apart (without the
 *   grades, setup C), most intervals start at 0.
 *
 * The interval also always contains the headline prediction itself.
 */
import { clampGrade } from "./grade.ts";

/** The risk levels' lower bounds (the first level starts at 0). */
export const RISK_CELL_BOUNDS = [0.05, 0.2] as const;
export const MIN_CELL_ROWS = 30;
/** Students who ended with 0 a subject needs for a threshold of its own (else all subjects'). */
export const MIN_ZERO_ROWS = 10;

export interface IntervalCell {
  /** e.g. "subject:mat|band:1|risk:0", "band:1", "all" (risk levels 0, 1, 2 from low to high) */
  cell: string;
  rows: number;
  low: number;
  high: number;
}

export interface ZeroCell {
  /** "subject:mat" or "all" */
  cell: string;
  /** Calibration students who ended with 0. */
  rows: number;
  /** The interval reaches 0 when the risk is at least this (Infinity: never; 0: always). */
  risk: number;
}

export interface MondrianIntervals {
  level: number;
  method: string;
  /** Offsets around scoreIfSits, from the students who sat. */
  cells: IntervalCell[];
  /** When the interval reaches down to 0, from the students who ended with 0. */
  zero: ZeroCell[];
}

export function bandIndex(prediction: number): 0 | 1 | 2 {
  return prediction < 7 ? 0 : prediction < 14 ? 1 : 2;
}

/** The cells a prediction falls in, finest first. `subject` is the subject's code or null. */
function cellKeys(prediction: number, risk: number, subject: string | null): string[] {
  const band = `band:${bandIndex(prediction)}`;
  const bandRisk = `${band}|risk:${RISK_CELL_BOUNDS.filter((b) => risk >= b).length}`;
  const own =
    subject === null ? [] : [`subject:${subject}|${bandRisk}`, `subject:${subject}|${band}`];
  return [...own, bandRisk, band, "all"];
}

/** The k-th smallest (1-based, clamped to [1, n]) of a sorted array. */
const kth = (sorted: Float64Array, k: number) =>
  sorted[Math.min(Math.max(k, 1), sorted.length) - 1]!;

function offsets(residuals: number[], level: number): { low: number; high: number } {
  const s = Float64Array.from(residuals).sort();
  const n = s.length;
  const alpha = (1 - level) / 2;
  // finite-sample conformal ranks: floor((n+1)*alpha) from below, ceil((n+1)*(1-alpha)) above
  const lowRank = Math.floor((n + 1) * alpha);
  const highRank = Math.ceil((n + 1) * (1 - alpha));
  return {
    low: lowRank < 1 ? Number.NEGATIVE_INFINITY : kth(s, lowRank),
    high: highRank > n ? Number.POSITIVE_INFINITY : kth(s, highRank),
  };
}

/**
 * The risk from which 0 is in the interval: the floor((m+1)(1-level))-th smallest of the m
 * risks, so that a new student who ends with 0 has a risk at least this with probability
 * >= level. Too few rows for that rank: 0 (the interval always reaches 0).
 */
function zeroThreshold(risks: number[], level: number): number {
  const s = Float64Array.from(risks).sort();
  const rank = Math.floor((s.length + 1) * (1 - level));
  return rank < 1 ? 0 : kth(s, rank);
}

const round = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(6)) : v);

/**
 * Calibrate from out-of-fold predictions: the headline, the score if the student sits, the
 * risk, the subject (code or null) and the observed G3 of each calibration row.
 */
export function calibrateIntervals(
  rows: {
    headline: ArrayLike<number>;
    score: ArrayLike<number>;
    risk: ArrayLike<number>;
    y: ArrayLike<number>;
    subjects?: readonly (string | null)[];
  },
  level = 0.8,
): MondrianIntervals {
  const { headline, score, risk, y, subjects } = rows;
  const residuals = new Map<string, number[]>();
  // with no calibration row ending with 0, nothing bounds the threshold: it is 0 (always)
  const zeroRisks = new Map<string, number[]>([["all", []]]);
  const add = (m: Map<string, number[]>, key: string, v: number) => {
    const g = m.get(key);
    if (g) g.push(v);
    else m.set(key, [v]);
  };
  for (let i = 0; i < y.length; i++) {
    const subject = subjects?.[i] ?? null;
    if (y[i]! === 0) {
      add(zeroRisks, "all", risk[i]!);
      if (subject !== null) add(zeroRisks, `subject:${subject}`, risk[i]!);
      continue;
    }
    for (const key of cellKeys(headline[i]!, risk[i]!, subject)) {
      add(residuals, key, y[i]! - score[i]!);
    }
  }
  const cells: IntervalCell[] = [...residuals.entries()]
    .filter(([key, rs]) => key === "all" || rs.length >= MIN_CELL_ROWS)
    .map(([cell, rs]) => {
      const o = offsets(rs, level);
      return { cell, rows: rs.length, low: round(o.low), high: round(o.high) };
    })
    .sort((a, b) => a.cell.localeCompare(b.cell));
  const zero: ZeroCell[] = [...zeroRisks.entries()]
    .filter(([key, rs]) => key === "all" || rs.length >= MIN_ZERO_ROWS)
    .map(([cell, rs]) => ({ cell, rows: rs.length, risk: round(zeroThreshold(rs, level)) }))
    .sort((a, b) => a.cell.localeCompare(b.cell));
  return {
    level,
    method:
      "two parts: around scoreIfSits, Mondrian split-conformal on the students who sat (cells by subject, predicted band and risk of not sitting: below 0.05, 0.05 to 0.2, 0.2 and above; a cell under 30 rows falls back to subject and band, band and risk, band, then all rows), 10th/90th conformal quantiles of the out-of-fold residuals; down to 0 when the risk is at least the conformal 20th percentile of the out-of-fold risks of the students who ended with 0 (per subject with 10 or more of them, else all)",
    cells,
    zero,
  };
}

/** The interval of a student with this headline, score if sitting, risk and subject. */
export function intervalFor(
  m: MondrianIntervals,
  p: { prediction: number; scoreIfSits: number; risk: number },
  subject: string | null = null,
): { low: number; high: number; level: number } {
  const byKey = new Map(m.cells.map((c) => [c.cell, c]));
  const cell = cellKeys(p.prediction, p.risk, subject)
    .map((key) => byKey.get(key))
    .find((c) => c !== undefined);
  const zeroBy = new Map(m.zero.map((z) => [z.cell, z]));
  const zero =
    (subject !== null ? zeroBy.get(`subject:${subject}`) : undefined) ?? zeroBy.get("all");
  let low = cell ? p.scoreIfSits + cell.low : 0;
  let high = cell ? p.scoreIfSits + cell.high : 20;
  if (!zero || p.risk >= zero.risk) low = 0;
  // the interval holds the headline itself (below the score when the risk is not nil)
  low = Math.min(low, p.prediction);
  high = Math.max(high, p.prediction);
  return { low: clampGrade(low), high: clampGrade(high), level: m.level };
}
