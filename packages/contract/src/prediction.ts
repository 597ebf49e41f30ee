import { z } from "zod";
import type { ModelSetup } from "./api-responses.ts";
import { keysOf } from "./questionnaire.ts";

// The answers of the student API (issue 6): a saved questionnaire, a prediction with its
// explanation, and the history of a student's predictions. Server and screens share these; their
// shapes are the schemas of api-responses.ts.

export type {
  ModelSetup,
  PredictionContribution,
  PredictionHistory,
  PredictionHistoryItem,
  PredictionInterval,
  PredictionResult,
  StudentRecord,
} from "./api-responses.ts";

/** How each setup reads on the screen ("This prediction is …"). */
export const modelSetupText: Record<ModelSetup, string> = {
  A: "based on your answers and both term grades (G1 and G2)",
  B: "based on your answers and your first term grade (G1); the second is not known yet",
  C: "based on your answers only; no term grade is known yet, so it is the least sure",
};

/** From this risk of not sitting the final on, the screen says so plainly and where to get help. */
export const highNoFinalScoreRisk = 0.25;

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
