import {
  adminRecordsQuerySchema,
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
import { bandMessages, bandOf } from "@gradecast/contract/score";
import type { GradeModel } from "@gradecast/model";
import type { AuthUser } from "../auth/access-hook.ts";
import { badRequest, parse } from "../http/errors.ts";
import type { Services } from "../services.ts";
import { insertPrediction, listPredictions, type StoredPrediction } from "./queries.ts";

// Predictions (issue 6): the contract's schema validates the answers (strings or numbers), the
// model predicts and explains, each answer's effect gets its question's label, and the result
// is stored for the caller unless it is a what-if call.

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
    id: null,
    createdAt: null,
  };
}

/** `?store=false` makes a what-if call: predicted and explained, not stored. */
export function parseStore(query: unknown): boolean {
  const store = (query as { store?: unknown } | undefined)?.store;
  if (store === undefined || store === "true") return true;
  if (store === "false") return false;
  throw badRequest("store must be true or false.", { store: "store must be true or false." });
}

export async function predict(
  services: Services,
  user: AuthUser,
  body: unknown,
  store: boolean,
): Promise<PredictionResult> {
  const inputs = parse(questionnaireSchema, body);
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
export async function allPredictions(
  services: Services,
  query: unknown,
): Promise<(PredictionHistoryItem & { userId: string })[]> {
  const { userId, limit } = parse(adminRecordsQuerySchema, query);
  const rows = await listPredictions(services.db, { userId, limit });
  return rows.map((row) => ({ ...toHistoryItem(row), userId: row.userId }));
}
