/**
 * Extrapolation on combinations. Each input alone may lie inside the training range while the
 * combination lies outside anything the model saw (G1 = G2 = 0 with no failures and no
 * absences). For every pair of the inputs that carry most of the signal, training records
 * which pairs of coarse bins occur; a questionnaire with an unseen pair is flagged with both
 * inputs named.
 */
import { FEATURES, type FeatureName, NUM_FEATURES } from "./data.ts";

/** Upper bounds of each bin (inclusive); a value above the last goes in one more bin. */
export const COMBINATION_BINS: Readonly<Partial<Record<FeatureName, readonly number[]>>> = {
  G1: [0, 5, 8, 11, 14],
  G2: [0, 5, 8, 11, 14],
  failures: [0, 1],
  absences: [0, 5, 15],
  studytime: [1, 2, 3],
  age: [16, 18],
};

const binned = Object.keys(COMBINATION_BINS) as FeatureName[];

function binOf(feature: FeatureName, v: number): number {
  const edges = COMBINATION_BINS[feature]!;
  let b = 0;
  while (b < edges.length && v > edges[b]!) b++;
  return b;
}

/** Pairs seen in training, as "featureA,featureB" -> list of "binA:binB". */
export type SeenPairs = Record<string, string[]>;

function pairs(allowed: readonly FeatureName[]): [FeatureName, FeatureName][] {
  const usable = binned.filter((f) => allowed.includes(f));
  const out: [FeatureName, FeatureName][] = [];
  for (let i = 0; i < usable.length; i++)
    for (let j = i + 1; j < usable.length; j++) out.push([usable[i]!, usable[j]!]);
  return out;
}

/** Record the bin pairs of the rows of row-major `x` (n rows) for the setup's inputs. */
export function seenPairs(x: Float64Array, n: number, allowed: readonly FeatureName[]): SeenPairs {
  const out: SeenPairs = {};
  for (const [a, b] of pairs(allowed)) {
    const fa = FEATURES.indexOf(a);
    const fb = FEATURES.indexOf(b);
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) {
      seen.add(`${binOf(a, x[i * NUM_FEATURES + fa]!)}:${binOf(b, x[i * NUM_FEATURES + fb]!)}`);
    }
    out[`${a},${b}`] = [...seen].sort();
  }
  return out;
}

/** A seen pair ready for lookups: column indexes, and each bin pair as binA * 16 + binB. */
interface CompiledPair {
  a: FeatureName;
  b: FeatureName;
  ia: number;
  ib: number;
  seen: Set<number>;
}

// Compiled once per artifact: every prediction checks every pair, and splitting keys and
// searching lists of strings on each took a few per cent of a stored prediction's CPU.
const compiled = new WeakMap<SeenPairs, CompiledPair[]>();

function compile(seen: SeenPairs): CompiledPair[] {
  let out = compiled.get(seen);
  if (!out) {
    out = Object.entries(seen).map(([key, list]) => {
      const [a, b] = key.split(",") as [FeatureName, FeatureName];
      const bins = list.map((pair) => {
        const [ba, bb] = pair.split(":").map(Number) as [number, number];
        return ba * 16 + bb;
      });
      return { a, b, ia: FEATURES.indexOf(a), ib: FEATURES.indexOf(b), seen: new Set(bins) };
    });
    compiled.set(seen, out);
  }
  return out;
}

/** The inputs of every unseen pair for the encoded row `x` (empty when all pairs were seen). */
export function unseenCombinations(seen: SeenPairs, x: ArrayLike<number>): FeatureName[] {
  const flagged = new Set<FeatureName>();
  for (const { a, b, ia, ib, seen: bins } of compile(seen)) {
    const va = x[ia]!;
    const vb = x[ib]!;
    if (Number.isNaN(va) || Number.isNaN(vb)) continue;
    if (!bins.has(binOf(a, va) * 16 + binOf(b, vb))) {
      flagged.add(a);
      flagged.add(b);
    }
  }
  return [...flagged];
}
