import {
  type AdminUser,
  type AuditEntryView,
  type AuditPage,
  adminMessages,
  adminUserPatchSchema,
  adminUserQuerySchema,
  auditQuerySchema,
  type UserPage,
} from "@gradecast/contract/admin";
import { audit } from "../audit/audit.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import { type AuthContext, forgotPassword } from "../auth/service.ts";
import type { UserRow } from "../db/schema.ts";
import { isBigintText, isTimestampText } from "../http/cursor-keys.ts";
import { badRequest, conflict, notFound, parse } from "../http/errors.ts";
import type { Services } from "../services.ts";
import {
  findUser,
  listAudit,
  listUsers,
  lockActiveAdmins,
  lockUser,
  type Position,
  revokeAllSessions,
  updateUserAccess,
} from "./queries.ts";

// The rules of user management (issue 8): who may be demoted or disabled (never the last
// active admin, decided in the same transaction as the change), what a disable ends (every
// session at once; the access hook reads the user on each call, so the ID token dies too), and
// the audit entries every change writes with who, what and from which address.

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Actor {
  user: AuthUser;
  ip: string | null;
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

export function toAdminUser(row: UserRow): AdminUser {
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    pendingRole: row.pending_role,
    emailVerified: row.email_verified,
    disabled: row.disabled,
    createdAt: iso(row.created_at as unknown as Date | string),
  };
}

// Cursors: base64url of JSON [time as text, id].
function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.key, position.id])).toString("base64url");
}

function decodeCursor(cursor: string, isId: (text: string) => boolean): Position {
  const bad = () => badRequest("The cursor is not valid.", { cursor: "The cursor is not valid." });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 2) throw bad();
  const [key, rowId] = value as unknown[];
  if (typeof key !== "string" || typeof rowId !== "string") throw bad();
  if (!isTimestampText(key) || !isId(rowId)) throw bad();
  return { key, id: rowId };
}

export async function listUserPage(services: Services, query: unknown): Promise<UserPage> {
  const q = parse(adminUserQuerySchema, query);
  const after = q.cursor ? decodeCursor(q.cursor, (text) => uuid.test(text)) : undefined;
  const rows = await listUsers(services.db, {
    search: q.search,
    pendingOnly: q.pending === "true",
    limit: q.limit + 1,
    after,
  });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(toAdminUser),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.position) : null,
  };
}

/** Changes a user's role and/or disabled flag; 409 when it would leave no active admin. */
export async function changeUser(
  services: Services,
  actor: Actor,
  uid: string,
  body: unknown,
): Promise<AdminUser> {
  if (!uuid.test(uid)) throw notFound(adminMessages.userNotFound);
  const patch = parse(adminUserPatchSchema, body);
  // A change that may take an admin away locks every active admin first, always in the same
  // order and before the target row, so two admins demoting each other wait for one another
  // (no deadlock) and the second sees the first one's result.
  const mayRemoveAdmin = (patch.role !== undefined && patch.role !== "admin") || patch.disabled;
  return services.db.transaction().execute(async (tx) => {
    const admins = mayRemoveAdmin ? await lockActiveAdmins(tx) : [];
    const before = await lockUser(tx, uid);
    if (!before) throw notFound(adminMessages.userNotFound);
    const role = patch.role ?? before.role;
    const disabled = patch.disabled ?? before.disabled;
    const wasActiveAdmin = before.role === "admin" && !before.disabled;
    const staysActiveAdmin = role === "admin" && !disabled;
    if (wasActiveAdmin && !staysActiveAdmin && !admins.some((id) => id !== uid)) {
      throw conflict(adminMessages.lastAdmin);
    }
    const changes: { role?: UserRow["role"]; pending_role?: null; disabled?: boolean } = {};
    if (patch.role !== undefined && (patch.role !== before.role || before.pending_role !== null)) {
      changes.role = patch.role;
      changes.pending_role = null;
    }
    if (patch.disabled !== undefined && patch.disabled !== before.disabled) {
      changes.disabled = patch.disabled;
    }
    if (Object.keys(changes).length === 0) return toAdminUser(before);
    const after = await updateUserAccess(tx, uid, changes);
    const who = { actorId: actor.user.id, actorEmail: actor.user.email, target: uid, ip: actor.ip };
    if (changes.role !== undefined) {
      const approved = before.pending_role === "teacher" && after.role === "teacher";
      await audit(tx, {
        ...who,
        action: approved ? "admin.teacher_approved" : "admin.role_changed",
        details: {
          email: after.email,
          from: before.role,
          to: after.role,
          ...(before.pending_role ? { pendingRole: before.pending_role } : {}),
        },
      });
    }
    if (changes.disabled === true) {
      const sessions = await revokeAllSessions(tx, uid);
      await audit(tx, {
        ...who,
        action: "admin.user_disabled",
        details: { email: after.email, sessionsEnded: sessions },
      });
    } else if (changes.disabled === false) {
      await audit(tx, { ...who, action: "admin.user_enabled", details: { email: after.email } });
    }
    return toAdminUser(after);
  });
}

/** Emails the user a password-reset link (the same link and rules as "Forgot password"). */
export async function sendPasswordReset(
  ctx: AuthContext,
  actor: Actor,
  uid: string,
): Promise<void> {
  const { services } = ctx;
  if (!uuid.test(uid)) throw notFound(adminMessages.userNotFound);
  const row = await findUser(services.db, uid);
  if (!row) throw notFound(adminMessages.userNotFound);
  if (row.disabled) throw conflict(adminMessages.resetDisabled);
  const send = await forgotPassword(ctx, { email: row.email });
  await send();
  await audit(services.db, {
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "admin.password_reset_sent",
    target: uid,
    details: { email: row.email },
    ip: actor.ip,
  });
}

// The audit log.
function startOf(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
}

function endOf(value: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(value);
  const day = new Date(`${value}T00:00:00Z`);
  return new Date(day.getTime() + 86_400_000);
}

function toAuditEntry(row: Awaited<ReturnType<typeof listAudit>>[number]): AuditEntryView {
  const details =
    typeof row.details === "string" ? (JSON.parse(row.details) as unknown) : row.details;
  return {
    id: row.id,
    at: iso(row.at),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    target: row.target,
    details:
      details && typeof details === "object" && !Array.isArray(details)
        ? (details as Record<string, unknown>)
        : {},
    ip: row.ip,
  };
}

export async function listAuditPage(services: Services, query: unknown): Promise<AuditPage> {
  const q = parse(auditQuerySchema, query);
  const from = q.from ? startOf(q.from) : undefined;
  const to = q.to ? endOf(q.to) : undefined;
  if (from && to && from.getTime() >= to.getTime()) {
    const message = "The end of the period must come after its start.";
    throw badRequest(message, { to: message });
  }
  const after = q.cursor ? decodeCursor(q.cursor, isBigintText) : undefined;
  const byId = q.actor !== undefined && uuid.test(q.actor);
  const rows = await listAudit(services.db, {
    action: q.action,
    actorId: byId ? q.actor : undefined,
    actorEmail: byId ? undefined : q.actor,
    from,
    to,
    limit: q.limit + 1,
    after,
  });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map(toAuditEntry),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.position) : null,
  };
}
