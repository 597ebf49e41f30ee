import { securityMessages } from "@gradecast/contract/account-security";
import type { ApiRoute } from "@gradecast/contract/api-access";
import type { Locale } from "@gradecast/contract/locale";
import type { Role } from "@gradecast/contract/roles";
import type { AccessRule, RouteEntry } from "@gradecast/contract/route";
import { routeByKey, routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmbedClaims } from "../analytics/embed-token.ts";
import { emailNotVerified, forbidden, unauthenticated } from "../domain-errors.ts";

// Authorisation in one place: every /api route carries its contract entry in its config (`route`,
// put there by http/route-schemas.ts `serve`), and this hook enforces the entry's access rule
// before any handler runs. A route without an entry, or whose entry is not the contract's for its
// method and path, stops the app at start.
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
  /** The language the person chose (issue 33); null follows the browser. */
  locale: Locale | null;
}

// What an admin who has not turned MFA on may still call: their own account and enrolment
// (and every route open to anyone). Everything else answers 403 mfa_enrolment_required, which
// the web app answers by opening Settings at the MFA section.
const enrolmentRoutes: ReadonlySet<RouteEntry> = new Set<RouteEntry>([
  routes.users.me,
  routes.accountSecurity.mfaStatus,
  routes.accountSecurity.startTotp,
  routes.accountSecurity.confirmTotp,
  routes.accountSecurity.sessions,
  routes.accountSecurity.endOtherSessions,
  routes.accountSecurity.endSession,
  routes.auth.verify,
  routes.auth.resendVerification,
]);

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's entry in the contract (packages/contract/src/routes). */
    route?: RouteEntry;
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
    const entry = (route.config as { route?: RouteEntry } | undefined)?.route;
    const expected = `${methods.find((m) => m !== "HEAD")} ${route.url}`;
    if (!entry || entry.key !== expected || routeByKey[entry.key as ApiRoute] !== entry) {
      throw new Error(`Route ${expected} is served without its entry in the contract`);
    }
  });
  // onRequest, before the body is read or checked: a caller who may not call a route learns
  // nothing about what its body should be (401 or 403 whatever was sent).
  app.addHook("onRequest", async (request) => {
    const entry = request.routeOptions.config.route;
    if (!entry) return;
    const rule: AccessRule = entry.access;
    const allow = rule.allow;
    request.user = await authenticate(request);
    if (allow.includes("anonymous")) return;
    if (!request.user) throw unauthenticated();
    if (!allow.includes(request.user.role)) throw forbidden();
    if (request.user.role === "admin" && !request.user.mfaEnabled && !enrolmentRoutes.has(entry)) {
      throw forbidden(securityMessages.mfaEnrolmentRequired, "mfa_enrolment_required");
    }
    if (rule.verified && !request.user.emailVerified) throw emailNotVerified();
  });
}
