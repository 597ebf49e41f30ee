export {
  CATEGORIES,
  concatDatasets,
  FEATURES,
  type FeatureName,
  MONOTONE,
  parseCsv,
  SUBJECTS,
  type Subject,
  toDataset,
} from "./data.ts";
export {
  type ComparisonRow,
  type CoverageRow,
  type GateReport,
  gate,
  type PairedRow,
  structuralChecks,
} from "./gate.ts";
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
export {
  type OutcomeRow,
  outcomesCsv,
  outcomesPerSubject,
  readOutcomes,
} from "./outcomes.ts";
export { RISK_PARAMS, SCORE_CANDIDATES } from "./params.ts";
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
export { type SchoolTrainResult, trainSchoolCandidate } from "./school-train.ts";
export { sha256 } from "./train.ts";
