export { CATEGORIES, FEATURES, type FeatureName, MONOTONE } from "./data.ts";
export {
  type Contribution,
  type GradeModel,
  loadDefaultModel,
  loadModel,
  type ModelArtifact,
  type Prediction,
  type SubjectEvaluation,
} from "./model.ts";
