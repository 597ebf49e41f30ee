import { apiAccess } from "@gradecast/contract/api-access";
import type { Audience } from "@gradecast/contract/roles";
import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";
import type { Authenticate, AuthUser } from "./access-hook.ts";
import { commonPasswords, prepareDummyHash } from "./passwords.ts";
import { type AuthContext, accountDisabled, userOfToken } from "./service.ts";
import { loadSigningKeys } from "./tokens.ts";

// Builds the accounts context once per app (signing keys) and the authenticate function the
// access hook calls on every /api request: a valid EdDSA ID token, then the user read fresh
// from the database, so that a disabled account or a changed role takes effect at once.
export async function createAuthContext(services: Services): Promise<AuthContext> {
  prepareDummyHash();
  commonPasswords();
  return { services, keys: await loadSigningKeys(services.config) };
}

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function createAuthenticate(ctx: AuthContext): Authenticate {
  return async (request) => {
    const token = bearerOf(request);
    if (!token) return null;
    const row = await userOfToken(ctx, token);
    if (!row) return null;
    if (row.disabled) {
      // Routes open to anyone still answer (logout, health); others learn why they are refused.
      const access = request.routeOptions.config.access;
      const allow = access ? (apiAccess[access].allow as readonly Audience[]) : [];
      if (allow.includes("anonymous")) return null;
      throw accountDisabled();
    }
    const user: AuthUser = {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      emailVerified: row.email_verified,
    };
    return user;
  };
}
