import { z } from "zod";
import { analyticsEmbedQuerySchema } from "../analytics.ts";
import { analyticsReportSchema, embedAnswerSchema } from "../api-responses.ts";
import { anyone, defineRoute, signedInVerified } from "../route.ts";

// The analytics report, and the short-lived address that embeds it.

export const embed = defineRoute({
  method: "GET",
  path: "/api/analytics/embed",
  access: signedInVerified,
  summary: "The address of the caller's analytics report (a short-lived token)",
  querystring: analyticsEmbedQuerySchema,
  response: { 200: embedAnswerSchema },
});

const reportQuery = z.object({
  // Checked by the route itself: any bad value answers 401 invalid_token, as a bad token does.
  token: z
    .string()
    .optional()
    .describe("An embed token (GET /api/analytics/embed), or send it as a bearer token"),
  classId: z.string().optional().describe("One class's view (its teachers and admins)"),
});

export const report = defineRoute({
  method: "GET",
  path: "/api/analytics/report",
  access: anyone,
  summary: "An analytics report, for an embed token or the signed-in caller",
  querystring: reportQuery,
  response: { 200: analyticsReportSchema },
});
