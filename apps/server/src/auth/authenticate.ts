import { apiAccess } from "@gradecast/contract/api-access";
import type { Audience } from "@gradecast/contract/roles";
import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";
import type { Authenticate, AuthUser } from "./access-hook.ts";
import { commonPasswords, prepareDummyHash } from "./passwords.ts";
import { type AuthUserRow, findAuthUser } from "./queries.ts";
import { type AuthContext, accountDisabled } from "./service.ts";
import { loadSigningKeys, verifyIdToken } from "./tokens.ts";

// Builds the accounts context once per app (signing keys) and the authenticate function the
// access hook calls on every /api request: a valid EdDSA ID token whose session has not ended,
// then the user as the database holds it now, so that a disabled account, a changed role or a
// logout takes effect at once.
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

// The user (with whether the token's session is live) is read once and then reused while the
// users table and the ends of sessions cannot have changed (db/database.ts userWrites), for 30
// seconds at most; any such write empties the cache at once. On PGlite, which belongs to this
// process alone (DATA_DIR is locked), every such write passes through its driver. On
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

export function createAuthenticate(ctx: AuthContext): Authenticate {
  const userById = createUserReader(ctx);
  return async (request) => {
    const token = bearerOf(request);
    if (!token) return null;
    const claims = await verifyIdToken(ctx.keys, token, ctx.services.now());
    if (!claims?.sid) return null;
    const row = await userById(claims.sub, claims.sid);
    if (!row) return null;
    // Before the session: disabling an account ends its sessions, and its owner learns why.
    if (row.disabled) {
      // Routes open to anyone still answer (logout, health); others learn why they are refused.
      const access = request.routeOptions.config.access;
      const allow = access ? (apiAccess[access].allow as readonly Audience[]) : [];
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
      sessionId: claims.sid,
    };
    return user;
  };
}
