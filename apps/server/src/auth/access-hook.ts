import { securityMessages } from "@gradecast/contract/account-security";
import {
  type ApiRoute,
  apiAccess,
  needsVerifiedEmail,
  type Scope,
} from "@gradecast/contract/api-access";
import type { Audience, Role } from "@gradecast/contract/roles";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmbedClaims } from "../analytics/embed-token.ts";
import { emailNotVerified, forbidden, unauthenticated } from "../domain-errors.ts";

// Authorisation in one place: every /api route names its line of the contract's access table
// (route config `access`), and this hook enforces it before any handler runs. A route that
// names no line, or a line that does not match its method and path, stops the app at start.
export interface AuthUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  /** The session (refresh-token family) of the caller's ID token. */
  sessionId: string;
  /** TOTP MFA is on: an admin without it reaches only what enrolment needs. */
  mfaEnabled: boolean;
}

// What an admin who has not turned MFA on may still call: their own account and enrolment
// (and every route open to anyone). Everything else answers 403 mfa_enrolment_required, which
// the web app answers by opening Settings at the MFA section.
const enrolmentRoutes: ReadonlySet<ApiRoute> = new Set<ApiRoute>([
  "GET /api/me",
  "GET /api/me/mfa",
  "POST /api/me/mfa/totp",
  "POST /api/me/mfa/totp/confirm",
  "GET /api/me/sessions",
  "DELETE /api/me/sessions",
  "DELETE /api/me/sessions/:id",
  "POST /api/verify",
  "POST /api/verify/resend",
]);

declare module "fastify" {
  interface FastifyContextConfig {
    access?: ApiRoute;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** On the analytics report's route: what the caller's valid embed token says. */
    embed: EmbedClaims | null;
  }
}

export type Authenticate = (request: FastifyRequest) => Promise<AuthUser | null>;

export function installAccessHook(app: FastifyInstance, authenticate: Authenticate) {
  app.decorateRequest("user", null);
  app.decorateRequest("embed", null);
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/")) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === "HEAD" || m === "OPTIONS")) return;
    const access = (route.config as { access?: ApiRoute } | undefined)?.access;
    const expected = `${methods.find((m) => m !== "HEAD")} ${route.url}`;
    if (!access || !(access in apiAccess) || access !== expected) {
      throw new Error(`Route ${expected} has no matching line in the contract's access table`);
    }
  });
  // onRequest, before the body is read or checked: a caller who may not call a route learns
  // nothing about what its body should be (401 or 403 whatever was sent).
  app.addHook("onRequest", async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const rule = apiAccess[access];
    const allow = rule.allow as readonly Audience[];
    request.user = await authenticate(request);
    if (allow.includes("anonymous")) return;
    if (!request.user) throw unauthenticated();
    if (!allow.includes(request.user.role)) throw forbidden();
    if (request.user.role === "admin" && !request.user.mfaEnabled && !enrolmentRoutes.has(access)) {
      throw forbidden(securityMessages.mfaEnrolmentRequired, "mfa_enrolment_required");
    }
    if (needsVerifiedEmail(access) && !request.user.emailVerified) throw emailNotVerified();
  });
}

/** Which records of a route a signed-in user reaches, from the same table. */
export function scopeOf(access: ApiRoute, role: Role): Scope {
  const rule = apiAccess[access] as { scope?: Partial<Record<Audience, Scope>> };
  return rule.scope?.[role] ?? "any";
}
