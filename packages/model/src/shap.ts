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

/** A tree in typed arrays with per-node routing precomputed, for fast inference. */
export interface FlatTree {
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
  cover: Float64Array;
  /** 1 when the node's feature is categorical */
  isCat: Uint8Array;
  /** 1 when unknown values go left (the larger child) */
  defaultLeft: Uint8Array;
}

export function flattenTree(tree: Tree, categories: readonly number[]): FlatTree {
  const n = tree.feature.length;
  const ft: FlatTree = {
    feature: Int32Array.from(tree.feature),
    threshold: Float64Array.from(tree.threshold),
    left: Int32Array.from(tree.left),
    right: Int32Array.from(tree.right),
    value: Float64Array.from(tree.value),
    cover: Float64Array.from(tree.cover),
    isCat: new Uint8Array(n),
    defaultLeft: new Uint8Array(n),
  };
  for (let j = 0; j < n; j++) {
    const f = tree.feature[j]!;
    if (f < 0) continue;
    ft.isCat[j] = categories[f]! > 0 ? 1 : 0;
    ft.defaultLeft[j] = tree.cover[tree.left[j]!]! >= tree.cover[tree.right[j]!]! ? 1 : 0;
  }
  return ft;
}

function flatGoesLeft(t: FlatTree, node: number, v: number): boolean {
  if (t.isCat[node] === 1) {
    if (!(v >= 0 && v < 31 && Number.isInteger(v))) return t.defaultLeft[node] === 1;
    return ((t.threshold[node]! >>> v) & 1) === 1;
  }
  if (Number.isNaN(v)) return t.defaultLeft[node] === 1;
  return v <= t.threshold[node]!;
}

export function predictFlat(t: FlatTree, x: ArrayLike<number>): number {
  let node = 0;
  while (t.feature[node]! >= 0) {
    node = flatGoesLeft(t, node, x[t.feature[node]!]!) ? t.left[node]! : t.right[node]!;
  }
  return t.value[node]!;
}

// module-level state of the running recursion (single-threaded, no re-entrancy)
let T: FlatTree;
let X: ArrayLike<number>;
let PHI: Float64Array;
let WS: ShapWorkspace;
/** When set, routing comes from this per-node array (1 = left) instead of from X. */
let ROUTE: Uint8Array | null = null;

function recurseFlat(
  node: number,
  parentP: number,
  depth: number,
  parentZero: number,
  parentOne: number,
  parentFeature: number,
): void {
  const p = parentP + depth + 1;
  const { feat, zero, one, pw } = WS;
  for (let i = 0; i < depth; i++) {
    feat[p + i] = feat[parentP + i]!;
    zero[p + i] = zero[parentP + i]!;
    one[p + i] = one[parentP + i]!;
    pw[p + i] = pw[parentP + i]!;
  }
  extendPath(WS, p, depth, parentZero, parentOne, parentFeature);
  const f = T.feature[node]!;
  if (f < 0) {
    const v = T.value[node]!;
    for (let i = 1; i <= depth; i++) {
      const w = unwoundPathSum(WS, p, depth, i);
      const fi = feat[p + i]!;
      PHI[fi] = PHI[fi]! + w * (one[p + i]! - zero[p + i]!) * v;
    }
    return;
  }
  const left = T.left[node]!;
  const right = T.right[node]!;
  const toLeft = ROUTE ? ROUTE[node] === 1 : flatGoesLeft(T, node, X[f]!);
  const hot = toLeft ? left : right;
  const cold = toLeft ? right : left;
  const c = T.cover[node]!;
  let inZero = 1;
  let inOne = 1;
  let d = depth;
  let k = 0;
  for (; k <= d; k++) if (feat[p + k] === f) break;
  if (k !== d + 1) {
    inZero = zero[p + k]!;
    inOne = one[p + k]!;
    unwindPath(WS, p, d, k);
    d -= 1;
  }
  recurseFlat(hot, p, d + 1, (T.cover[hot]! / c) * inZero, inOne, f);
  recurseFlat(cold, p, d + 1, (T.cover[cold]! / c) * inZero, 0, f);
}

/** Add the SHAP values of a flat tree for the encoded row `x` into `phi`. */
export function treeShapFlat(
  tree: FlatTree,
  x: ArrayLike<number>,
  phi: Float64Array,
  ws: ShapWorkspace,
): void {
  T = tree;
  X = x;
  PHI = phi;
  WS = ws;
  ROUTE = null;
  recurseFlat(0, 0, 0, 1, 1, -1);
}

/**
 * A tree's SHAP values depend on the input only through the direction taken at each internal
 * node. For a shallow tree (at most MAX_TABLE_NODES internal nodes) all direction patterns are
 * enumerated once at load time, so explaining a prediction is a table lookup. The table holds
 * exactly the values the recursion computes.
 */
export interface ShapTable {
  tree: FlatTree;
  internal: Int32Array;
  /** features the tree splits on */
  features: Int32Array;
  /** [pattern * features.length + j]: SHAP value of features[j] */
  phi: Float64Array;
  /** leaf value per pattern */
  leaf: Float64Array;
}

export const MAX_TABLE_NODES = 9;

export function buildShapTable(tree: FlatTree, ws: ShapWorkspace): ShapTable | null {
  const internal: number[] = [];
  for (let j = 0; j < tree.feature.length; j++) if (tree.feature[j]! >= 0) internal.push(j);
  if (internal.length > MAX_TABLE_NODES) return null;
  const features = [...new Set(internal.map((j) => tree.feature[j]!))].sort((a, b) => a - b);
  const patterns = 1 << internal.length;
  const phiTable = new Float64Array(patterns * features.length);
  const leaf = new Float64Array(patterns);
  const route = new Uint8Array(tree.feature.length);
  const phi = new Float64Array(Math.max(...features) + 1);
  for (let p = 0; p < patterns; p++) {
    internal.forEach((node, b) => {
      route[node] = (p >>> b) & 1;
    });
    phi.fill(0);
    T = tree;
    PHI = phi;
    WS = ws;
    ROUTE = route;
    recurseFlat(0, 0, 0, 1, 1, -1);
    ROUTE = null;
    features.forEach((f, j) => {
      phiTable[p * features.length + j] = phi[f]!;
    });
    let node = 0;
    while (tree.feature[node]! >= 0)
      node = route[node] === 1 ? tree.left[node]! : tree.right[node]!;
    leaf[p] = tree.value[node]!;
  }
  return {
    tree,
    internal: Int32Array.from(internal),
    features: Int32Array.from(features),
    phi: phiTable,
    leaf,
  };
}

/** Add the table's SHAP values for `x` into `phi`; returns the tree's output for `x`. */
export function shapFromTable(t: ShapTable, x: ArrayLike<number>, phi: Float64Array): number {
  const tree = t.tree;
  const internal = t.internal;
  let p = 0;
  for (let b = 0; b < internal.length; b++) {
    const node = internal[b]!;
    if (flatGoesLeft(tree, node, x[tree.feature[node]!]!)) p |= 1 << b;
  }
  const feats = t.features;
  const k = feats.length;
  const base = p * k;
  for (let j = 0; j < k; j++) phi[feats[j]!] = phi[feats[j]!]! + t.phi[base + j]!;
  return t.leaf[p]!;
}

/**
 * For a deeper tree the table above would need 2^(internal nodes) rows. Path-dependent TreeSHAP
 * sums one term per leaf, and a leaf's term depends on the input only through one bit for each
 * distinct feature on its path: whether the input follows every edge of that feature on the way
 * to the leaf (the "one fraction" of the merged path element; the "zero fractions" are covers,
 * fixed). So each leaf keeps a table of 2^k rows for its k distinct path features (Fast TreeSHAP
 * v2, Yang 2021), and explaining is a pass over the leaves' edges: O(leaves x depth) instead of
 * the recursion's extend/unwind work.
 */
export interface LeafShapTable {
  tree: FlatTree;
  internal: Int32Array;
  leafValue: Float64Array;
  /** distinct features on each leaf's path */
  leafK: Int32Array;
  /** each leaf's edges are edges[edgeStart[l] .. edgeStart[l + 1]) */
  edgeStart: Int32Array;
  edgeNode: Int32Array;
  /** 1 when the edge goes to the left child */
  edgeLeft: Uint8Array;
  /** which of the leaf's distinct features the edge's node splits on (bit index) */
  edgeBit: Int32Array;
  /** each leaf's distinct features start at featStart[l] */
  featStart: Int32Array;
  feats: Int32Array;
  /** each leaf's rows start at phiStart[l]: [pattern * k + j] */
  phiStart: Int32Array;
  phi: Float64Array;
}

/** Leaves with more distinct path features than this are explained by the recursion. */
export const MAX_LEAF_FEATURES = 10;

export function buildLeafShapTable(tree: FlatTree, ws: ShapWorkspace): LeafShapTable | null {
  const internal: number[] = [];
  for (let j = 0; j < tree.feature.length; j++) if (tree.feature[j]! >= 0) internal.push(j);
  const leaves: { node: number; edges: { node: number; left: boolean; zero: number }[] }[] = [];
  const walk = (node: number, edges: { node: number; left: boolean; zero: number }[]) => {
    if (tree.feature[node]! < 0) {
      leaves.push({ node, edges });
      return;
    }
    const c = tree.cover[node]!;
    const l = tree.left[node]!;
    const r = tree.right[node]!;
    walk(l, [...edges, { node, left: true, zero: tree.cover[l]! / c }]);
    walk(r, [...edges, { node, left: false, zero: tree.cover[r]! / c }]);
  };
  walk(0, []);
  const leafValue = new Float64Array(leaves.length);
  const leafK = new Int32Array(leaves.length);
  const edgeStart = new Int32Array(leaves.length + 1);
  const featStart = new Int32Array(leaves.length + 1);
  const phiStart = new Int32Array(leaves.length + 1);
  const edgeNode: number[] = [];
  const edgeLeft: number[] = [];
  const edgeBit: number[] = [];
  const feats: number[] = [];
  const phi: number[] = [];
  const { zero, one } = ws;
  for (let l = 0; l < leaves.length; l++) {
    const leaf = leaves[l]!;
    leafValue[l] = tree.value[leaf.node]!;
    edgeStart[l] = edgeNode.length;
    featStart[l] = feats.length;
    phiStart[l] = phi.length;
    // Distinct features in order of first appearance, each with its merged zero fraction.
    const distinct: number[] = [];
    const zeros: number[] = [];
    for (const e of leaf.edges) {
      const f = tree.feature[e.node]!;
      let b = distinct.indexOf(f);
      if (b < 0) {
        b = distinct.length;
        distinct.push(f);
        zeros.push(1);
      }
      zeros[b] = zeros[b]! * e.zero;
      edgeNode.push(e.node);
      edgeLeft.push(e.left ? 1 : 0);
      edgeBit.push(b);
    }
    const k = distinct.length;
    if (k > MAX_LEAF_FEATURES) return null;
    leafK[l] = k;
    feats.push(...distinct);
    for (let s = 0; s < 1 << k; s++) {
      // The unique path of the recursion at this leaf, extended element by element.
      extendPath(ws, 0, 0, 1, 1, -1);
      for (let b = 0; b < k; b++) extendPath(ws, 0, b + 1, zeros[b]!, (s >>> b) & 1, distinct[b]!);
      for (let i = 1; i <= k; i++) {
        const w = unwoundPathSum(ws, 0, k, i);
        phi.push(w * (one[i]! - zero[i]!) * leafValue[l]!);
      }
    }
  }
  edgeStart[leaves.length] = edgeNode.length;
  featStart[leaves.length] = feats.length;
  phiStart[leaves.length] = phi.length;
  return {
    tree,
    internal: Int32Array.from(internal),
    leafValue,
    leafK,
    edgeStart,
    edgeNode: Int32Array.from(edgeNode),
    edgeLeft: Uint8Array.from(edgeLeft),
    edgeBit: Int32Array.from(edgeBit),
    featStart,
    feats: Int32Array.from(feats),
    phiStart,
    phi: Float64Array.from(phi),
  };
}

/**
 * Add the leaf tables' SHAP values for `x` into `phi`; returns the tree's output for `x`.
 * `dir` is scratch space of at least the tree's node count.
 */
export function shapFromLeafTable(
  t: LeafShapTable,
  x: ArrayLike<number>,
  phi: Float64Array,
  dir: Uint8Array,
): number {
  const tree = t.tree;
  const internal = t.internal;
  for (let b = 0; b < internal.length; b++) {
    const node = internal[b]!;
    dir[node] = flatGoesLeft(tree, node, x[tree.feature[node]!]!) ? 1 : 0;
  }
  const { leafK, edgeStart, edgeNode, edgeLeft, edgeBit, featStart, feats, phiStart } = t;
  const table = t.phi;
  let out = 0;
  let e = 0;
  for (let l = 0; l < leafK.length; l++) {
    const k = leafK[l]!;
    const all = (1 << k) - 1;
    let s = all;
    const end = edgeStart[l + 1]!;
    for (; e < end; e++) if (dir[edgeNode[e]!] !== edgeLeft[e]) s &= ~(1 << edgeBit[e]!);
    // Every edge followed: the input reaches this leaf.
    if (s === all) out = t.leafValue[l]!;
    const base = phiStart[l]! + s * k;
    const fs = featStart[l]!;
    for (let j = 0; j < k; j++) {
      const f = feats[fs + j]!;
      phi[f] = phi[f]! + table[base + j]!;
    }
  }
  return out;
}
