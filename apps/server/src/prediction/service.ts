import {
  type PredictionContribution,
  type PredictionHistory,
  type PredictionHistoryItem,
  type PredictionResult,
  predictionHistoryLimit,
} from "@gradecast/contract/prediction";
import {
  answerRequiredMessage,
  optionalCapableKeys,
  type QuestionKey,
  type Questionnaire,
  questionByKey,
  questionnaireSchema,
} from "@gradecast/contract/questionnaire";
import {
  type InputSource,
  type RecordInputKey,
  recordInputKeys,
  studentSources,
} from "@gradecast/contract/school-record";
import { bandMessages, bandOf } from "@gradecast/contract/score";
import type { GradeModel } from "@gradecast/model";
import { adminRecords } from "../admin/records.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import { requireConsent } from "../consent/service.ts";
import {
  listPredictions,
  type NewPrediction,
  type OwnValues,
  type RecordSources,
  type StoredPrediction,
} from "../db/predictions.ts";
import { cachedRecordContext } from "../db/record-context.ts";
import type { ClassContext } from "../db/school-records.ts";
import { invalid } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import { withSchool } from "../students/subject.ts";
import { storePrediction } from "./store.ts";

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

/** Every input's source: the keys the record supplied are the school's. */
export function sourcesOf(recordKeys: RecordSources | null): Record<QuestionKey, InputSource> {
  return recordKeys ? { ...studentSources, ...recordKeys } : studentSources;
}

/** The student's own values of the record's inputs, as they answered them. */
export function ownValuesOf(answers: Questionnaire): OwnValues {
  return {
    G1: answers.G1,
    G2: answers.G2,
    absences: answers.absences,
    failures: answers.failures,
  };
}

/**
 * The record's values where it holds them, the student's own otherwise (the record wins), and
 * which keys it supplied. The questionnaire's rule holds after the overlay too: a second-period
 * grade without the first is not known to any model, so a recorded G2 without any G1 is left
 * out, and the model's setup follows from the grades that remain.
 */
export function overlayValues(
  own: OwnValues,
  record: Record<RecordInputKey, number | null>,
): { values: OwnValues; sources: RecordSources } {
  const values = { ...own };
  const sources: RecordSources = {};
  for (const key of recordInputKeys) {
    const value = record[key];
    if (value === null) continue;
    values[key] = value;
    sources[key] = "school";
  }
  if (values.G2 !== null && values.G1 === null) {
    values.G2 = null;
    delete sources.G2;
  }
  return { values, sources };
}

/** The answers the model reads for a class: its subject, and its record overlaid. */
export function overlayRecord(
  answers: Questionnaire,
  context: Pick<ClassContext, "subject" | "values">,
): { inputs: Questionnaire; sources: RecordSources } {
  const { values, sources } = overlayValues(ownValuesOf(answers), context.values);
  // absences and failures are never null: the record only ever replaces them with a number.
  const inputs: Questionnaire = {
    ...answers,
    subject: context.subject,
    G1: values.G1,
    G2: values.G2,
    absences: values.absences ?? answers.absences,
    failures: values.failures ?? answers.failures,
  };
  return { inputs, sources };
}

/**
 * Stale: made at an older record version than the class's current one, or by another model
 * than the one in use. A stale figure is never shown as current.
 */
export function isStale(
  p: Pick<StoredPrediction, "classId" | "recordVersion" | "modelVersion">,
  record: { version: number },
  modelVersion: string,
): boolean {
  const madeAt = p.classId === null ? 0 : (p.recordVersion ?? 0);
  return madeAt < record.version || p.modelVersion !== modelVersion;
}

/** One prediction to make: its inputs and where they came from. */
export interface PredictionPlan {
  inputs: Questionnaire;
  sources: RecordSources | null;
  ownValues: OwnValues;
  classId: string | null;
  recordVersion: number | null;
}

/** The plan of a prediction for a class: the record overlaid on the student's own answers. */
export function classPlan(answers: Questionnaire, context: ClassContext): PredictionPlan {
  const { inputs, sources } = overlayRecord(answers, context);
  return {
    inputs,
    sources,
    ownValues: ownValuesOf(answers),
    classId: context.classId,
    recordVersion: context.version,
  };
}

/**
 * Issue 31: "Prefer not to say" (null) only on the questions the deployment marks optional
 * (OPTIONAL_QUESTIONS); on any other it is refused beside the field, as a missing answer is.
 */
function checkLeftOut(optional: readonly QuestionKey[], answers: Questionnaire): void {
  const fields: Record<string, string> = {};
  for (const key of optionalCapableKeys) {
    if (answers[key] === null && !optional.includes(key)) fields[key] = answerRequiredMessage(key);
  }
  const first = Object.values(fields)[0];
  if (first !== undefined) throw invalid(first, fields);
}

/**
 * A student's answers as the model reads them, from a questionnaire they send: refused under
 * LEGAL_BASIS=consent without a guardian's consent (under the age), and with a question left
 * out that is not optional; the deployment's school set.
 */
export async function acceptedAnswers(
  services: Services,
  user: AuthUser,
  input: Questionnaire,
): Promise<Questionnaire> {
  await requireConsent(services, user);
  checkLeftOut(services.config.optionalQuestions, input);
  return withSchool(services.config.modelSchool, input);
}

/** What making a prediction reads: the database, the model and the deployment's school. */
export type PredictingServices = Pick<Services, "db" | "model" | "config">;

/** Explains a plan, then stores it (unless `store` is false); the answer with its provenance. */
export async function runPlan(
  services: PredictingServices,
  userId: string,
  plan: PredictionPlan,
  madeBy: NewPrediction["madeBy"],
  store: boolean,
): Promise<PredictionResult> {
  const result = {
    ...explain(services.model, plan.inputs),
    sources: sourcesOf(plan.sources),
    classId: plan.classId,
  };
  if (!store) return result;
  // Issue 32: a prediction for a class moves the student's alert state there (hysteresis), once
  // its batch has committed (prediction/store.ts).
  const saved = await storePrediction(
    services.db,
    {
      userId,
      inputs: plan.inputs,
      score: result.prediction,
      rawScore: result.raw,
      intervalLow: result.interval.low,
      intervalHigh: result.interval.high,
      extrapolation: result.extrapolation,
      modelVersion: result.modelVersion,
      modelSetup: result.modelSetup,
      scoreIfSits: result.scoreIfSits,
      noFinalScoreRisk: result.noFinalScoreRisk,
      classId: plan.classId,
      sources: plan.sources,
      ownValues: plan.ownValues,
      recordVersion: plan.recordVersion,
      madeBy,
    },
    result.contributions,
  );
  return { ...result, id: saved.id, createdAt: saved.createdAt.toISOString() };
}

/**
 * POST /api/predict. A student in no class: one prediction from their answers. An enrolled
 * student: one per class, each in the class's subject with the class's record overlaid (issue
 * 29), all stored; the answer is the one for the subject asked (the first class's when none
 * is). A subject asked that none of their classes teaches is predicted from their answers
 * alone, as for a student in no class.
 */
export async function predict(
  services: Services,
  user: AuthUser,
  input: Questionnaire,
  /** False for a what-if call (`?store=false`): predicted and explained, not stored. */
  store: boolean,
): Promise<PredictionResult> {
  // What-if calls too: they read the same answers.
  const answers = await acceptedAnswers(services, user, input);
  const classes = await cachedRecordContext(services.db, user.id);
  const plans = classes.map((c) => classPlan(answers, c));
  const asked = answers.subject;
  let answerIndex = asked === null ? 0 : plans.findIndex((p) => p.inputs.subject === asked);
  if (answerIndex === -1 || plans.length === 0) {
    answerIndex = plans.length;
    plans.push({
      inputs: answers,
      sources: null,
      ownValues: ownValuesOf(answers),
      classId: null,
      recordVersion: null,
    });
  }
  if (!store) return runPlan(services, user.id, plans[answerIndex]!, "student", false);
  const results = await Promise.all(
    plans.map((plan) => runPlan(services, user.id, plan, "student", true)),
  );
  return results[answerIndex]!;
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
    sources: sourcesOf(row.sources),
    classId: row.classId,
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
        sources: newest.sources,
        classId: newest.classId,
        id: newest.id,
        createdAt: newest.createdAt,
      };
    }
  }
  return { items, latest };
}

/** Admins only (access table): every user's stored predictions, or one user's, with the owner. */
export const allPredictions = adminRecords(listPredictions, toHistoryItem);
