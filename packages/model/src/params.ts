/** The hyperparameters of the shipped model (chosen by cross-validation, see README). */
import type { GbtParams } from "./gbt.ts";

/**
 * A 50/50 blend of two monotone boosters: depth 3 with small leaves (what Portuguese prefers)
 * and depth 4 with larger leaves (what Mathematics' dropout interaction needs). The blend is
 * still one sum of trees, so TreeSHAP stays exact and additive.
 */
export const MODEL_PARAMS: GbtParams = {
  nTrees: 375,
  learningRate: 0.02,
  maxDepth: 3,
  minChildSamples: 5,
  lambda: 1,
  subsample: 0.8,
  colsample: 1,
  minGain: 0,
  seed: 20080401,
  members: [{ weight: 0.5 }, { weight: 0.5, nTrees: 300, maxDepth: 4, minChildSamples: 7 }],
};
