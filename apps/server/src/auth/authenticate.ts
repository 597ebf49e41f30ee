import type { Audience } from "@gradecast/contract/roles";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyRequest } from "fastify";
import { createEmbedSigner } from "../analytics/embed-token.ts";
import { type AuthUserRow, findAuthUser } from "../db/users.ts";
import type { Services } from "../services.ts";
import type { Authenticate, AuthUser } from "./access-hook.ts";
import { commonPasswords, prepareDummyHash } from "./passwords.ts";
import { type AuthContext, accountDisabled } from "./service.ts";
import { loadSigningKeys, verifyIdToken } from "./tokens.ts";

// Builds the accounts context once per app (signing keys) and the authenticate function the
// access hook calls on every /api request: a valid EdDSA ID token whose session has not ended,
// then the user as the database holds it now, so that a disabled account, a changed role or a
// logout takes effect at once. The analytics report's data takes an embed token instead (its
// frame has no ID token): the same path, from the user and session that token names.
export async function createAuthContext(services: Services): Promise<AuthContext> {
  prepareDummyHash();
  commonPasswords();
  return {
    services,
    keys: await loadSigningKeys(services.config),
    embed: await createEmbedSigner(services.config),
  };
}

/** The one route whose credential is an embed token (analytics/embed-token.ts), never an ID token. */
export const embedTokenRoute = routes.analytics.report;

export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

// The user (with whether the token's session is live) is read once and then reused while the
// users table and the ends of sessions cannot have changed (db/database.ts userWrites), for 30
// seconds at most. Every service that changes a user or ends a session says so
// (database.usersChanged) once the change is committed, which empties the cache at once; on
// PGlite, which belongs to this process alone (DATA_DIR is locked), that is every change. On
// PostgreSQL, which other instances and `npm run admin:create` share, writes made elsewhere
// arrive as change notices (migrations 0004 and 0006) a few milliseconds after they commit;
// while the listening connection is down nothing is reused. One round trip to the database
// less on every signed-in call.
const cacheLimit = 10_000;
const cacheMs = 30_000;

function createUserReader(
  ctx: AuthContext,
): (id: string, sessionId: string) => Promise<AuthUserRow | undefined> {
  const { services } = ctx;
  const userWrites = services.database.userWrites;
  const cache = new Map<string, { row: AuthUserRow; writes: number; at: number }>();
  return async (id, sessionId) => {
    const key = `${id} ${sessionId}`;
    const writes = userWrites();
    const now = performance.now();
    const hit = cache.get(key);
    if (hit && hit.writes === writes && now - hit.at < cacheMs) return hit.row;
    const row = await findAuthUser(services.db, id, sessionId);
    // Kept only if no write to users or sessions ran while it was read.
    if (row && userWrites() === writes) {
      if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
      cache.set(key, { row, writes, at: now });
    }
    return row;
  };
}

/** The embed token of a call: from the address or as a bearer token (cookies are never read). */
function embedTokenOf(request: FastifyRequest): string | undefined {
  const { token } = request.query as { token?: unknown };
  return typeof token === "string" ? token : bearerOf(request);
}

export function createAuthenticate(ctx: AuthContext): Authenticate {
  const userById = createUserReader(ctx);
  const sessionUser = async (request: FastifyRequest, id: string, sessionId: string) => {
    const row = await userById(id, sessionId);
    if (!row) return null;
    // Before the session: disabling an account ends its sessions, and its owner learns why.
    if (row.disabled) {
      // Routes open to anyone still answer (logout, health); others learn why they are refused.
      const allow: readonly Audience[] = request.routeOptions.config.route?.access.allow ?? [];
      if (allow.includes("anonymous")) return null;
      throw accountDisabled();
    }
    if (!row.session_live) return null;
    const user: AuthUser = {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      emailVerified: row.email_verified,
      sessionId,
      mfaEnabled: row.mfa_enabled,
      locale: row.locale,
    };
    return user;
  };
  return async (request) => {
    const now = ctx.services.now();
    if (request.routeOptions.config.route === embedTokenRoute) {
      const token = embedTokenOf(request);
      const claims = token ? await ctx.embed.verify(token, now) : null;
      if (!claims) return null;
      const user = await sessionUser(request, claims.userId, claims.sessionId);
      request.embed = user ? claims : null;
      return user;
    }
    const token = bearerOf(request);
    if (!token) return null;
    const claims = await verifyIdToken(ctx.keys, token, now);
    if (!claims?.sid) return null;
    return sessionUser(request, claims.sub, claims.sid);
  };
}
