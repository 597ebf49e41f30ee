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
// access hook calls on every /api request: a valid EdDSA ID token, then the user as the
// database holds it now, so that a disabled account or a changed role takes effect at once.
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

// The user is read once and then reused while the users table cannot have changed
// (db/database.ts userWrites), for 30 seconds at most; any write to users empties the cache at
// once. On PGlite, which belongs to this process alone (DATA_DIR is locked), every such write
// passes through its driver. On PostgreSQL, which other instances and `npm run admin:create`
// share, writes made elsewhere arrive as change notices (migration 0004) a few milliseconds
// after they commit; while the listening connection is down nothing is reused. One round trip
// to the database less on every signed-in call.
const cacheLimit = 10_000;
const cacheMs = 30_000;

function createUserReader(ctx: AuthContext): (id: string) => Promise<AuthUserRow | undefined> {
  const { services } = ctx;
  const userWrites = services.database.userWrites;
  const cache = new Map<string, { row: AuthUserRow; writes: number; at: number }>();
  return async (id) => {
    const writes = userWrites();
    const now = performance.now();
    const hit = cache.get(id);
    if (hit && hit.writes === writes && now - hit.at < cacheMs) return hit.row;
    const row = await findAuthUser(services.db, id);
    // Kept only if no write to users ran while it was read.
    if (row && userWrites() === writes) {
      if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
      cache.set(id, { row, writes, at: now });
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
    if (!claims) return null;
    const row = await userById(claims.sub);
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
