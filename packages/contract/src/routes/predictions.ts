import { z } from "zod";
import {
  predictionHistorySchema,
  predictionRecordListSchema,
  predictionResultSchema,
} from "../api-responses.ts";
import { messages } from "../messages.ts";
import { adminRecordsQuerySchema } from "../prediction.ts";
import { questionnaireSchema } from "../questionnaire.ts";
import "../questionnaire-json.ts";
import { admins, defineRoute, kb, signedIn, studentsOwn } from "../route.ts";

// The grade model's predictions.

const predictQuery = z.object({
  store: z
    .enum(["true", "false"], { error: messages.storeFlag })
    .optional()
    .describe("false: a what-if call, answered and not stored"),
});

export const predict = defineRoute({
  method: "POST",
  path: "/api/predict",
  access: signedIn,
  summary: "Predict the final grade from the questionnaire's answers, with its explanation",
  body: questionnaireSchema,
  querystring: predictQuery,
  response: { 200: predictionResultSchema },
  bodyLimit: kb(4),
});

export const mine = defineRoute({
  method: "GET",
  path: "/api/predictions/mine",
  access: studentsOwn,
  summary: "The caller's predictions, newest first",
  response: { 200: predictionHistorySchema },
});

export const list = defineRoute({
  method: "GET",
  path: "/api/predictions",
  access: admins,
  summary: "Every student's predictions (admins)",
  querystring: adminRecordsQuerySchema,
  response: { 200: predictionRecordListSchema },
});
