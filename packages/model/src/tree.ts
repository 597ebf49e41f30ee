/** One regression tree as flat arrays, node 0 the root (gbt.ts grows them). */
export interface Tree {
  /** Feature index of an internal node, -1 for a leaf. */
  feature: number[];
  /** Numeric: go left when x <= threshold. Categorical: bit c set when category c goes left. */
  threshold: number[];
  left: number[];
  right: number[];
  /** Leaf value (0 for internal nodes). */
  value: number[];
  /** Number of training rows (of the tree's subsample) that reached the node. */
  cover: number[];
}
