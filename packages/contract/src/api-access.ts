import type { Audience } from "./roles.ts";

// Who may call each API route and on what. The server enforces this table in one hook
// (apps/server/src/auth/access-hook.ts); a route missing from it refuses to start, and the
// authorisation matrix test walks every cell.
/** "class": their own records and those of the classes they teach (issue 17). */
export type Scope = "none" | "own" | "class" | "any";

export interface AccessRule {
  /** Roles allowed to call; "anonymous" means no sign-in is needed. */
  allow: readonly Audience[];
  /** For calls on one record: which records each role reaches. */
  scope?: Partial<Record<Audience, Scope>>;
  /**
   * Data about other people: a signed-in caller whose email is not verified gets 403
   * `email_not_verified` (a stranger's made-up address reads nothing).
   */
  verified?: true;
}

const anyone: AccessRule = { allow: ["anonymous", "student", "teacher", "admin"] };
const signedIn: AccessRule = { allow: ["student", "teacher", "admin"] };
const staff: AccessRule = { allow: ["teacher", "admin"], verified: true };
const students: AccessRule = { allow: ["student", "admin"] };
const admins: AccessRule = { allow: ["admin"], verified: true };
const invitedStudent: AccessRule = {
  allow: ["student"],
  verified: true,
  scope: { student: "own" },
};

export const apiAccess = {
  "GET /api/health": anyone,
  "GET /api/site": anyone,
  "GET /api/setup": anyone,
  "GET /api/docs": anyone,
  "GET /api/docs/openapi.json": anyone,
  "GET /api/openapi.json": anyone,
  "POST /api/auth/register": anyone,
  "POST /api/auth/login": anyone,
  "POST /api/auth/refresh": anyone,
  "POST /api/auth/logout": anyone,
  "POST /api/auth/forgot-password": anyone,
  "POST /api/auth/reset-password": anyone,
  "POST /api/verify": signedIn,
  "POST /api/verify/resend": signedIn,
  "GET /api/me": signedIn,
  "PATCH /api/me": signedIn,
  "POST /api/me/password": signedIn,
  "POST /api/reports": staff,
  "GET /api/reports": staff,
  "GET /api/reports/export.csv": staff,
  // A teacher reads their own reports and those of their classes' students (docs/decisions/0005).
  "GET /api/reports/:id": { ...staff, scope: { teacher: "class", admin: "any" } },
  "PATCH /api/reports/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/reports/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/students": students,
  "GET /api/students/mine": { ...students, scope: { student: "own", admin: "own" } },
  "GET /api/students": admins,
  "POST /api/predict": signedIn,
  "GET /api/predictions/mine": { ...students, scope: { student: "own", admin: "own" } },
  "GET /api/predictions": admins,
  "GET /api/analytics/embed": { ...signedIn, verified: true },
  "GET /api/analytics/report": anyone,
  "GET /api/admin/users": admins,
  "PATCH /api/admin/users/:uid": admins,
  "POST /api/admin/users/:uid/reset-password": admins,
  // Rejecting a pending teacher request: the account stays a student (issue 17).
  "POST /api/admin/users/:uid/reject-teacher": admins,
  "GET /api/admin/audit": admins,
  // Classes and enrolment (issue 17): a class's own teachers and admins manage it; an enrolled
  // student reads it without the join code; anybody else gets 404 for it.
  "POST /api/classes": staff,
  "GET /api/classes": { ...signedIn, verified: true },
  "POST /api/classes/join": { allow: ["student"], verified: true },
  "GET /api/classes/:id": {
    ...signedIn,
    verified: true,
    scope: { student: "own", teacher: "own", admin: "any" },
  },
  "PATCH /api/classes/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/classes/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "GET /api/classes/:id/members": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/classes/:id/teachers": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/classes/:id/teachers/:uid": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/classes/:id/students/:uid": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/classes/:id/join-code": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/classes/:id/join-code": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/classes/:id/roster/preview": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/classes/:id/roster": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/admin/invitations": admins,
  "GET /api/admin/invitations": admins,
  // Who sent an invitation takes it back: an admin a teacher's, a class's teachers the class's.
  "DELETE /api/admin/invitations/:email": admins,
  "DELETE /api/classes/:id/invitations/:email": {
    ...staff,
    scope: { teacher: "own", admin: "any" },
  },
  // Reports about enrolled students (issue 17): the report form's picker, a student's own reports.
  "GET /api/classes/students": staff,
  "GET /api/me/reports": { allow: ["student"], verified: true },
  // The class risk list (issue 20): the class's teachers and admins. Intervention notes are for
  // the class's teachers only (an admin reads the list without them and writes none). A student
  // chooses whether their teachers see their full explanation (their own setting, no one else's).
  "GET /api/classes/:id/risk": { ...staff, scope: { teacher: "own", admin: "any" } },
  "GET /api/classes/:id/risk.csv": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/classes/:id/students/:uid/notes": {
    allow: ["teacher"],
    verified: true,
    scope: { teacher: "own" },
  },
  "GET /api/me/sharing": { allow: ["student"] },
  "PATCH /api/me/sharing": { allow: ["student"] },
  // Issue 26: a student answers a class's invitation, and may leave a class.
  "GET /api/me/class-invitations": { allow: ["student"], verified: true },
  // "own": the invitation to the student's address, the student's own enrolment.
  "POST /api/classes/:id/invitation": { ...invitedStudent },
  "DELETE /api/classes/:id/invitation": { ...invitedStudent },
  "DELETE /api/classes/:id/enrolment": { ...invitedStudent },
  // Account security (issue 18): sessions, TOTP MFA, re-authentication. Last: the fuzz test
  // walks routes in this order, and these end sessions and turn MFA off for its users.
  "POST /api/auth/mfa": anyone,
  "POST /api/auth/reauth": signedIn,
  "GET /api/me/sessions": signedIn,
  "DELETE /api/me/sessions": signedIn,
  "DELETE /api/me/sessions/:id": signedIn,
  "GET /api/me/mfa": signedIn,
  "POST /api/me/mfa/totp": signedIn,
  "POST /api/me/mfa/totp/confirm": signedIn,
  "DELETE /api/me/mfa": signedIn,
  "DELETE /api/admin/users/:uid/sessions": admins,
  "DELETE /api/admin/users/:uid/mfa": admins,
  "PATCH /api/me/email": signedIn,
} as const satisfies Record<string, AccessRule>;

export type ApiRoute = keyof typeof apiAccess;

/** True when the route shows data about other people, so an unverified email is refused. */
export function needsVerifiedEmail(route: ApiRoute): boolean {
  return (apiAccess[route] as AccessRule).verified === true;
}

export function mayCall(route: ApiRoute, who: Audience): boolean {
  return (apiAccess[route].allow as readonly Audience[]).includes(who);
}
