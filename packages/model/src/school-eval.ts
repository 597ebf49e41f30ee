/**
 * How the model did for one school (a prospective evaluation): the figures of the predictions
 * made before each outcome was known, with bootstrap intervals, beside what the model card's
 * nested cross-validation expects. Pure functions: the server reads the rows, this scores them.
 * The Brier score and AUC are the cross-validation's own (logistic.ts).
 */
import { auc, brier } from "./logistic.ts";
import { mulberry32 } from "./prng.ts";

/** One student's outcome against one prediction made before it. */
export interface ScoredOutcome {
  /** The headline (expected final, a final not sat counting 0). */
  score: number;
  scoreIfSits: number;
  /** noFinalScoreRisk. */
  risk: number;
  low: number;
  high: number;
  /** Did the student sit the final; g3 is their final grade when they did. */
  sat: boolean;
  g3: number | null;
}

export const PASS_MARK = 10;

export type Measure = "rmse" | "mae" | "accuracy" | "brier" | "auc" | "coverage";
export const MEASURES: readonly Measure[] = ["rmse", "mae", "accuracy", "brier", "auc", "coverage"];
/** Lower is better for these; higher for the others (an interval covering less than promised). */
export const LOWER_IS_BETTER: ReadonlySet<Measure> = new Set(["rmse", "mae", "brier"]);

export type Figures = Record<Measure, number | null>;

const sat = (o: ScoredOutcome) => o.sat && o.g3 !== null;

/** Root mean squared error of scoreIfSits on the students who sat (null: none sat). */
export function rmseSat(rows: readonly ScoredOutcome[]): number | null {
  const s = rows.filter(sat);
  if (s.length === 0) return null;
  return Math.sqrt(s.reduce((a, o) => a + (o.scoreIfSits - (o.g3 as number)) ** 2, 0) / s.length);
}

/** Mean absolute error of scoreIfSits on the students who sat. */
export function maeSat(rows: readonly ScoredOutcome[]): number | null {
  const s = rows.filter(sat);
  if (s.length === 0) return null;
  return s.reduce((a, o) => a + Math.abs(o.scoreIfSits - (o.g3 as number)), 0) / s.length;
}

/** Pass/fail right: predicted score >= 10 against G3 >= 10; not sitting is a fail. */
export function passAccuracy(rows: readonly ScoredOutcome[]): number | null {
  if (rows.length === 0) return null;
  const passed = (o: ScoredOutcome) => sat(o) && (o.g3 as number) >= PASS_MARK;
  return rows.filter((o) => o.score >= PASS_MARK === passed(o)).length / rows.length;
}

/** Share whose G3 fell within the 80 % interval; not sitting counts as G3 = 0. */
export function coverage(rows: readonly ScoredOutcome[]): number | null {
  if (rows.length === 0) return null;
  const g = (o: ScoredOutcome) => (sat(o) ? (o.g3 as number) : 0);
  return rows.filter((o) => g(o) >= o.low && g(o) <= o.high).length / rows.length;
}

const didNotSit = (rows: readonly ScoredOutcome[]) => rows.map((o) => (sat(o) ? 0 : 1));

/** Every measure of these rows (null where it is undefined, e.g. AUC when all sat). */
export function figuresOf(rows: readonly ScoredOutcome[]): Figures {
  const risks = rows.map((o) => o.risk);
  const y = didNotSit(rows);
  const a = rows.length ? auc(risks, y) : Number.NaN;
  return {
    rmse: rmseSat(rows),
    mae: maeSat(rows),
    accuracy: passAccuracy(rows),
    brier: rows.length ? brier(risks, y) : null,
    auc: Number.isNaN(a) ? null : a,
    coverage: coverage(rows),
  };
}

export interface Interval {
  low: number;
  high: number;
}

/** The resamples a bootstrap of n rows uses: 1,000, fewer for many rows (never under 200). */
export function resamplesFor(n: number): number {
  return Math.max(200, Math.min(1000, Math.floor(2_000_000 / Math.max(1, n))));
}

/**
 * Percentile bootstrap 95 % intervals of every measure, seeded (the same rows give the same
 * intervals). Each resample is a count per row (drawn with replacement), so every measure is a
 * weighted sum over the rows, the AUC over one sort made once: O(rows) per resample.
 */
export function bootstrapFigures(
  rows: readonly ScoredOutcome[],
  options: { resamples: number; seed: number },
): Record<Measure, Interval | null> {
  const n = rows.length;
  const out = Object.fromEntries(MEASURES.map((m) => [m, null])) as Record<
    Measure,
    Interval | null
  >;
  if (n === 0) return out;
  const rand = mulberry32(options.seed);
  const g = rows.map((o) => (sat(o) ? (o.g3 as number) : 0));
  const isSat = rows.map(sat);
  const y = didNotSit(rows);
  const order = [...rows.keys()].sort((a, b) => rows[a]!.risk - rows[b]!.risk);
  const samples = Object.fromEntries(MEASURES.map((m) => [m, [] as number[]])) as Record<
    Measure,
    number[]
  >;
  const w = new Uint32Array(n);
  for (let r = 0; r < options.resamples; r++) {
    w.fill(0);
    for (let i = 0; i < n; i++) w[Math.floor(rand() * n)]!++;
    let nSat = 0;
    let se = 0;
    let ae = 0;
    let right = 0;
    let br = 0;
    let covered = 0;
    for (let i = 0; i < n; i++) {
      const k = w[i]!;
      if (k === 0) continue;
      const o = rows[i]!;
      if (isSat[i]) {
        nSat += k;
        const d = o.scoreIfSits - g[i]!;
        se += k * d * d;
        ae += k * Math.abs(d);
      }
      if (o.score >= PASS_MARK === (isSat[i] && g[i]! >= PASS_MARK)) right += k;
      br += k * (o.risk - y[i]!) ** 2;
      if (g[i]! >= o.low && g[i]! <= o.high) covered += k;
    }
    if (nSat > 0) {
      samples.rmse.push(Math.sqrt(se / nSat));
      samples.mae.push(ae / nSat);
    }
    samples.accuracy.push(right / n);
    samples.brier.push(br / n);
    samples.coverage.push(covered / n);
    const a = weightedAuc(rows, y, w, order);
    if (a !== null) samples.auc.push(a);
  }
  for (const m of MEASURES) out[m] = percentileInterval(samples[m]);
  return out;
}

/** AUC with a weight per row, rows visited in `order` (by risk); ties count half. */
function weightedAuc(
  rows: readonly ScoredOutcome[],
  y: readonly number[],
  w: ArrayLike<number>,
  order: readonly number[],
): number | null {
  let neg = 0; // negatives with a lower risk, so far
  let pos = 0;
  let wins = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    let tiePos = 0;
    let tieNeg = 0;
    while (j < order.length && rows[order[j]!]!.risk === rows[order[i]!]!.risk) {
      const k = order[j]!;
      if (y[k] === 1) tiePos += w[k]!;
      else tieNeg += w[k]!;
      j++;
    }
    wins += tiePos * neg + (tiePos * tieNeg) / 2;
    pos += tiePos;
    neg += tieNeg;
    i = j;
  }
  if (pos === 0 || neg === 0) return null;
  return wins / (pos * neg);
}

function percentileInterval(values: number[]): Interval | null {
  if (values.length < 10) return null;
  const s = values.sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
  return { low: at(0.025), high: at(0.975) };
}

/** Worse than expected beyond noise: the expected value lies outside the interval, on the good side. */
export function worseThanExpected(
  measure: Measure,
  interval: Interval | null,
  expected: number | null,
): boolean {
  if (!interval || expected === null) return false;
  return LOWER_IS_BETTER.has(measure) ? expected < interval.low : expected > interval.high;
}

export interface RiskBin {
  from: number;
  to: number;
  n: number;
  predicted: number;
  observed: number;
}

/** Predicted risk of not sitting against the observed rate, in bins of predicted risk. */
export const RISK_BINS = [0, 0.05, 0.1, 0.2, 0.4, 1] as const;
/** Predicted score if sitting against the mean observed G3 of those who sat. */
export const SCORE_BINS = [0, 6, 8, 10, 12, 14, 16, 20] as const;

function binned(values: readonly { x: number; y: number }[], bounds: readonly number[]): RiskBin[] {
  const out: RiskBin[] = [];
  for (let b = 0; b < bounds.length - 1; b++) {
    const from = bounds[b]!;
    const to = bounds[b + 1]!;
    const last = b === bounds.length - 2;
    const inBin = values.filter((v) => v.x >= from && (v.x < to || (last && v.x <= to)));
    if (inBin.length === 0) continue;
    out.push({
      from,
      to,
      n: inBin.length,
      predicted: inBin.reduce((a, v) => a + v.x, 0) / inBin.length,
      observed: inBin.reduce((a, v) => a + v.y, 0) / inBin.length,
    });
  }
  return out;
}

/** Calibration of the risk (all rows) and of scoreIfSits (those who sat), bins with rows only. */
export function calibration(rows: readonly ScoredOutcome[]): { risk: RiskBin[]; score: RiskBin[] } {
  return {
    risk: binned(
      rows.map((o) => ({ x: o.risk, y: sat(o) ? 0 : 1 })),
      RISK_BINS,
    ),
    score: binned(
      rows.filter(sat).map((o) => ({ x: o.scoreIfSits, y: o.g3 as number })),
      SCORE_BINS,
    ),
  };
}

/** The age band of a student's stated age, for the per-group figures. */
export function ageBand(age: number | null): string | null {
  if (age === null || !Number.isFinite(age)) return null;
  return age <= 16 ? "15-16" : age === 17 ? "17" : "18+";
}

/**
 * What the model card expects of one setup, from the artifact's nested cross-validation of the
 * shipped protocol (each subject trained with the other's rows), per subject. The card has no
 * MAE of scoreIfSits on those who sat (its MAE is the headline's on all rows): null.
 */
export type Expected = Record<Measure, number | null>;

interface CvEntry {
  subject?: unknown;
  protocol?: unknown;
  setup?: unknown;
  constrained?: unknown;
  without?: unknown;
  rmseSat?: { mean?: unknown };
  passAccuracy?: unknown;
  intervalCoverage?: unknown;
  noFinalScoreRisk?: { brier?: unknown; auc?: unknown };
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The shipped protocol's cross-validated figures, by subject and setup. */
export function expectedFromEvaluation(
  evaluation: readonly Record<string, unknown>[],
): Map<string, Expected> {
  const out = new Map<string, Expected>();
  for (const raw of evaluation as readonly CvEntry[]) {
    if (typeof raw.protocol !== "string" || !raw.protocol.includes("shipped")) continue;
    if (raw.constrained !== undefined || raw.without !== undefined) continue;
    out.set(`${String(raw.subject)}:${String(raw.setup)}`, {
      rmse: num(raw.rmseSat?.mean),
      mae: null,
      accuracy: num(raw.passAccuracy),
      brier: num(raw.noFinalScoreRisk?.brier),
      auc: num(raw.noFinalScoreRisk?.auc),
      coverage: num(raw.intervalCoverage),
    });
  }
  return out;
}

/**
 * The expected figure for a mix of subjects: each subject's weighted by its rows here (RMSE by
 * its mean square). Null when a subject present has no figure.
 */
export function expectedForMix(
  bySubject: ReadonlyMap<string, Expected>,
  setup: string,
  counts: ReadonlyMap<string, number>,
): Expected {
  const total = [...counts.values()].reduce((a, v) => a + v, 0);
  const out = Object.fromEntries(MEASURES.map((m) => [m, null])) as Expected;
  if (total === 0) return out;
  for (const m of MEASURES) {
    let acc = 0;
    let ok = true;
    for (const [subject, n] of counts) {
      const v = bySubject.get(`${subject}:${setup}`)?.[m] ?? null;
      if (v === null) {
        ok = false;
        break;
      }
      acc += (n / total) * (m === "rmse" ? v * v : v);
    }
    if (ok) out[m] = m === "rmse" ? Math.sqrt(acc) : acc;
  }
  return out;
}
