import type { z } from "zod";
import {
  changeEmailSchema,
  mfaConfirmSchema,
  mfaLoginSchema,
  reauthSchema,
} from "./account-security.ts";
import { adminUserPatchSchema, adminUserQuerySchema, auditQuerySchema } from "./admin.ts";
import { analyticsEmbedQuerySchema } from "./analytics.ts";
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
import { noteCreateSchema, sharingPatchSchema } from "./class-risk.ts";
import {
  addTeacherSchema,
  classCreateSchema,
  classPatchSchema,
  joinClassSchema,
} from "./classes.ts";
import { adminRecordsQuerySchema } from "./prediction.ts";
import { questionnaireSchema } from "./questionnaire.ts";
import {
  enrolledStudentQuerySchema,
  myReportsQuerySchema,
  reportCreateSchema,
  reportUpdateSchema,
} from "./report-students.ts";
import { reportListQuerySchema } from "./reports.ts";
import { teacherInvitationSchema } from "./teacher-invitations.ts";

// The schemas each route's request is checked with, for the OpenAPI document the server serves
// at /api/docs: the same objects the server parses with, so the document cannot drift from them.
export interface RouteSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
}

export const apiSchemas = {
  "POST /api/auth/register": { body: registerSchema },
  "POST /api/auth/login": { body: loginSchema },
  "POST /api/auth/forgot-password": { body: forgotPasswordSchema },
  "POST /api/auth/reset-password": { body: resetPasswordSchema },
  "POST /api/verify": { body: verifySchema },
  "PATCH /api/me": { body: updateNameSchema },
  "POST /api/me/password": { body: changePasswordSchema },
  "POST /api/reports": { body: reportCreateSchema },
  "GET /api/reports": { query: reportListQuerySchema },
  "GET /api/reports/export.csv": { query: reportListQuerySchema },
  "PATCH /api/reports/:id": { body: reportUpdateSchema },
  "POST /api/students": { body: questionnaireSchema },
  "GET /api/students": { query: adminRecordsQuerySchema },
  "POST /api/predict": { body: questionnaireSchema },
  "GET /api/predictions": { query: adminRecordsQuerySchema },
  "GET /api/admin/users": { query: adminUserQuerySchema },
  "PATCH /api/admin/users/:uid": { body: adminUserPatchSchema },
  "GET /api/admin/audit": { query: auditQuerySchema },
  "POST /api/classes": { body: classCreateSchema },
  "PATCH /api/classes/:id": { body: classPatchSchema },
  "POST /api/classes/join": { body: joinClassSchema },
  "POST /api/classes/:id/teachers": { body: addTeacherSchema },
  "POST /api/admin/invitations": { body: teacherInvitationSchema },
  "GET /api/classes/students": { query: enrolledStudentQuerySchema },
  "GET /api/me/reports": { query: myReportsQuerySchema },
  "POST /api/classes/:id/students/:uid/notes": { body: noteCreateSchema },
  "PATCH /api/me/sharing": { body: sharingPatchSchema },
  "GET /api/analytics/embed": { query: analyticsEmbedQuerySchema },
  "POST /api/auth/mfa": { body: mfaLoginSchema },
  "POST /api/auth/reauth": { body: reauthSchema },
  "POST /api/me/mfa/totp/confirm": { body: mfaConfirmSchema },
  "PATCH /api/me/email": { body: changeEmailSchema },
} as const satisfies Partial<Record<ApiRoute, RouteSchemas>>;
