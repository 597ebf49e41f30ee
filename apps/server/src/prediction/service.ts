import {
  type PredictionContribution,
  type PredictionHistory,
  type PredictionHistoryItem,
  type PredictionResult,
  predictionHistoryLimit,
} from "@gradecast/contract/prediction";
import {
  type QuestionKey,
  type Questionnaire,
  questionByKey,
  questionnaireSchema,
} from "@gradecast/contract/questionnaire";
import { studentSources } from "@gradecast/contract/school-record";
import { bandMessages, bandOf } from "@gradecast/contract/score";
import type { GradeModel } from "@gradecast/model";
import { adminRecords } from "../admin/records.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import { insertPrediction, listPredictions, type StoredPrediction } from "../db/predictions.ts";
import type { Services } from "../services.ts";
import { withSchool, withSubject } from "../students/subject.ts";

// Predictions (issue 6): the contract's schema validates the answers (strings or numbers), the
// model predicts and explains, each answer's effect gets its question's label, and the result
// is stored for the caller unless it is a what-if call. Issue 19: the model answers with the
// setup that fits what is known (G1 and G2 may be null) and in two parts, the risk of not
// sitting the final and the score if the student sits; the headline combines them.

/** Runs the model on validated answers and shapes the answer of POST /api/predict. */
export function explain(model: GradeModel, inputs: Questionnaire): PredictionResult {
  const p = model.predict(inputs);
  const contributions: PredictionContribution[] = p.contributions.map((c) => {
    const question = questionByKey[c.feature as QuestionKey];
    return {
      feature: c.feature as QuestionKey,
      label: question.label,
      value: c.value,
      effect: c.effect,
      actionable: question.actionable,
    };
  });
  contributions.sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect));
  const band = bandOf(p.prediction);
  return {
    prediction: p.prediction,
    modelSetup: p.modelSetup,
    scoreIfSits: p.scoreIfSits,
    noFinalScoreRisk: p.noFinalScoreRisk,
    combination: model.artifact.combination,
    raw: p.raw,
    band,
    message: bandMessages[band],
    interval: { low: p.interval.low, high: p.interval.high, level: p.interval.level },
    baseValue: p.baseValue,
    contributions,
    extrapolation: p.extrapolation,
    extrapolationFeatures: p.extrapolationFeatures as QuestionKey[],
    modelVersion: model.version,
    inputs,
    sources: studentSources,
    classId: null,
    id: null,
    createdAt: null,
  };
}

export async function predict(
  services: Services,
  user: AuthUser,
  input: Questionnaire,
  /** False for a what-if call (`?store=false`): predicted and explained, not stored. */
  store: boolean,
): Promise<PredictionResult> {
  const inputs = await withSubject(
    services.db,
    user.id,
    withSchool(services.config.modelSchool, input),
  );
  const result = explain(services.model, inputs);
  if (!store) return result;
  const saved = await insertPrediction(services.db, {
    userId: user.id,
    inputs,
    score: result.prediction,
    rawScore: result.raw,
    intervalLow: result.interval.low,
    intervalHigh: result.interval.high,
    extrapolation: result.extrapolation,
    modelVersion: result.modelVersion,
    modelSetup: result.modelSetup,
    scoreIfSits: result.scoreIfSits,
    noFinalScoreRisk: result.noFinalScoreRisk,
  });
  return { ...result, id: saved.id, createdAt: saved.createdAt.toISOString() };
}

function toHistoryItem(row: StoredPrediction): PredictionHistoryItem {
  const band = bandOf(row.score);
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    prediction: row.score,
    band,
    message: bandMessages[band],
    interval: { low: row.intervalLow, high: row.intervalHigh },
    extrapolation: row.extrapolation,
    modelVersion: row.modelVersion,
    inputs: row.inputs as Questionnaire,
    sources: studentSources,
    classId: null,
    modelSetup: row.modelSetup,
    scoreIfSits: row.scoreIfSits,
    noFinalScoreRisk: row.noFinalScoreRisk,
  };
}

export async function myPredictions(
  services: Services,
  user: AuthUser,
): Promise<PredictionHistory> {
  const rows = await listPredictions(services.db, {
    userId: user.id,
    limit: predictionHistoryLimit,
  });
  const items = rows.map(toHistoryItem);
  const newest = items[0];
  let latest: PredictionResult | null = null;
  // The explanation is recomputed from the stored answers: the same model gives the same one.
  if (newest && newest.modelVersion === services.model.version) {
    const answers = questionnaireSchema.safeParse(newest.inputs);
    if (answers.success) {
      latest = {
        ...explain(services.model, answers.data),
        id: newest.id,
        createdAt: newest.createdAt,
      };
    }
  }
  return { items, latest };
}

/** Admins only (access table): every user's stored predictions, or one user's, with the owner. */
export const allPredictions = adminRecords(listPredictions, toHistoryItem);
