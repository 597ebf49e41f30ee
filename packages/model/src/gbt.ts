/**
 * A small gradient-boosted regression tree learner (squared error), with
 * - exact splits over each feature's distinct values (the data is small and discrete),
 * - set splits for categorical features (categories sorted by mean gradient, as LightGBM),
 * - monotone constraints enforced through split admission and propagated leaf bounds
 *   (the XGBoost/LightGBM "basic" method); a constrained categorical feature (yes/no) is split
 *   in the order of its codes, as a numeric one,
 * - squared error (regression) or logistic loss (a probability, trees sum to its log-odds),
 * - optionally a least-squares line as the starting point (linear-start.ts), stored as trees,
 * - row subsampling and per-tree column subsampling, shrinkage, L2 leaf regularisation,
 * - a seeded PRNG, so training is deterministic for a seed.
 */
import { linearStart } from "./linear-start.ts";
import { deriveSeed, mulberry32, shuffle } from "./prng.ts";
import type { Tree } from "./tree.ts";

export type { Tree } from "./tree.ts";

export interface GbtParams {
  nTrees: number;
  learningRate: number;
  maxDepth: number;
  minChildSamples: number;
  lambda: number;
  subsample: number;
  colsample: number;
  minGain: number;
  seed: number;
  /** "squared" (default) fits the target; "logistic" fits the log-odds of a 0/1 target. */
  loss?: "squared" | "logistic";
  /** Bagging: train this many boosted models on different seeds and average them (default 1). */
  bags?: number;
  /**
   * Squared loss: start from the least-squares line in the schema's `linear` inputs instead of
   * the mean (default false). Its step trees come first in `trees`, before the nTrees boosted.
   */
  linearStart?: boolean;
  /** Share of the tree's columns tried at each split (random-forest style; default 1). */
  colsampleNode?: number;
  /**
   * Blend: train one booster per member (these params overridden by the member's, seed derived
   * from this seed and the member's index) and sum them with the members' weights.
   */
  members?: readonly GbtMember[];
}

export type GbtMember = { weight: number } & Partial<Omit<GbtParams, "members" | "seed">>;

export const DEFAULT_PARAMS: GbtParams = {
  nTrees: 300,
  learningRate: 0.05,
  maxDepth: 3,
  minChildSamples: 10,
  lambda: 1,
  subsample: 0.8,
  colsample: 1,
  minGain: 0,
  seed: 1,
};

export interface FeatureSchema {
  /** Per feature: 0 numeric, k > 0 categorical with k categories coded 0..k-1. */
  categories: readonly number[];
  /** Per feature: +1, -1 or 0. */
  monotone: readonly number[];
  /** Per feature: may the learner split on it (default all). */
  allowed?: readonly boolean[];
  /** Per feature: part of the starting line when the params ask for one (default none). */
  linear?: readonly boolean[];
}

export interface GbtModel {
  baseScore: number;
  trees: Tree[];
}

/** Does a row with value `v` go to the left child of `node`? Unknown values follow the larger child. */
export function goesLeft(tree: Tree, node: number, v: number, isCategorical: boolean): boolean {
  if (isCategorical) {
    if (!(v >= 0 && v < 31 && Number.isInteger(v))) {
      return tree.cover[tree.left[node]!]! >= tree.cover[tree.right[node]!]!;
    }
    return ((tree.threshold[node]! >>> v) & 1) === 1;
  }
  if (Number.isNaN(v)) return tree.cover[tree.left[node]!]! >= tree.cover[tree.right[node]!]!;
  return v <= tree.threshold[node]!;
}

export function predictTree(
  tree: Tree,
  x: ArrayLike<number>,
  offset: number,
  categories: readonly number[],
): number {
  let node = 0;
  for (;;) {
    const f = tree.feature[node]!;
    if (f < 0) return tree.value[node]!;
    node = goesLeft(tree, node, x[offset + f]!, categories[f]! > 0)
      ? tree.left[node]!
      : tree.right[node]!;
  }
}

export function predictGbt(
  model: GbtModel,
  x: ArrayLike<number>,
  offset: number,
  categories: readonly number[],
): number {
  let s = model.baseScore;
  for (const t of model.trees) s += predictTree(t, x, offset, categories);
  return s;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : Math.min(v, hi);
}

/** Scale a model's output by `w` (base score and every leaf value): still a sum of trees. */
function scaled(m: GbtModel, w: number): GbtModel {
  return {
    baseScore: m.baseScore * w,
    trees: m.trees.map((t) => ({ ...t, value: t.value.map((v) => v * w) })),
  };
}

/**
 * Train on row-major `x` (n rows of nf features) and targets `y`. With `bags` > 1, the average
 * of several boosted models (different seeds) as one sum of trees (leaf values divided by bags).
 * With `members`, the weighted sum of one such model per member, again one sum of trees, so
 * TreeSHAP of the blend is the weighted sum of the members' and additivity holds.
 */
export function trainGbt(
  x: Float64Array,
  y: Float64Array,
  nf: number,
  schema: FeatureSchema,
  params: GbtParams,
  weights?: Float64Array,
): GbtModel {
  if (params.members && params.members.length > 0) {
    // a negative weight would turn a monotone member's trend around
    if (params.members.some((m) => !(m.weight >= 0)))
      throw new Error("member weights must be >= 0");
    const parts = params.members.map(({ weight, ...own }, k) => {
      const member = { ...params, ...own, members: undefined, seed: deriveSeed(params.seed, k) };
      return scaled(trainGbt(x, y, nf, schema, member, weights), weight);
    });
    return {
      baseScore: parts.reduce((s, m) => s + m.baseScore, 0),
      trees: parts.flatMap((m) => m.trees),
    };
  }
  const bags = params.bags ?? 1;
  if (bags <= 1) return trainBoosted(x, y, nf, schema, params, weights);
  const rand = mulberry32(params.seed);
  const models = Array.from({ length: bags }, () =>
    trainBoosted(x, y, nf, schema, { ...params, seed: Math.floor(rand() * 2 ** 32) }, weights),
  );
  return {
    baseScore: models.reduce((s, m) => s + m.baseScore, 0) / bags,
    trees: models.flatMap((m) =>
      m.trees.map((t) => ({ ...t, value: t.value.map((v) => v / bags) })),
    ),
  };
}

/** Column sampling: k of the columns drawn without replacement, ascending; all when k covers them. */
function sampleSorted(columns: number[], k: number, rand: () => number): number[] {
  if (k >= columns.length) return columns;
  return shuffle(columns.slice(), rand)
    .slice(0, k)
    .sort((a, b) => a - b);
}

/** One boosted model, on the same inputs as trainGbt. */
const trainBoosted: typeof trainGbt = (x, y, nf, schema, params, weights) => {
  const n = y.length;
  const rand = mulberry32(params.seed);
  const { categories, monotone } = schema;
  const allowed = schema.allowed ?? categories.map(() => true);

  // Bin every feature: numeric -> index of its distinct sorted value; categorical -> code.
  // Row-major (a row's slots side by side, below), so one pass over a node's rows fills every
  // column's histogram, reading each row's gradient once.
  const binValues: number[][] = [];
  const nBins: number[] = [];
  const binIndex: (Map<number, number> | null)[] = [];
  for (let f = 0; f < nf; f++) {
    if (categories[f]! > 0) {
      binValues.push([]);
      nBins.push(categories[f]!);
      binIndex.push(null);
    } else {
      const vals = new Set<number>();
      for (let i = 0; i < n; i++) vals.add(x[i * nf + f]!);
      const sorted = [...vals].sort((a, b) => a - b);
      binValues.push(sorted);
      nBins.push(sorted.length);
      binIndex.push(new Map(sorted.map((v, j) => [v, j])));
    }
  }
  const maxBins = Math.max(1, ...nBins);
  // every column's histogram in one array: column f's bins start at histStart[f]
  const histStart = new Int32Array(nf + 1);
  for (let f = 0; f < nf; f++) histStart[f + 1] = histStart[f]! + nBins[f]!;
  // Per bin, side by side: the gradients' sum, the hessians' and the weighted row count (the
  // sum of the rows' weights: a row of weight w counts as w rows). With squared loss a row's
  // hessian is its weight, so the count is the hessians' sum and is not kept twice.
  const logistic = params.loss === "logistic";
  const stride = logistic ? 3 : 2;
  const countAt = logistic ? 2 : 1;
  // each row's place in the histogram array per column, computed once: the histogram loop,
  // most of the training's time, then reads one number per row and column
  const slot = new Int32Array(nf * n);
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < nf; f++) {
      const v = x[i * nf + f]!;
      const index = binIndex[f];
      slot[i * nf + f] = (histStart[f]! + (index ? index.get(v)! : v)) * stride;
    }
  }
  // Histogram subtraction (LightGBM's): when every node tries all of the tree's columns, a
  // split builds the histogram of its child with fewer rows and gets the other's as the parent's
  // minus it. Two buffers per depth: a node reads its own while its first child's subtree fills
  // the deeper ones, and its second child's stays untouched until its turn.
  const histSize = histStart[nf]! * stride;
  const levels = Array.from({ length: params.maxDepth + 1 }, () => [
    new Float64Array(histSize),
    new Float64Array(histSize),
  ]);
  const hG = new Float64Array(maxBins);
  const hC = new Float64Array(maxBins);
  const cnt = new Float64Array(maxBins);

  const w = weights ?? new Float64Array(n).fill(1);
  let sw = 0;
  let swy = 0;
  for (let i = 0; i < n; i++) {
    sw += w[i]!;
    swy += w[i]! * y[i]!;
  }
  const mean = sw > 0 ? swy / sw : 0;
  // logistic: start from the log-odds of the mean, kept finite when a class is absent
  const pMean = Math.min(Math.max(mean, 1e-6), 1 - 1e-6);
  let baseScore = logistic ? Math.log(pMean / (1 - pMean)) : mean;
  const pred = new Float64Array(n).fill(baseScore);
  const trees: Tree[] = [];
  const lineInputs = [...Array(nf).keys()].filter((f) => schema.linear?.[f] && allowed[f]);
  if (params.linearStart && !logistic && lineInputs.length > 0) {
    const start = linearStart(x, y, w, nf, lineInputs, monotone);
    baseScore = start.intercept;
    pred.set(start.pred);
    trees.push(...start.trees);
  }
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const { lambda, minChildSamples, maxDepth, learningRate, minGain } = params;
  const allowedList = [...Array(nf).keys()].filter((f) => allowed[f]);
  const nSample = Math.max(1, Math.round(params.subsample * n));
  const nCols = Math.max(1, Math.round(params.colsample * allowedList.length));
  const nColsNode = Math.max(1, Math.round((params.colsampleNode ?? 1) * nCols));
  const allRows = Int32Array.from({ length: n }, (_, i) => i);
  const order = new Int32Array(n);
  const picked = new Uint8Array(n);
  const sample = new Int32Array(Math.min(nSample, n));
  const scratch = new Int32Array(n);
  const score = (g: number, h: number, wt: number) => -(2 * g * wt + (h + lambda) * wt * wt);

  for (let t = 0; t < params.nTrees; t++) {
    for (let i = 0; i < n; i++) {
      if (logistic) {
        const p = 1 / (1 + Math.exp(-pred[i]!));
        grad[i] = w[i]! * (p - y[i]!);
        hess[i] = w[i]! * Math.max(p * (1 - p), 1e-6);
      } else {
        grad[i] = w[i]! * (pred[i]! - y[i]!);
        hess[i] = w[i]!;
      }
    }
    order.set(allRows);
    let rows = order;
    if (nSample < n) {
      // the first nSample of a shuffle, in ascending order (marked, then read in order)
      shuffle(order, rand);
      picked.fill(0);
      for (let k = 0; k < nSample; k++) picked[order[k]!] = 1;
      rows = sample;
      let k = 0;
      for (let i = 0; i < n; i++) if (picked[i]) rows[k++] = i;
    }
    const cols = sampleSorted(allowedList, nCols, rand);
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [], cover: [] };

    /** Fill `hist` with the rows' sums per bin of the given columns. */
    const build = (hist: Float64Array, idx: Int32Array, nodeCols: number[]) => {
      for (const f of nodeCols) hist.fill(0, histStart[f]! * stride, histStart[f + 1]! * stride);
      const nc = nodeCols.length;
      for (let k = 0; k < idx.length; k++) {
        const r = idx[k]!;
        const g = grad[r]!;
        const h = hess[r]!;
        const base = r * nf;
        if (logistic) {
          const wr = w[r]!;
          for (let c = 0; c < nc; c++) {
            const b = slot[base + nodeCols[c]!]!;
            hist[b]! += g;
            hist[b + 1]! += h;
            hist[b + 2]! += wr;
          }
        } else {
          for (let c = 0; c < nc; c++) {
            const b = slot[base + nodeCols[c]!]!;
            hist[b]! += g;
            hist[b + 1]! += h;
          }
        }
      }
    };
    const subtract = nColsNode >= cols.length;

    /**
     * Grow the node of rows `idx`; `own` is its histogram when the parent already made it
     * (subtraction), else the node builds it into its depth's first buffer.
     */
    const grow = (
      idx: Int32Array,
      depth: number,
      lo: number,
      hi: number,
      own: Float64Array | null,
      sums: readonly [number, number, number] | null,
    ): number => {
      let G = 0;
      let H = 0;
      let N = 0;
      if (sums) [G, H, N] = sums;
      else {
        for (let k = 0; k < idx.length; k++) {
          G += grad[idx[k]!]!;
          H += hess[idx[k]!]!;
          N += w[idx[k]!]!;
        }
      }
      const wt = clamp(-G / (H + lambda), lo, hi);
      const id = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(wt * learningRate);
      tree.cover.push(N);
      /** A leaf: its rows' predictions move by its value now (the others' after the tree). */
      const leaf = () => {
        const v = tree.value[id]!;
        for (let k = 0; k < idx.length; k++) pred[idx[k]!]! += v;
        return id;
      };
      if (depth >= maxDepth || N < 2 * minChildSamples) return leaf();

      const parentScore = score(G, H, wt);
      let bestGain = minGain;
      let bestF = -1;
      let bestThr = 0;
      let bestWl = 0;
      let bestWr = 0;
      let bestCL = 0;
      const nodeCols = sampleSorted(cols, nColsNode, rand);
      const hist = own ?? levels[depth]![0]!;
      if (!own) build(hist, idx, nodeCols);
      for (const f of nodeCols) {
        const nb = nBins[f]!;
        const s0 = histStart[f]! * stride;
        for (let b = 0; b < nb; b++) {
          // a bin emptied by subtraction may keep a rounding residue: empty is empty
          const c = hist[s0 + b * stride + countAt]!;
          const empty = Math.abs(c) < 1e-9;
          hG[b] = empty ? 0 : hist[s0 + b * stride]!;
          hC[b] = empty ? 0 : hist[s0 + b * stride + 1]!;
          cnt[b] = empty ? 0 : c;
        }
        const ordered = categories[f]! > 0 && monotone[f]! !== 0;
        if (categories[f]! > 0 && !ordered) {
          const present: number[] = [];
          for (let b = 0; b < nb; b++) if (cnt[b]! > 0) present.push(b);
          if (present.length < 2) continue;
          present.sort((a, b) => hG[a]! / hC[a]! - hG[b]! / hC[b]!);
          let GL = 0;
          let HL = 0;
          let CL = 0;
          let mask = 0;
          for (let j = 0; j < present.length - 1; j++) {
            const b = present[j]!;
            GL += hG[b]!;
            HL += hC[b]!;
            CL += cnt[b]!;
            mask |= 1 << b;
            const CR = N - CL;
            if (CL < minChildSamples || CR < minChildSamples) continue;
            const wl = clamp(-GL / (HL + lambda), lo, hi);
            const wr = clamp(-(G - GL) / (H - HL + lambda), lo, hi);
            const gain = score(GL, HL, wl) + score(G - GL, H - HL, wr) - parentScore;
            if (gain > bestGain) {
              bestGain = gain;
              bestF = f;
              // categories absent from this node follow the larger child
              let full = mask;
              if (CL >= CR) for (let c = 0; c < nb; c++) if (cnt[c] === 0) full |= 1 << c;
              bestThr = full;
              bestWl = wl;
              bestWr = wr;
              bestCL = CL;
            }
          }
        } else {
          const mono = monotone[f]!;
          let GL = 0;
          let HL = 0;
          let CL = 0;
          for (let b = 0; b < nb - 1; b++) {
            if (cnt[b] === 0) continue;
            GL += hG[b]!;
            HL += hC[b]!;
            CL += cnt[b]!;
            const CR = N - CL;
            if (CL < minChildSamples) continue;
            if (CR < minChildSamples) break;
            const wl = clamp(-GL / (HL + lambda), lo, hi);
            const wr = clamp(-(G - GL) / (H - HL + lambda), lo, hi);
            if ((mono > 0 && wl > wr) || (mono < 0 && wl < wr)) continue;
            const gain = score(GL, HL, wl) + score(G - GL, H - HL, wr) - parentScore;
            if (gain > bestGain) {
              bestGain = gain;
              bestF = f;
              const vals = binValues[f]!;
              // a constrained category: the codes up to b go left (a bit mask, as any set split)
              bestThr = ordered ? 2 ** (b + 1) - 1 : (vals[b]! + vals[b + 1]!) / 2;
              bestWl = wl;
              bestWr = wr;
              bestCL = CL;
            }
          }
        }
      }
      if (bestF < 0) return leaf();

      // partition the node's rows in place, each side in its order (the sums stay the same):
      // the left rows first, the right ones through the scratch buffer after them
      const isCat = categories[bestF]! > 0;
      // each side's sums too, added in the order its own rows keep, so they are the sums the
      // child would make
      let nl = 0;
      let nr = 0;
      let GL = 0;
      let HL = 0;
      let NL = 0;
      let GR = 0;
      let HR = 0;
      let NR = 0;
      for (let k = 0; k < idx.length; k++) {
        const r = idx[k]!;
        const v = x[r * nf + bestF]!;
        if (isCat ? ((bestThr >>> v) & 1) === 1 : v <= bestThr) {
          idx[nl++] = r;
          GL += grad[r]!;
          HL += hess[r]!;
          NL += w[r]!;
        } else {
          scratch[nr++] = r;
          GR += grad[r]!;
          HR += hess[r]!;
          NR += w[r]!;
        }
      }
      idx.set(scratch.subarray(0, nr), nl);
      let lLo = lo;
      let lHi = hi;
      let rLo = lo;
      let rHi = hi;
      const mono = monotone[bestF]!;
      if (mono !== 0) {
        const mid = (bestWl + bestWr) / 2;
        if (mono > 0) {
          lHi = mid;
          rLo = mid;
        } else {
          lLo = mid;
          rHi = mid;
        }
      }
      tree.feature[id] = bestF;
      tree.threshold[id] = bestThr;
      tree.value[id] = 0;
      const left = idx.subarray(0, nl);
      const right = idx.subarray(nl);
      // each child's histogram, when both will split and the tree's columns are all tried
      let lHist: Float64Array | null = null;
      let rHist: Float64Array | null = null;
      const splits = (count: number) => depth + 1 < maxDepth && count >= 2 * minChildSamples;
      if (subtract && splits(bestCL) && splits(N - bestCL)) {
        const [small, large] = levels[depth + 1]!;
        build(small!, nl <= nr ? left : right, nodeCols);
        for (const f of nodeCols) {
          for (let b = histStart[f]! * stride; b < histStart[f + 1]! * stride; b++) {
            large![b] = hist[b]! - small![b]!;
          }
        }
        lHist = nl <= nr ? small! : large!;
        rHist = nl <= nr ? large! : small!;
      }
      const l = grow(left, depth + 1, lLo, lHi, lHist, [GL, HL, NL]);
      const r = grow(right, depth + 1, rLo, rHi, rHist, [GR, HR, NR]);
      tree.left[id] = l;
      tree.right[id] = r;
      return id;
    };
    grow(rows, 0, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, null, null);
    trees.push(tree);
    // the rows the tree was not grown on (its leaves moved the others')
    if (nSample < n) {
      for (let i = 0; i < n; i++)
        if (!picked[i]) pred[i]! += predictTree(tree, x, i * nf, categories);
    }
  }
  return { baseScore, trees };
};
