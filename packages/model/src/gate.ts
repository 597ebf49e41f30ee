/**
 * The gate a candidate passes before it may replace the model in use (issue 30). Pure: it reads
 * paired held-out predictions (each school row predicted by the candidate, trained without it,
 * and by the model in use, which never saw it) and the candidate's structural checks.
 *
 * Promotable only if
 * - the school has at least `minOutcomes` outcomes in every subject it has outcomes in (the
 *   subjects whose predictions it changes for this school);
 * - per setup, the RMSE of `scoreIfSits` on those who sat and the Brier score of
 *   `noFinalScoreRisk` are not worse than the model in use: a paired bootstrap over the rows
 *   gives the one-sided 95 % bound of (candidate - in use); the candidate is refused when that
 *   difference is worse with 95 % confidence; for the RMSE also when it is worse at all on
 *   these rows (a candidate is trained to predict better; the risk only has to hold);
 * - every monotone and additivity check passes on the candidate;
 * - every group's 80 % interval coverage (groups of at least `minGroupRows` rows) is within
 *   70-90 %, up to its sampling error: a group is refused when its 95 % Wilson interval lies
 *   wholly outside the range (a group of 25 covered 92 % is noise; the shipped model's own
 *   groups range 78-100 % on held-out folds).
 */
import {
  englishGateReason,
  gateCoverageRange,
  gateReasons,
} from "@gradecast/contract/model-lifecycle";
import { numericRange } from "@gradecast/contract/questionnaire";
import { CATEGORIES, FEATURES, type FeatureName, MONOTONE, type Subject } from "./data.ts";
import type { GradeModel } from "./model.ts";
import { mulberry32 } from "./prng.ts";

export interface PartPrediction {
  prediction: number;
  scoreIfSits: number;
  risk: number;
  low: number;
  high: number;
}

export interface PairedRow {
  setup: "A" | "B" | "C";
  subject: Subject;
  /** The final grade, 0 when the student did not sit. */
  g3: number;
  repeat: number;
  groups: string[];
  candidate: PartPrediction;
  current: PartPrediction;
}

export interface ComparisonRow {
  setup: "A" | "B" | "C";
  measure: "scoreIfSits RMSE" | "noFinalScoreRisk Brier";
  rows: number;
  current: number | null;
  candidate: number | null;
  /** candidate - current, and the bootstrap's one-sided 95 % bounds of it. */
  difference: number | null;
  lower: number | null;
  upper: number | null;
  verdict: "better" | "not worse" | "worse";
}

export interface CoverageRow {
  group: string;
  rows: number;
  coverage: number;
  ok: boolean;
}

export interface GateReport {
  promotable: boolean;
  reasons: string[];
  minOutcomes: number;
  outcomes: Record<string, number>;
  comparison: ComparisonRow[];
  coverage: CoverageRow[];
  checks: { monotone: boolean; additivity: boolean; failures: string[] };
}

export interface GateInput {
  pairs: readonly PairedRow[];
  /** The school's outcomes per subject (distinct students). */
  outcomes: Record<string, number>;
  minOutcomes: number;
  checks: GateReport["checks"];
  resamples?: number;
  seed?: number;
  minGroupRows?: number;
}

type Part = "candidate" | "current";

/** The 95 % Wilson score interval of a proportion k / n. */
export function wilson(k: number, n: number, z = 1.959964): [number, number] {
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [c - h, c + h];
}

function rmse(pairs: readonly PairedRow[], idx: ArrayLike<number>, part: Part): number | null {
  let se = 0;
  let n = 0;
  for (let k = 0; k < idx.length; k++) {
    const p = pairs[idx[k]!]!;
    if (p.g3 > 0) {
      se += (p[part].scoreIfSits - p.g3) ** 2;
      n++;
    }
  }
  return n === 0 ? null : Math.sqrt(se / n);
}

function brier(pairs: readonly PairedRow[], idx: ArrayLike<number>, part: Part): number | null {
  if (idx.length === 0) return null;
  let s = 0;
  for (let k = 0; k < idx.length; k++) {
    const p = pairs[idx[k]!]!;
    s += (p[part].risk - (p.g3 === 0 ? 1 : 0)) ** 2;
  }
  return s / idx.length;
}

const round = (v: number | null) => (v === null ? null : Number(v.toPrecision(6)));

function compare(
  setup: "A" | "B" | "C",
  measure: ComparisonRow["measure"],
  pairs: readonly PairedRow[],
  f: typeof rmse,
  resamples: number,
  seed: number,
  /** Refuse a worse figure on these rows even when the bootstrap cannot tell. */
  strict: boolean,
): ComparisonRow {
  const all = Int32Array.from(pairs.keys());
  const cur = f(pairs, all, "current");
  const cand = f(pairs, all, "candidate");
  const figures = {
    setup,
    measure,
    rows: pairs.length,
    current: round(cur),
    candidate: round(cand),
  };
  if (cur === null || cand === null) {
    return { ...figures, difference: null, lower: null, upper: null, verdict: "not worse" };
  }
  const rand = mulberry32(seed);
  const diffs: number[] = [];
  const idx = new Int32Array(pairs.length);
  for (let b = 0; b < resamples; b++) {
    for (let k = 0; k < idx.length; k++) idx[k] = Math.floor(rand() * idx.length);
    const a = f(pairs, idx, "candidate");
    const c = f(pairs, idx, "current");
    if (a !== null && c !== null) diffs.push(a - c);
  }
  diffs.sort((x, y) => x - y);
  const q = (p: number) => diffs[Math.min(diffs.length - 1, Math.floor(p * diffs.length))] ?? 0;
  const lower = q(0.05);
  const upper = q(0.95);
  const difference = cand - cur;
  const verdict =
    lower > 0 || (strict && difference > 0) ? "worse" : upper < 0 ? "better" : "not worse";
  return {
    ...figures,
    difference: round(difference),
    lower: round(lower),
    upper: round(upper),
    verdict,
  };
}

export function gate(input: GateInput): GateReport {
  const resamples = input.resamples ?? 1000;
  const seed = input.seed ?? 30;
  const minGroupRows = input.minGroupRows ?? 20;
  const [lo, hi] = gateCoverageRange;

  const comparison: ComparisonRow[] = [];
  const setups = [...new Set(input.pairs.map((p) => p.setup))].sort();
  setups.forEach((setup, s) => {
    const rows = input.pairs.filter((p) => p.setup === setup);
    comparison.push(compare(setup, "scoreIfSits RMSE", rows, rmse, resamples, seed + 2 * s, true));
    comparison.push(
      compare(setup, "noFinalScoreRisk Brier", rows, brier, resamples, seed + 2 * s + 1, false),
    );
  });

  const coverage: CoverageRow[] = [];
  const groups = new Map<string, { rows: number; in: number }>();
  for (const p of input.pairs) {
    const inside = p.g3 >= p.candidate.low && p.g3 <= p.candidate.high;
    for (const g of [...p.groups.map((x) => `setup ${p.setup}, ${x}`)]) {
      const e = groups.get(g) ?? { rows: 0, in: 0 };
      e.rows++;
      if (inside) e.in++;
      groups.set(g, e);
    }
  }
  for (const [group, e] of groups) {
    if (e.rows < minGroupRows) continue;
    const cov = e.in / e.rows;
    // outside the range beyond its sampling error: the group's 95 % Wilson interval misses it
    const [wLow, wHigh] = wilson(e.in, e.rows);
    const ok = wHigh >= lo && wLow <= hi;
    coverage.push({ group, rows: e.rows, coverage: round(cov)!, ok });
  }

  const figures = {
    minOutcomes: input.minOutcomes,
    outcomes: input.outcomes,
    comparison,
    coverage,
    checks: input.checks,
  };
  // The reasons come from the report's own figures (contract gateReasons), so a screen in
  // another language words the same list from a stored report.
  const reasons = gateReasons(figures).map(englishGateReason);
  return { promotable: reasons.length === 0, reasons, ...figures };
}

/** Inputs the score is constrained in, their values in increasing order. */
export const ORDERED: Partial<Record<FeatureName, readonly (string | number)[]>> = {
  G1: Array.from({ length: 21 }, (_, i) => i),
  G2: Array.from({ length: 21 }, (_, i) => i),
  failures: [0, 1, 2, 3, 4],
  absences: [0, 1, 2, 4, 6, 10, 15, 20, 30, 45, 60, 75, 100],
  studytime: [1, 2, 3, 4],
  goout: [1, 2, 3, 4, 5],
  higher: ["no", "yes"],
  schoolsup: ["no", "yes"],
};

/**
 * The ranges profiles are drawn from: the questionnaire's, but age and absences within the
 * training data's (15-22 and 0-93).
 */
const NUMERIC: Partial<Record<FeatureName, readonly [number, number]>> = {
  ...Object.fromEntries(FEATURES.filter((f) => !CATEGORIES[f]).map((f) => [f, numericRange(f)])),
  age: [15, 22],
  absences: [0, 93],
};

/**
 * The model's structural checks on random profiles in every setup it answers: walking each
 * constrained input up never moves the score against its direction nor the risk with it, and
 * the explanation adds up exactly (baseValue + effects = raw).
 */
export function structuralChecks(
  model: GradeModel,
  profiles = 60,
  seed = 30,
): GateReport["checks"] {
  const rand = mulberry32(seed);
  const failures: string[] = [];
  let monotone = true;
  let additivity = true;
  for (let t = 0; t < profiles; t++) {
    const input: Record<string, string | number | null> = {};
    for (const f of FEATURES) {
      const cats = CATEGORIES[f];
      if (cats) input[f] = cats[Math.floor(rand() * cats.length)]!;
      else {
        const [a, b] = NUMERIC[f] ?? [0, 5];
        input[f] = a + Math.floor(rand() * (b - a + 1));
      }
    }
    for (const setup of model.setups) {
      const given: Record<string, string | number | null> = {
        ...input,
        G1: setup === "C" ? null : input.G1!,
        G2: setup === "A" ? input.G2! : null,
      };
      const p = model.predict(given);
      const sum = p.contributions.reduce((s, c) => s + c.effect, p.baseValue);
      if (Math.abs(sum - p.raw) > 1e-6 && additivity) {
        additivity = false;
        failures.push(`setup ${setup}: effects add up to ${sum}, raw ${p.raw}`);
      }
      for (const [f, values] of Object.entries(ORDERED)) {
        if (given[f] === null) continue;
        const dir = MONOTONE[f as FeatureName]!;
        let prev: { score: number; risk: number } | null = null;
        for (const v of values!) {
          const q = model.predict({ ...given, [f]: v });
          if (
            prev &&
            (dir * (q.scoreIfSits - prev.score) < -1e-9 ||
              dir * (q.noFinalScoreRisk - prev.risk) > 1e-9)
          ) {
            if (monotone) failures.push(`setup ${setup}: ${f} moves against its direction at ${v}`);
            monotone = false;
          }
          prev = { score: q.scoreIfSits, risk: q.noFinalScoreRisk };
        }
      }
    }
  }
  return { monotone, additivity, failures };
}

/** An outcome row as the gate pairs it: its setup, subject, final grade, inputs and groups. */
export interface GateRow {
  setup: "A" | "B" | "C";
  subject: Subject;
  g3: number;
  input: Record<string, string | null>;
  groups: string[];
}

/** What the gate reads of a model's prediction of `input`. */
function partPrediction(model: GradeModel, input: Record<string, string | null>): PartPrediction {
  const p = model.predict(input);
  return {
    prediction: p.prediction,
    scoreIfSits: p.scoreIfSits,
    risk: p.noFinalScoreRisk,
    low: p.interval.low,
    high: p.interval.high,
  };
}

/** Both models' predictions of one outcome row; `repeat`: the cross-validation repeat it is of. */
export function pairedRow(
  r: GateRow,
  candidate: GradeModel,
  current: GradeModel,
  repeat = 0,
): PairedRow {
  return {
    setup: r.setup,
    subject: r.subject,
    g3: r.g3,
    repeat,
    groups: r.groups,
    candidate: partPrediction(candidate, r.input),
    current: partPrediction(current, r.input),
  };
}

/** Both models' predictions of outcome rows (the CLI's gate on a file of held-out outcomes). */
export function pairedOn(
  rows: readonly GateRow[],
  candidate: GradeModel,
  current: GradeModel,
): PairedRow[] {
  return rows.map((r) => pairedRow(r, candidate, current));
}
