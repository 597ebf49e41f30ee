/** The hyperparameters of the shipped model (chosen by cross-validation, see README). */
import type { GbtParams } from "./gbt.ts";

export const MODEL_PARAMS: GbtParams = {
  nTrees: 150,
  learningRate: 0.05,
  maxDepth: 3,
  minChildSamples: 5,
  lambda: 1,
  subsample: 0.8,
  colsample: 1,
  minGain: 0,
  seed: 20080401,
};
