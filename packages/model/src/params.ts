/** The hyperparameters of the shipped model's two parts (see README, "Learner and why"). */
import type { GbtParams } from "./gbt.ts";

const BASE: GbtParams = {
  nTrees: 200,
  learningRate: 0.05,
  maxDepth: 3,
  minChildSamples: 5,
  lambda: 1,
  subsample: 0.8,
  colsample: 1,
  minGain: 0,
  seed: 20080401,
};

/** The candidates with these params, one per number of trees. */
const withTrees = (p: GbtParams, counts: readonly number[]): GbtParams[] =>
  counts.map((nTrees) => ({ ...p, nTrees }));

const SCORE: GbtParams = { ...BASE, minChildSamples: 10, lambda: 5 };

/**
 * The score if the student sits: the candidates among which cross-validation inside the
 * training rows chooses, per setup (nested in the evaluation, so the reported folds never take
 * part). Candidates that differ only in their number of trees share one training (hurdle.ts),
 * so the count is tuned at little cost. The families were picked on folds of other seeds than
 * the evaluation's (README, "Learner and why").
 */
export const SCORE_CANDIDATES: readonly GbtParams[] = [
  // the line through the known grades, then shallow trees for what it leaves (best with
  // grades; without any, setup C, it is plain depth-2 boosting)
  ...withTrees({ ...SCORE, linearStart: true, maxDepth: 2 }, [25, 50, 100]),
  // plain boosting, depth 2 and 3 (the previous candidates' family)
  ...withTrees({ ...SCORE, maxDepth: 2 }, [100, 200, 300]),
  ...withTrees({ ...SCORE, maxDepth: 3 }, [100, 200]),
  // slow and bagged: learning rate 0.02, half the rows per tree (the best without grades)
  ...withTrees(
    { ...SCORE, linearStart: true, maxDepth: 3, learningRate: 0.02, subsample: 0.5 },
    [200, 300, 400],
  ),
];

/**
 * The risk of not sitting the final: shallow logistic trees, few rows per class (53 of the
 * 1,044 rows ended with 0), not tuned (fixed before any evaluation).
 */
export const RISK_PARAMS: GbtParams = {
  ...BASE,
  loss: "logistic",
  nTrees: 100,
  maxDepth: 2,
  minChildSamples: 10,
};

export const DEFAULT_SEED = BASE.seed;
