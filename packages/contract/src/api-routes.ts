import { z } from "zod";
import {
  changeEmailAnswerSchema,
  changeEmailSchema,
  mfaChallengeSchema,
  mfaStatusSchema,
  recoveryCodesSchema,
  sessionListSchema,
  totpEnrolmentSchema,
} from "./account-security.ts";
import { adminUserSchema, auditPage, userPage } from "./admin.ts";
import type { ApiRoute } from "./api-access.ts";
import {
  analyticsReportSchema,
  embedAnswerSchema,
  enrolledStudentListSchema,
  healthSchema,
  messageSchema,
  myReportsPageSchema,
  noContentSchema,
  predictionHistorySchema,
  predictionRecordListSchema,
  predictionResultSchema,
  reportAnswerSchema,
  reportPageSchema,
  studentRecordListSchema,
  studentRecordSchema,
} from "./api-responses.ts";
import { apiSchemas } from "./api-schemas.ts";
import {
  classRiskSchema,
  noteAnswerSchema,
  noteCreateSchema,
  sharingPatchSchema,
  sharingSchema,
} from "./class-risk.ts";
import "./questionnaire-json.ts";
import { sessionSchema, userSchema } from "./auth.ts";
import {
  classListSchema,
  classMembersSchema,
  classSchema,
  invitationAcceptedSchema,
  myClassInvitationsSchema,
  rosterLimits,
  rosterResultSchema,
} from "./classes.ts";
import { invitationViewSchema } from "./invitation-view.ts";
import { messages } from "./messages.ts";
import { setupStateSchema, siteInfoSchema } from "./site.ts";

// Each route's HTTP contract, declared once beside its access rule (api-access.ts): a summary for
// the API document, its path parameters, query and body (the schemas of api-schemas.ts) and the
// body of each success it answers. The server hands these to Fastify as the route's schema (its
// requests are validated and its OpenAPI document generated from them); the error answers each
// route can give are added there from the access rule (apps/server/src/http/route-schemas.ts).

export interface RouteContract {
  summary: string;
  params?: z.ZodObject;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Success answers by status; errors are added from the access rule. */
  response: Record<number, z.ZodType>;
  /** The body is not JSON: its media type. */
  produces?: string;
  /** The request body is not JSON: its media type (the roster upload). */
  consumes?: string;
  /** The most bytes its request body may have, when not `defaultBodyLimit`; the 413 names it. */
  bodyLimit?: number;
}

const kb = (n: number) => n * 1024;
/**
 * A request body's size limit where a route declares none: a few KB, above the largest valid
 * body of every such route (body-limits.test.ts writes each one with every character escaped).
 */
export const defaultBodyLimit = kb(4);

const pathId = (what: string) =>
  z.string().min(1).max(100).describe(`The ${what}'s id (a UUID; any other value finds nothing)`);
const idParams = z.object({ id: pathId("record") });
const uidParams = z.object({ uid: pathId("user") });
const memberParams = z.object({ id: pathId("class"), uid: pathId("user") });

const predictQuery = z.object({
  store: z
    .enum(["true", "false"], { error: messages.storeFlag })
    .optional()
    .describe("false: a what-if call, answered and not stored"),
});
const analyticsQuery = z.object({
  // Checked by the route itself: any bad value answers 401 invalid_token, as a bad token does.
  token: z
    .string()
    .optional()
    .describe("An embed token (GET /api/analytics/embed), or send it as a bearer token"),
  classId: z.string().optional().describe("One class's view (its teachers and admins)"),
});

const classAnswer = z.object({ class: classSchema });
const joinAnswer = classAnswer.extend({ message: z.string() });
const message = messageSchema;
const openApiDocument = z.record(z.string(), z.unknown());
const classParams = z.object({ id: pathId("class") });
const invitedEmail = z.string().max(320).describe("The invited address");
// Any malformed code is the same 400 invalid_code as a wrong one (the service checks it).
const verifyBody = z.object({
  code: z
    .union([z.string().meta({ pattern: "^\\s*[0-9]{6}\\s*$" }), z.number().int()])
    .optional()
    .describe("The six-digit code from the email"),
});

type Parts = Omit<RouteContract, "summary" | "response">;
type Answers = Record<number, z.ZodType>;

/** A route's entry: its summary, its success answers and what else it declares. */
function op<const A extends Answers, const P extends Parts = Record<never, never>>(
  summary: string,
  response: A,
  parts?: P,
) {
  return { summary, response, ...(parts as P) };
}
const ok = <const S extends z.ZodType, const P extends Parts>(
  summary: string,
  answer: S,
  parts?: P,
) => op(summary, { 200: answer }, parts);
const created = <const S extends z.ZodType, const P extends Parts>(
  summary: string,
  answer: S,
  parts?: P,
) => op(summary, { 201: answer }, parts);
const done = <const P extends Parts>(summary: string, parts?: P) =>
  op(summary, { 204: noContentSchema }, parts);
const accepted = <const P extends Parts>(summary: string, parts?: P) =>
  op(summary, { 202: message }, parts);

type Schemas = typeof apiSchemas;
type RequestOf<R extends keyof Schemas> = (Schemas[R] extends { body: infer B }
  ? { body: B }
  : unknown) &
  (Schemas[R] extends { query: infer Q } ? { querystring: Q } : unknown);

/** A route's body or query, as api-schemas.ts declares it for the route of the same name. */
function requestOf<R extends keyof Schemas>(route: R): RequestOf<R> {
  const { body, query } = apiSchemas[route] as { body?: z.ZodType; query?: z.ZodType };
  return { ...(body ? { body } : {}), ...(query ? { querystring: query } : {}) } as RequestOf<R>;
}

export const apiRoutes = {
  "GET /api/health": op(
    "Whether the database and the model answer (503 with the same shape when not)",
    { 200: healthSchema, 503: healthSchema },
  ),
  "GET /api/site": ok("The school's name and contact address", siteInfoSchema),
  "GET /api/setup": ok("Whether this installation has an admin yet", setupStateSchema),
  "GET /api/docs": ok("This API described as a page", z.string(), { produces: "text/html" }),
  "GET /api/docs/openapi.json": ok(
    "This API as an OpenAPI 3.1 document (former address)",
    openApiDocument,
  ),
  "GET /api/openapi.json": ok("This API as an OpenAPI 3.1 document", openApiDocument),
  "POST /api/auth/register": created(
    "Create an account (then sign in with POST /api/auth/login)",
    z.object({ user: userSchema }),
    requestOf("POST /api/auth/register"),
  ),
  "POST /api/auth/login": ok(
    "Sign in: an ID token and a refresh cookie, or an MFA challenge",
    z.union([sessionSchema, mfaChallengeSchema]),
    { ...requestOf("POST /api/auth/login"), bodyLimit: kb(10) },
  ),
  "POST /api/auth/refresh": ok("A new ID token from the refresh cookie", sessionSchema),
  "POST /api/auth/logout": done("End this session"),
  "POST /api/auth/forgot-password": accepted(
    "Email a password-reset link",
    requestOf("POST /api/auth/forgot-password"),
  ),
  "POST /api/auth/reset-password": ok(
    "Set a new password with a reset token",
    message,
    requestOf("POST /api/auth/reset-password"),
  ),
  "POST /api/verify": ok("Verify the email address with the emailed code", message, {
    body: verifyBody,
  }),
  "POST /api/verify/resend": accepted("Email a new verification code"),
  "GET /api/me": ok("The signed-in account", userSchema),
  "PATCH /api/me": ok("Change the account's name", userSchema, requestOf("PATCH /api/me")),
  "POST /api/me/password": done("Change the password (ends the other sessions)", {
    ...requestOf("POST /api/me/password"),
    bodyLimit: kb(10),
  }),
  "POST /api/reports": created(
    "File a teacher report (then read it with GET /api/reports/{id})",
    reportAnswerSchema,
    { ...requestOf("POST /api/reports"), bodyLimit: kb(20) },
  ),
  "GET /api/reports": ok(
    "The reports the caller may read, a page at a time",
    reportPageSchema,
    requestOf("GET /api/reports"),
  ),
  "GET /api/reports/export.csv": ok("The same reports as a CSV file", z.string(), {
    ...requestOf("GET /api/reports/export.csv"),
    produces: "text/csv",
  }),
  "GET /api/reports/:id": ok("One report", reportAnswerSchema, { params: idParams }),
  "PATCH /api/reports/:id": ok("Change a report", reportAnswerSchema, {
    ...requestOf("PATCH /api/reports/:id"),
    params: idParams,
    bodyLimit: kb(20),
  }),
  "DELETE /api/reports/:id": done("Delete a report", { params: idParams }),
  "POST /api/students": created(
    "Save the questionnaire's answers",
    z.object({ student: studentRecordSchema }),
    { ...requestOf("POST /api/students"), bodyLimit: kb(4) },
  ),
  "GET /api/students/mine": ok("The caller's saved questionnaires", studentRecordListSchema),
  "GET /api/students": ok(
    "Every student's saved questionnaires (admins)",
    z.object({ items: z.array(studentRecordSchema.extend({ userId: z.string() })) }),
    requestOf("GET /api/students"),
  ),
  "POST /api/predict": ok(
    "Predict the final grade from the questionnaire's answers, with its explanation",
    predictionResultSchema,
    { ...requestOf("POST /api/predict"), querystring: predictQuery, bodyLimit: kb(4) },
  ),
  "GET /api/predictions/mine": ok(
    "The caller's predictions, newest first",
    predictionHistorySchema,
  ),
  "GET /api/predictions": ok(
    "Every student's predictions (admins)",
    predictionRecordListSchema,
    requestOf("GET /api/predictions"),
  ),
  "GET /api/analytics/embed": ok(
    "The address of the caller's analytics report (a short-lived token)",
    embedAnswerSchema,
    requestOf("GET /api/analytics/embed"),
  ),
  "GET /api/analytics/report": ok(
    "An analytics report, for an embed token or the signed-in caller",
    analyticsReportSchema,
    { querystring: analyticsQuery },
  ),
  "GET /api/admin/users": ok(
    "Accounts, a page at a time (admins)",
    userPage,
    requestOf("GET /api/admin/users"),
  ),
  "PATCH /api/admin/users/:uid": ok(
    "Change an account's role or disable it (admins)",
    z.object({ user: adminUserSchema }),
    { ...requestOf("PATCH /api/admin/users/:uid"), params: uidParams },
  ),
  "POST /api/admin/users/:uid/reset-password": accepted(
    "Email an account a password-reset link (admins)",
    { params: uidParams },
  ),
  "POST /api/admin/users/:uid/reject-teacher": ok(
    "Reject an account's pending teacher request: it stays a student (admins; 409 when none waits)",
    z.object({ user: adminUserSchema }),
    { params: uidParams },
  ),
  "GET /api/admin/audit": ok(
    "The audit log, a page at a time (admins)",
    auditPage,
    requestOf("GET /api/admin/audit"),
  ),
  "POST /api/classes": created("Create a class", classAnswer, requestOf("POST /api/classes")),
  "GET /api/classes": ok("The classes the caller teaches or is in", classListSchema),
  "POST /api/classes/join": op(
    "Join a class with its code (201 joined, 200 already in it)",
    { 200: joinAnswer, 201: joinAnswer },
    requestOf("POST /api/classes/join"),
  ),
  "GET /api/classes/:id": ok("One class", classAnswer, { params: idParams }),
  "PATCH /api/classes/:id": ok("Change a class", classAnswer, {
    ...requestOf("PATCH /api/classes/:id"),
    params: idParams,
  }),
  "DELETE /api/classes/:id": done("Delete a class", { params: idParams }),
  "GET /api/classes/:id/members": ok(
    "A class's students and open invitations",
    classMembersSchema,
    { params: idParams },
  ),
  "POST /api/classes/:id/teachers": ok("Add a co-teacher by email", classAnswer, {
    ...requestOf("POST /api/classes/:id/teachers"),
    params: idParams,
  }),
  "DELETE /api/classes/:id/teachers/:uid": done("Remove a co-teacher", { params: memberParams }),
  "DELETE /api/classes/:id/students/:uid": done("Remove a student from a class", {
    params: memberParams,
  }),
  "POST /api/classes/:id/join-code": ok(
    "A new join code (the old one stops working)",
    classAnswer,
    { params: idParams },
  ),
  "DELETE /api/classes/:id/join-code": ok("Switch joining by code off", classAnswer, {
    params: idParams,
  }),
  "POST /api/classes/:id/roster/preview": ok(
    "What importing a roster file (CSV: name,email) would do",
    rosterResultSchema,
    { params: idParams, bodyLimit: rosterLimits.bytes, consumes: "text/csv" },
  ),
  "POST /api/classes/:id/roster": ok(
    "Import a roster file (CSV: name,email or name;email): invite each address not in the class",
    rosterResultSchema,
    { params: idParams, bodyLimit: rosterLimits.bytes, consumes: "text/csv" },
  ),
  "POST /api/admin/invitations": created(
    "Invite a teacher by email (admins)",
    z.object({ invitation: invitationViewSchema }),
    requestOf("POST /api/admin/invitations"),
  ),
  "GET /api/admin/invitations": ok(
    "Teacher invitations still open (admins)",
    z.object({ items: z.array(invitationViewSchema) }),
  ),
  "GET /api/classes/students": ok(
    "Enrolled students of the caller's classes whose name matches (the report form)",
    enrolledStudentListSchema,
    requestOf("GET /api/classes/students"),
  ),
  "GET /api/me/reports": ok(
    "The reports teachers wrote about the calling student",
    myReportsPageSchema,
    requestOf("GET /api/me/reports"),
  ),
  "POST /api/auth/mfa": ok(
    "Finish signing in with an authenticator or recovery code",
    sessionSchema,
    { ...requestOf("POST /api/auth/mfa"), bodyLimit: kb(16) },
  ),
  "POST /api/auth/reauth": done("Confirm the password (and code) before a sensitive change", {
    ...requestOf("POST /api/auth/reauth"),
    bodyLimit: kb(8),
  }),
  "GET /api/me/sessions": ok("The account's sessions", sessionListSchema),
  "DELETE /api/me/sessions": done("End every other session"),
  "DELETE /api/me/sessions/:id": done("End one session", { params: idParams }),
  "GET /api/me/mfa": ok("Whether MFA is on", mfaStatusSchema),
  "POST /api/me/mfa/totp": ok(
    "Start TOTP enrolment: a secret for the authenticator app",
    totpEnrolmentSchema,
  ),
  "POST /api/me/mfa/totp/confirm": ok(
    "Turn TOTP on with a first code: the recovery codes",
    recoveryCodesSchema,
    requestOf("POST /api/me/mfa/totp/confirm"),
  ),
  "DELETE /api/me/mfa": done("Turn MFA off"),
  "DELETE /api/admin/users/:uid/sessions": done("End every session of an account (admins)", {
    params: uidParams,
  }),
  "DELETE /api/admin/users/:uid/mfa": ok("Turn an account's MFA off (admins)", message, {
    params: uidParams,
  }),
  "DELETE /api/admin/invitations/:email": done("Cancel an open teacher invitation (admins)", {
    params: z.object({ email: invitedEmail }),
  }),
  "DELETE /api/classes/:id/invitations/:email": done("Cancel a class's open roster invitation", {
    params: classParams.extend({ email: invitedEmail }),
  }),
  "GET /api/classes/:id/risk": ok(
    "A class's students by risk, with school-record reasons (and notes, for its teachers)",
    classRiskSchema,
    { params: classParams },
  ),
  "GET /api/classes/:id/risk.csv": ok(
    "The class risk list as CSV, the screen's columns",
    z.string(),
    { params: classParams, produces: "text/csv" },
  ),
  "POST /api/classes/:id/students/:uid/notes": created(
    "Add an intervention note about an enrolled student (the class's teachers)",
    noteAnswerSchema,
    { params: memberParams, body: noteCreateSchema, bodyLimit: kb(8) },
  ),
  "GET /api/me/sharing": ok(
    "Whether the calling student shares their full explanation with their teachers",
    sharingSchema,
  ),
  "PATCH /api/me/sharing": ok(
    "Share (or stop sharing) the full explanation with one's teachers (students)",
    sharingSchema,
    { body: sharingPatchSchema },
  ),
  "GET /api/me/class-invitations": ok(
    "The class invitations waiting for the calling student's answer",
    myClassInvitationsSchema,
  ),
  "POST /api/classes/:id/invitation": ok(
    "Accept the class's invitation and join it (students)",
    invitationAcceptedSchema,
    { params: classParams },
  ),
  "DELETE /api/classes/:id/invitation": done("Decline the class's invitation (students)", {
    params: classParams,
  }),
  "DELETE /api/classes/:id/enrolment": done("Leave a class (students)", { params: classParams }),
  "PATCH /api/me/email": ok(
    "Change one's own email address (after re-authentication; verify it again)",
    changeEmailAnswerSchema,
    { body: changeEmailSchema },
  ),
} as const satisfies Record<ApiRoute, RouteContract>;

/** The most bytes a route's request body may have. */
export function bodyLimitOf(route: ApiRoute): number {
  return (apiRoutes[route] as RouteContract).bodyLimit ?? defaultBodyLimit;
}
