import { type ApiRoute, apiAccess } from "@gradecast/contract/api-access";
import type { Audience, Role } from "@gradecast/contract/roles";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../http/errors.ts";

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
}

declare module "fastify" {
  interface FastifyContextConfig {
    access?: ApiRoute;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export type Authenticate = (request: FastifyRequest) => Promise<AuthUser | null>;

export function installAccessHook(app: FastifyInstance, authenticate: Authenticate) {
  app.decorateRequest("user", null);
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
  app.addHook("preHandler", async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const rule = apiAccess[access];
    const allow = rule.allow as readonly Audience[];
    request.user = await authenticate(request);
    if (allow.includes("anonymous")) return;
    if (!request.user) throw unauthorized();
    if (!allow.includes(request.user.role)) throw forbidden();
  });
}

/** Which records of a route a signed-in user reaches, from the same table. */
export function scopeOf(access: ApiRoute, role: Role): "none" | "own" | "any" {
  const rule = apiAccess[access] as { scope?: Partial<Record<Audience, "none" | "own" | "any">> };
  return rule.scope?.[role] ?? "any";
}
