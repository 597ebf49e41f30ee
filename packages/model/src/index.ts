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
