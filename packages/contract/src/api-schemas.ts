import type { z } from "zod";
import { adminUserPatchSchema, adminUserQuerySchema, auditQuerySchema } from "./admin.ts";
import type { ApiRoute } from "./api-access.ts";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  updateNameSchema,
  verifySchema,
} from "./auth.ts";
import { adminRecordsQuerySchema } from "./prediction.ts";
import { questionnaireSchema } from "./questionnaire.ts";
import { reportInputSchema, reportListQuerySchema, reportPatchSchema } from "./reports.ts";

// The schemas each route's request is checked with, for the OpenAPI document the server serves
// at /api/docs: the same objects the server parses with, so the document cannot drift from them.
export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
}

export const apiSchemas: Partial<Record<ApiRoute, RouteSchemas>> = {
  "POST /api/auth/register": { body: registerSchema },
  "POST /api/auth/login": { body: loginSchema },
  "POST /api/auth/forgot-password": { body: forgotPasswordSchema },
  "POST /api/auth/reset-password": { body: resetPasswordSchema },
  "POST /api/verify": { body: verifySchema },
  "PATCH /api/me": { body: updateNameSchema },
  "POST /api/me/password": { body: changePasswordSchema },
  "POST /api/reports": { body: reportInputSchema },
  "GET /api/reports": { query: reportListQuerySchema },
  "GET /api/reports/export.csv": { query: reportListQuerySchema },
  "PATCH /api/reports/:id": { body: reportPatchSchema },
  "POST /api/students": { body: questionnaireSchema },
  "GET /api/students": { query: adminRecordsQuerySchema },
  "POST /api/predict": { body: questionnaireSchema },
  "GET /api/predictions": { query: adminRecordsQuerySchema },
  "GET /api/admin/users": { query: adminUserQuerySchema },
  "PATCH /api/admin/users/:uid": { body: adminUserPatchSchema },
  "GET /api/admin/audit": { query: auditQuerySchema },
};
