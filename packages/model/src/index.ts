export {
  CATEGORIES,
  FEATURES,
  type FeatureName,
  MONOTONE,
  SUBJECTS,
  type Subject,
} from "./data.ts";
export { SETUPS, type Setup, setupFor } from "./hurdle.ts";
export {
  COMBINATION,
  COMBINATION_TEXT,
  type Contribution,
  type GradeModel,
  loadDefaultModel,
  loadModel,
  type ModelArtifact,
  type ModelInput,
  type Prediction,
} from "./model.ts";
export { mulberry32 } from "./prng.ts";
export {
  ageBand,
  bootstrapFigures,
  calibration,
  type Expected,
  expectedForMix,
  expectedFromEvaluation,
  type Figures,
  figuresOf,
  type Interval,
  LOWER_IS_BETTER,
  MEASURES,
  type Measure,
  PASS_MARK,
  type RiskBin,
  resamplesFor,
  type ScoredOutcome,
  worseThanExpected,
} from "./school-eval.ts";
