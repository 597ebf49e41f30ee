import { type SessionInfo, securityMessages } from "@gradecast/contract/account-security";
import { isId } from "@gradecast/contract/ids";
import { audit, auditOwn } from "../audit/audit.ts";
import * as users from "../db/users.ts";
import { notFound } from "../domain-errors.ts";
import type { AuthUser } from "./access-hook.ts";
import * as q from "./queries.ts";
import type { AuthContext } from "./service.ts";

// The signed-in user's sessions (ASVS 7.4): see each one (when it began, when it was last used,
// from which address and browser) and end any of them. Ending one revokes its refresh tokens:
// it can no longer refresh, and its ID token is refused from the next call on (the access
// check's cache hears of every ended session: auth/authenticate.ts).

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listSessions(ctx: AuthContext, user: AuthUser): Promise<SessionInfo[]> {
  const rows = await q.listLiveSessions(ctx.services.db, user.id, ctx.services.now());
  return rows
    .map((row) => ({
      id: row.family_id,
      createdAt: iso((row.signed_in_at ?? row.created_at) as unknown as Date),
      lastUsedAt: iso(row.created_at as unknown as Date),
      ip: row.ip,
      userAgent: row.user_agent,
      method: row.sign_in_method,
      current: row.family_id === user.sessionId,
    }))
    .sort(
      (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
    );
}

export async function endSession(
  ctx: AuthContext,
  user: AuthUser,
  ip: string | null,
  id: string,
): Promise<void> {
  const { services } = ctx;
  if (!isId(id) || !(await q.revokeUserFamily(services.db, user.id, id, services.now()))) {
    throw notFound(securityMessages.sessionNotFound);
  }
  services.database.usersChanged();
  await auditOwn(services.db, user, "auth.session_ended", ip, { session: id });
}

export async function endOtherSessions(
  ctx: AuthContext,
  user: AuthUser,
  ip: string | null,
): Promise<void> {
  const { services } = ctx;
  await q.revokeUserSessions(services.db, user.id, services.now(), user.sessionId);
  services.database.usersChanged();
  await auditOwn(services.db, user, "auth.other_sessions_ended", ip);
}

/** An admin ends every session of an account (audited). */
export async function endAllSessionsOf(
  ctx: AuthContext,
  admin: AuthUser,
  ip: string | null,
  uid: string,
  notFoundMessage: string,
): Promise<void> {
  const { services } = ctx;
  const row = await users.findUserById(services.db, uid);
  if (!row) throw notFound(notFoundMessage);
  await q.revokeUserSessions(services.db, uid, services.now());
  services.database.usersChanged();
  await audit(services.db, {
    actorId: admin.id,
    actorEmail: admin.email,
    action: "admin.sessions_ended",
    target: uid,
    details: { email: row.email },
    ip,
  });
}
