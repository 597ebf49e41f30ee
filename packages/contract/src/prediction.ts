import { z } from "zod";
import { keysOf, type QuestionKey, type Questionnaire } from "./questionnaire.ts";
import type { InputSource } from "./school-record.ts";
import type { Band } from "./score.ts";

// The answers of the student API (issue 6): a saved questionnaire, a prediction with its
// explanation, and the history of a student's predictions. Server and screens share these.

/** A saved questionnaire: the answers (numbers as numbers, null when not known) and when it was saved. */
export type StudentRecord = Questionnaire & { id: string; createdAt: string };

export interface PredictionContribution {
  feature: QuestionKey;
  /** The question's human label, e.g. "Weekly study time". */
  label: string;
  /** The answer given (a number for numeric questions, the code otherwise; null when not known). */
  value: string | number | null;
  /** How many points this answer moved the prediction from the base value (+ up, - down). */
  effect: number;
  /** Whether a student can change this answer (the what-if panel offers these). */
  actionable: boolean;
}

export interface PredictionInterval {
  low: number;
  high: number;
  /** Coverage of the interval, e.g. 0.8 for 80 %. */
  level: number;
}

/**
 * Which model answered, by what is known: A both term grades, B the first only, C neither.
 * Fewer grades, wider interval.
 */
export type ModelSetup = "A" | "B" | "C";

/** How each setup reads on the screen ("This prediction is …"). */
export const modelSetupText: Record<ModelSetup, string> = {
  A: "based on your answers and both term grades (G1 and G2)",
  B: "based on your answers and your first term grade (G1); the second is not known yet",
  C: "based on your answers only; no term grade is known yet, so it is the least sure",
};

/** From this risk of not sitting the final on, the screen says so plainly and where to get help. */
export const highNoFinalScoreRisk = 0.25;

/** The answer of POST /api/predict. */
export interface PredictionResult {
  /**
   * The predicted final score out of 20 (clamped to 0-20): the field the original read. It is
   * the expected score, (1 - noFinalScoreRisk) * scoreIfSits (see `combination`).
   */
  prediction: number;
  /** Which model answered: A (G1 and G2 known), B (G1 only), C (neither). */
  modelSetup: ModelSetup;
  /** The predicted final score if the student sits the final (0-20). */
  scoreIfSits: number;
  /** The calibrated probability (0-1) that the student does not sit the final (ends with 0). */
  noFinalScoreRisk: number;
  /** How `prediction` combines the two parts, in words (from the model). */
  combination: string;
  /** The prediction before clamping: baseValue plus every effect. */
  raw: number;
  band: Band;
  message: string;
  interval: PredictionInterval;
  /** The model's average prediction, where the explanation starts. */
  baseValue: number;
  /** Every answer's effect, largest first. */
  contributions: PredictionContribution[];
  /** True when some answer lies outside what the model was trained on. */
  extrapolation: boolean;
  extrapolationFeatures: QuestionKey[];
  modelVersion: string;
  /** The inputs the prediction was made from, exactly as the model saw them (numbers as numbers). */
  inputs: Questionnaire;
  /**
   * Where each input came from (issue 29): "school" where the class's school record holds the
   * value (it wins over the student's answer), "student" otherwise.
   */
  sources: Record<QuestionKey, InputSource>;
  /** The class whose record and subject the prediction used; null for a student in no class. */
  classId: string | null;
  /** Set when the prediction was stored (not for what-if calls). */
  id: string | null;
  createdAt: string | null;
}

/** One stored prediction in GET /api/predictions/mine. */
export interface PredictionHistoryItem {
  id: string;
  createdAt: string;
  prediction: number;
  band: Band;
  message: string;
  interval: { low: number; high: number };
  extrapolation: boolean;
  modelVersion: string;
  inputs: Questionnaire;
  /** Where each input came from; all "student" for predictions stored before the school record. */
  sources: Record<QuestionKey, InputSource>;
  classId: string | null;
  /** Null for predictions stored before the model answered in two parts. */
  modelSetup: ModelSetup | null;
  scoreIfSits: number | null;
  noFinalScoreRisk: number | null;
}

/** The answer of GET /api/predictions/mine: newest first. */
export interface PredictionHistory {
  items: PredictionHistoryItem[];
  /**
   * The newest prediction with its explanation, recomputed from its stored answers when the
   * model that made it is still the one in use; null otherwise (or with no predictions).
   */
  latest: PredictionResult | null;
}

/**
 * The answers the what-if panel lets a student change, in its order: only inputs the model is
 * monotone in, in a direction a teacher would defend (more study time, wanting higher
 * education and school support never lower the prediction; absences and going out never
 * raise it), so no suggestion can be harmful. Free time, internet, paid classes, activities
 * and family support are not constrained and so not offered (packages/model README).
 */
export const whatIfKeys = keysOf("studytime", "absences", "goout", "schoolsup", "higher");
export type WhatIfKey = (typeof whatIfKeys)[number];

/** How many stored predictions GET /api/predictions/mine returns at most. */
export const predictionHistoryLimit = 50;

/**
 * GET /api/students and GET /api/predictions (admins only): every user's records, newest first,
 * or one user's with `userId`.
 */
export const adminRecordsQuerySchema = z.object({
  userId: z.uuid({ error: "userId must be a user id." }).optional(),
  limit: z.coerce
    .number({ error: "limit must be a whole number from 1 to 100." })
    .int({ error: "limit must be a whole number from 1 to 100." })
    .min(1, { error: "limit must be a whole number from 1 to 100." })
    .max(100, { error: "limit must be a whole number from 1 to 100." })
    .default(50),
});
export type AdminRecordsQuery = z.infer<typeof adminRecordsQuerySchema>;
