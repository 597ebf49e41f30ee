/**
 * Exact path-dependent TreeSHAP (Lundberg, Erion and Lee 2018, Algorithm 2), ported from the
 * reference implementation's recursion (extend / unwind / unwound-sum over the unique path).
 * For a sum of trees the SHAP values are the sum of each tree's, so
 *   baseScore + sum_t E[tree_t] + sum_f phi_f = prediction   (up to float rounding).
 */
import { goesLeft, type Tree } from "./gbt.ts";

const MAX_DEPTH = 32;

export class ShapWorkspace {
  readonly feat: Int32Array;
  readonly zero: Float64Array;
  readonly one: Float64Array;
  readonly pw: Float64Array;
  constructor(maxDepth = MAX_DEPTH) {
    const size = ((maxDepth + 3) * (maxDepth + 4)) / 2 + 8;
    this.feat = new Int32Array(size);
    this.zero = new Float64Array(size);
    this.one = new Float64Array(size);
    this.pw = new Float64Array(size);
  }
}

/** Expected value of a tree under its training distribution (cover-weighted leaf mean). */
export function treeExpectation(tree: Tree): number {
  const rec = (node: number): number => {
    if (tree.feature[node]! < 0) return tree.value[node]!;
    const l = tree.left[node]!;
    const r = tree.right[node]!;
    const c = tree.cover[node]!;
    return (tree.cover[l]! * rec(l) + tree.cover[r]! * rec(r)) / c;
  };
  return rec(0);
}

function extendPath(
  ws: ShapWorkspace,
  p: number,
  depth: number,
  zeroFraction: number,
  oneFraction: number,
  featureIndex: number,
): void {
  const { feat, zero, one, pw } = ws;
  feat[p + depth] = featureIndex;
  zero[p + depth] = zeroFraction;
  one[p + depth] = oneFraction;
  pw[p + depth] = depth === 0 ? 1 : 0;
  for (let i = depth - 1; i >= 0; i--) {
    pw[p + i + 1] = pw[p + i + 1]! + (oneFraction * pw[p + i]! * (i + 1)) / (depth + 1);
    pw[p + i] = (zeroFraction * pw[p + i]! * (depth - i)) / (depth + 1);
  }
}

function unwindPath(ws: ShapWorkspace, p: number, depth: number, pathIndex: number): void {
  const { feat, zero, one, pw } = ws;
  const oneFraction = one[p + pathIndex]!;
  const zeroFraction = zero[p + pathIndex]!;
  let nextOnePortion = pw[p + depth]!;
  for (let i = depth - 1; i >= 0; i--) {
    if (oneFraction !== 0) {
      const tmp = pw[p + i]!;
      pw[p + i] = (nextOnePortion * (depth + 1)) / ((i + 1) * oneFraction);
      nextOnePortion = tmp - (pw[p + i]! * zeroFraction * (depth - i)) / (depth + 1);
    } else {
      pw[p + i] = (pw[p + i]! * (depth + 1)) / (zeroFraction * (depth - i));
    }
  }
  for (let i = pathIndex; i < depth; i++) {
    feat[p + i] = feat[p + i + 1]!;
    zero[p + i] = zero[p + i + 1]!;
    one[p + i] = one[p + i + 1]!;
  }
}

function unwoundPathSum(ws: ShapWorkspace, p: number, depth: number, pathIndex: number): number {
  const { zero, one, pw } = ws;
  const oneFraction = one[p + pathIndex]!;
  const zeroFraction = zero[p + pathIndex]!;
  let nextOnePortion = pw[p + depth]!;
  let total = 0;
  if (oneFraction !== 0) {
    for (let i = depth - 1; i >= 0; i--) {
      const tmp = nextOnePortion / ((i + 1) * oneFraction);
      total += tmp;
      nextOnePortion = pw[p + i]! - tmp * zeroFraction * (depth - i);
    }
  } else {
    for (let i = depth - 1; i >= 0; i--) total += pw[p + i]! / (zeroFraction * (depth - i));
  }
  return total * (depth + 1);
}

/** Add the SHAP values of one tree for row `x[offset..]` into `phi`. */
export function treeShap(
  tree: Tree,
  x: ArrayLike<number>,
  offset: number,
  categories: readonly number[],
  phi: Float64Array,
  ws: ShapWorkspace,
): void {
  const recurse = (
    node: number,
    parentP: number,
    depth: number,
    parentZero: number,
    parentOne: number,
    parentFeature: number,
  ): void => {
    // copy the parent's path into this level's slot, then extend it
    const p = parentP + depth + 1;
    const { feat, zero, one, pw } = ws;
    for (let i = 0; i < depth; i++) {
      feat[p + i] = feat[parentP + i]!;
      zero[p + i] = zero[parentP + i]!;
      one[p + i] = one[parentP + i]!;
      pw[p + i] = pw[parentP + i]!;
    }
    extendPath(ws, p, depth, parentZero, parentOne, parentFeature);

    const f = tree.feature[node]!;
    if (f < 0) {
      const v = tree.value[node]!;
      for (let i = 1; i <= depth; i++) {
        const w = unwoundPathSum(ws, p, depth, i);
        phi[feat[p + i]!] = phi[feat[p + i]!]! + w * (one[p + i]! - zero[p + i]!) * v;
      }
      return;
    }
    const left = tree.left[node]!;
    const right = tree.right[node]!;
    const toLeft = goesLeft(tree, node, x[offset + f]!, categories[f]! > 0);
    const hot = toLeft ? left : right;
    const cold = toLeft ? right : left;
    const c = tree.cover[node]!;
    const hotZero = tree.cover[hot]! / c;
    const coldZero = tree.cover[cold]! / c;
    let inZero = 1;
    let inOne = 1;
    let d = depth;
    let k = 0;
    for (; k <= d; k++) if (feat[p + k] === f) break;
    if (k !== d + 1) {
      inZero = zero[p + k]!;
      inOne = one[p + k]!;
      unwindPath(ws, p, d, k);
      d -= 1;
    }
    recurse(hot, p, d + 1, hotZero * inZero, inOne, f);
    recurse(cold, p, d + 1, coldZero * inZero, 0, f);
  };
  // Level slots: a path at depth d has d+1 elements; each level starts after its parent's.
  recurse(0, 0, 0, 1, 1, -1);
}

/**
 * Explanation tables (built once at load; docs/decisions/0008-explanation-tables.md).
 *
 * Path-dependent TreeSHAP sums one term per leaf, and a leaf's term depends on the input only
 * through one bit per distinct feature on its path: whether the input follows every edge of that
 * feature on the way to the leaf (Fast TreeSHAP v2, Yang 2021: the weights of the 2^k patterns
 * are computed once per leaf with the reference recursion's extend / unwound-sum). Those bits, in
 * turn, depend on a feature's value only through which interval between the model's thresholds
 * it falls in (or which category it is). So the leaves of a tree are gathered into groups, and
 * each group keeps, for every combination of its features' classes (values that route its leaves
 * alike), the sum of its leaves' terms and the value of the leaf the input reaches if it is one
 * of the group's. A whole shallow tree is one group; a tree whose table would exceed
 * MAX_GROUP_ROWS is split by subtree, down to single leaves if need be. Explaining a row is then:
 * bin each feature once, and per group add its features' class offsets and one row of sums.
 */
export interface Explainer {
  readonly numFeatures: number;
  /** per feature: 1 when categorical */
  readonly isCat: Uint8Array;
  /** numeric feature f's sorted distinct thresholds are thr[thrStart[f] .. thrStart[f + 1]) */
  readonly thrStart: Int32Array;
  readonly thr: Float64Array;
  /** group g's features are slots groupFeatStart[g] .. groupFeatStart[g + 1] */
  readonly groupFeatStart: Int32Array;
  readonly slotFeature: Int32Array;
  /** per slot: where its feature's bins start in classOffset */
  readonly slotOffStart: Int32Array;
  /** [slotOffStart[j] + bin]: that bin's class times the slot's stride in `table` */
  readonly classOffset: Int32Array;
  readonly groupTableStart: Int32Array;
  /** rows of (one sum per group feature, then the reached leaf's value or 0) */
  readonly table: Float64Array;
  /** scratch: each feature's bin for the row being explained */
  readonly bins: Int32Array;
}

/** Rows a group's table may have before its tree is split further (a leaf alone always fits). */
export const MAX_GROUP_ROWS = 128;
/** Distinct features on one leaf's path the tables accept (2^k weights per leaf). */
export const MAX_LEAF_FEATURES = 20;
/** Categorical codes route by a 31-bit set; bin 0 holds every other value. */
const CAT_BINS = 32;

interface Leaf {
  node: number;
  edges: { node: number; left: boolean }[];
  feats: number[];
  /** [pattern * k + b]: the leaf's term for feats[b] */
  terms: Float64Array;
}

function collectLeaves(tree: Tree, ws: ShapWorkspace): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (node: number, edges: { node: number; left: boolean; zero: number }[]) => {
    if (tree.feature[node]! < 0) {
      const feats: number[] = [];
      const zeros: number[] = [];
      for (const e of edges) {
        const f = tree.feature[e.node]!;
        let b = feats.indexOf(f);
        if (b < 0) {
          b = feats.push(f) - 1;
          zeros.push(1);
        }
        zeros[b] = zeros[b]! * e.zero;
      }
      const k = feats.length;
      if (k > MAX_LEAF_FEATURES) {
        throw new Error(`a leaf splits on ${k} features; explanations take ${MAX_LEAF_FEATURES}`);
      }
      const terms = new Float64Array((1 << k) * k);
      const v = tree.value[node]!;
      for (let s = 0; s < 1 << k; s++) {
        // The recursion's unique path at this leaf, one merged element per distinct feature.
        extendPath(ws, 0, 0, 1, 1, -1);
        for (let b = 0; b < k; b++) extendPath(ws, 0, b + 1, zeros[b]!, (s >>> b) & 1, feats[b]!);
        for (let i = 1; i <= k; i++) {
          terms[s * k + i - 1] = unwoundPathSum(ws, 0, k, i) * (ws.one[i]! - ws.zero[i]!) * v;
        }
      }
      leaves.push({ node, edges, feats, terms });
      return;
    }
    const c = tree.cover[node]!;
    const l = tree.left[node]!;
    const r = tree.right[node]!;
    walk(l, [...edges, { node, left: true, zero: tree.cover[l]! / c }]);
    walk(r, [...edges, { node, left: false, zero: tree.cover[r]! / c }]);
  };
  walk(0, []);
  return leaves;
}

interface Group {
  leaves: Leaf[];
  /** the group's features, ascending */
  feats: number[];
  /** per group feature: each bin's class, and one bin of each class */
  classOf: Int32Array[];
  firstBin: number[][];
  rows: number;
}

/**
 * follows(leaf, b)[bin] is 1 when a value in that bin follows every edge of the leaf's b-th
 * feature; bins with equal bits on every leaf of the group form one class.
 */
function planGroup(
  leaves: Leaf[],
  follows: (leaf: Leaf, b: number) => Uint8Array,
  binCount: (f: number) => number,
): Group {
  const feats = [...new Set(leaves.flatMap((l) => l.feats))].sort((a, b) => a - b);
  let rows = 1;
  const classOf: Int32Array[] = [];
  const firstBin: number[][] = [];
  for (const f of feats) {
    const bits = leaves
      .filter((l) => l.feats.includes(f))
      .map((l) => follows(l, l.feats.indexOf(f)));
    const of = new Int32Array(binCount(f));
    const first: number[] = [];
    for (let bin = 0; bin < of.length; bin++) {
      let id = first.findIndex((other) => bits.every((b) => b[bin] === b[other]));
      if (id < 0) id = first.push(bin) - 1;
      of[bin] = id;
    }
    classOf.push(of);
    firstBin.push(first);
    rows *= first.length;
  }
  return { leaves, feats, classOf, firstBin, rows };
}

/** A group's rows: (one sum per feature, then the reached leaf's value or 0) for each class mix. */
function groupRows(
  g: Group,
  follows: (leaf: Leaf, b: number) => Uint8Array,
  leafValue: (leaf: Leaf) => number,
): Float64Array {
  const width = g.feats.length + 1;
  const parts = g.leaves.map((leaf) => {
    const slots = Int32Array.from(leaf.feats, (f) => g.feats.indexOf(f));
    // byClass[b][class]: whether that class follows the leaf's b-th feature
    const byClass = leaf.feats.map((_, b) =>
      Uint8Array.from(g.firstBin[slots[b]!]!, (bin) => follows(leaf, b)[bin]!),
    );
    return { terms: leaf.terms, slots, byClass, value: leafValue(leaf) };
  });
  const counts = g.firstBin.map((c) => c.length);
  const cls = new Int32Array(g.feats.length);
  const out = new Float64Array(g.rows * width);
  // Rows in order, the classes counting like an odometer (the first feature fastest).
  for (let r = 0; r < g.rows; r++) {
    const base = r * width;
    for (const { terms, slots, byClass, value } of parts) {
      const k = slots.length;
      let s = 0;
      for (let b = 0; b < k; b++) s |= byClass[b]![cls[slots[b]!]!]! << b;
      for (let b = 0; b < k; b++) {
        const j = base + slots[b]!;
        out[j] = out[j]! + terms[s * k + b]!;
      }
      // Every edge followed: the input reaches this leaf.
      if (s === (1 << k) - 1) out[base + width - 1] = value;
    }
    for (let j = 0; j < cls.length; j++) {
      if (++cls[j]! < counts[j]!) break;
      cls[j] = 0;
    }
  }
  return out;
}

/** Build the explanation tables of a sum of trees over `categories.length` features. */
export function buildExplainer(trees: readonly Tree[], categories: readonly number[]): Explainer {
  const numFeatures = categories.length;
  const isCat = Uint8Array.from(categories, (c) => (c > 0 ? 1 : 0));
  // Global bins: for a numeric feature, bin i < m holds values in (t[i-1], t[i]], bin m values
  // above every threshold and bin m + 1 NaN; for a categorical one, code c is bin c + 1 and
  // bin 0 every other value.
  const thresholds: number[][] = Array.from({ length: numFeatures }, () => []);
  for (const t of trees) {
    for (let j = 0; j < t.feature.length; j++) {
      const f = t.feature[j]!;
      if (f >= 0 && !isCat[f]) thresholds[f]!.push(t.threshold[j]!);
    }
  }
  const sorted = thresholds.map((ts) => [...new Set(ts)].sort((a, b) => a - b));
  const thrStart = new Int32Array(numFeatures + 1);
  sorted.forEach((ts, f) => {
    thrStart[f + 1] = thrStart[f]! + ts.length;
  });
  const binCount = (f: number) => (isCat[f] ? CAT_BINS : sorted[f]!.length + 2);
  const binValue = (f: number, b: number): number => {
    if (isCat[f]) return b - 1;
    const ts = sorted[f]!;
    if (b < ts.length) return ts[b]!;
    if (b === ts.length) return ts.length > 0 ? ts[ts.length - 1]! + 1 : 0;
    return Number.NaN;
  };

  const ws = new ShapWorkspace();
  const groupFeatStart: number[] = [0];
  const slotFeature: number[] = [];
  const slotOffStart: number[] = [];
  const classOffset: number[] = [];
  const groupTableStart: number[] = [];
  const chunks: Float64Array[] = [];
  let tableLength = 0;

  for (const tree of trees) {
    // Each node's direction for each bin of its feature (1 = left), then each leaf's follow bits.
    const dirs = tree.feature.map((f, node) =>
      f < 0
        ? new Uint8Array(0)
        : Uint8Array.from({ length: binCount(f) }, (_, bin) =>
            goesLeft(tree, node, binValue(f, bin), isCat[f] === 1) ? 1 : 0,
          ),
    );
    const leaves = collectLeaves(tree, ws);
    const followBits = new Map<Leaf, Uint8Array[]>();
    for (const leaf of leaves) {
      followBits.set(
        leaf,
        leaf.feats.map((f) => {
          const bits = new Uint8Array(binCount(f)).fill(1);
          for (const e of leaf.edges) {
            if (tree.feature[e.node] !== f) continue;
            const d = dirs[e.node]!;
            const want = e.left ? 1 : 0;
            for (let bin = 0; bin < bits.length; bin++) if (d[bin] !== want) bits[bin] = 0;
          }
          return bits;
        }),
      );
    }
    const follows = (leaf: Leaf, b: number) => followBits.get(leaf)![b]!;
    const byNode = new Map(leaves.map((l) => [l.node, l]));
    const under = (node: number): Leaf[] =>
      tree.feature[node]! < 0
        ? [byNode.get(node)!]
        : [...under(tree.left[node]!), ...under(tree.right[node]!)];
    // The whole tree as one group if its table is small enough, else its subtrees.
    const groups: Group[] = [];
    const split = (node: number) => {
      const g = planGroup(under(node), follows, binCount);
      if (g.rows <= MAX_GROUP_ROWS || g.leaves.length === 1) groups.push(g);
      else {
        split(tree.left[node]!);
        split(tree.right[node]!);
      }
    };
    split(0);

    for (const g of groups) {
      const width = g.feats.length + 1;
      groupTableStart.push(tableLength);
      let stride = width;
      g.feats.forEach((f, j) => {
        slotFeature.push(f);
        slotOffStart.push(classOffset.length);
        for (const c of g.classOf[j]!) classOffset.push(c * stride);
        stride *= g.firstBin[j]!.length;
      });
      groupFeatStart.push(slotFeature.length);
      const rows = groupRows(g, follows, (leaf) => tree.value[leaf.node]!);
      chunks.push(rows);
      tableLength += rows.length;
    }
  }
  const table = new Float64Array(tableLength);
  let at = 0;
  for (const c of chunks) {
    table.set(c, at);
    at += c.length;
  }
  return {
    numFeatures,
    isCat,
    thrStart,
    thr: Float64Array.from(sorted.flat()),
    groupFeatStart: Int32Array.from(groupFeatStart),
    slotFeature: Int32Array.from(slotFeature),
    slotOffStart: Int32Array.from(slotOffStart),
    classOffset: Int32Array.from(classOffset),
    groupTableStart: Int32Array.from(groupTableStart),
    table,
    bins: new Int32Array(numFeatures),
  };
}

/**
 * Add the SHAP values of encoded row `x` into `phi`; returns the sum of the trees' outputs
 * (the prediction without the base score).
 */
export function explainRow(e: Explainer, x: ArrayLike<number>, phi: Float64Array): number {
  const { bins, isCat, thrStart, thr } = e;
  for (let f = 0; f < e.numFeatures; f++) {
    const v = x[f]!;
    if (isCat[f] === 1) {
      bins[f] = v >= 0 && v < 31 && Number.isInteger(v) ? v + 1 : 0;
      continue;
    }
    // Count the thresholds below v (binary search); NaN goes after the last bin.
    let lo = thrStart[f]!;
    let hi = thrStart[f + 1]!;
    if (Number.isNaN(v)) {
      bins[f] = hi - lo + 1;
      continue;
    }
    const first = lo;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (thr[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    bins[f] = lo - first;
  }
  const { groupFeatStart, slotFeature, slotOffStart, classOffset, groupTableStart, table } = e;
  let out = 0;
  const groups = groupTableStart.length;
  for (let g = 0; g < groups; g++) {
    const from = groupFeatStart[g]!;
    const to = groupFeatStart[g + 1]!;
    let row = groupTableStart[g]!;
    for (let j = from; j < to; j++) row += classOffset[slotOffStart[j]! + bins[slotFeature[j]!]!]!;
    for (let j = from; j < to; j++) {
      const f = slotFeature[j]!;
      phi[f] = phi[f]! + table[row + j - from]!;
    }
    out += table[row + to - from]!;
  }
  return out;
}
