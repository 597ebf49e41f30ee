import type { Audience } from "./roles.ts";

// Who may call each API route and on what. The server enforces this table in one hook
// (apps/server/src/auth/access-hook.ts); a route missing from it refuses to start, and the
// authorisation matrix test walks every cell.
export type Scope = "none" | "own" | "any";

export interface AccessRule {
  /** Roles allowed to call; "anonymous" means no sign-in is needed. */
  allow: readonly Audience[];
  /** For calls on one record: which records each role reaches. */
  scope?: Partial<Record<Audience, Scope>>;
}

const anyone: AccessRule = { allow: ["anonymous", "student", "teacher", "admin"] };
const signedIn: AccessRule = { allow: ["student", "teacher", "admin"] };
const staff: AccessRule = { allow: ["teacher", "admin"] };
const students: AccessRule = { allow: ["student", "admin"] };
const admins: AccessRule = { allow: ["admin"] };

export const apiAccess = {
  "GET /api/health": anyone,
  "GET /api/site": anyone,
  "GET /api/docs": anyone,
  "GET /api/docs/openapi.json": anyone,
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
  // Reading follows the list, which shows every report to every teacher (docs/decisions/0003).
  "GET /api/reports/:id": { ...staff, scope: { teacher: "any", admin: "any" } },
  "PATCH /api/reports/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "DELETE /api/reports/:id": { ...staff, scope: { teacher: "own", admin: "any" } },
  "POST /api/students": students,
  "GET /api/students/mine": { ...students, scope: { student: "own", admin: "own" } },
  "GET /api/students": admins,
  "POST /api/predict": signedIn,
  "GET /api/predictions/mine": { ...students, scope: { student: "own", admin: "own" } },
  "GET /api/predictions": admins,
  "GET /api/analytics/embed": signedIn,
  "GET /api/analytics/report": anyone,
  "GET /api/admin/users": admins,
  "PATCH /api/admin/users/:uid": admins,
  "POST /api/admin/users/:uid/reset-password": admins,
  "GET /api/admin/audit": admins,
} as const satisfies Record<string, AccessRule>;

export type ApiRoute = keyof typeof apiAccess;

export function mayCall(route: ApiRoute, who: Audience): boolean {
  return (apiAccess[route].allow as readonly Audience[]).includes(who);
}
