import {
  type AdminUser,
  type AdminUserPatch,
  type AdminUserQuery,
  type AuditEntryView,
  type AuditPage,
  type AuditQuery,
  adminMessages,
  type UserPage,
} from "@gradecast/contract/admin";
import { isId } from "@gradecast/contract/ids";
import type { Transaction } from "kysely";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { type AuthContext, forgotPassword, toUser } from "../auth/service.ts";
import {
  decodeCursor,
  encodeCursor,
  isBigintText,
  isTimestampText,
  pageOf,
} from "../cursor-keys.ts";
import type { DB, UserRow } from "../db/schema.ts";
import { conflict, invalid, notFound } from "../domain-errors.ts";
import { localizedTeacherApprovedEmail, localizedTeacherRefusedEmail } from "../i18n/translate.ts";
import { appUrl, mailPerson } from "../mail/send.ts";
import type { Services } from "../services.ts";
import {
  countAccounts,
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

export type { Actor };

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

export function toAdminUser(row: UserRow): AdminUser {
  return { ...toUser(row), disabled: row.disabled };
}

// Cursors: [time as text, id].
const encodePosition = (position: Position) => encodeCursor([position.key, position.id]);

function decodePosition(cursor: string, isRowId: (text: string) => boolean): Position {
  const [key = "", id = ""] = decodeCursor(cursor, [isTimestampText, isRowId]);
  return { key, id };
}

export async function listUserPage(services: Services, q: AdminUserQuery): Promise<UserPage> {
  const after = q.cursor ? decodePosition(q.cursor, isId) : undefined;
  const [rows, counts] = await Promise.all([
    listUsers(services.db, {
      search: q.search,
      pendingOnly: q.pending === "true",
      reviewOnly: q.review === "true",
      limit: q.limit + 1,
      after,
    }),
    countAccounts(services.db),
  ]);
  return {
    ...pageOf(rows, q.limit, toAdminUser, (last) => encodePosition(last.position)),
    pendingCount: counts.pending,
    activeAdminCount: counts.activeAdmins,
  };
}

/** Changes a user's role and/or disabled flag; 409 when it would leave no active admin. */
export async function changeUser(
  services: Services,
  actor: Actor,
  uid: string,
  patch: AdminUserPatch,
): Promise<AdminUser> {
  // A change that may take an admin away locks every active admin first, always in the same
  // order and before the target row, so two admins demoting each other wait for one another
  // (no deadlock) and the second sees the first one's result.
  const mayRemoveAdmin = (patch.role !== undefined && patch.role !== "admin") || patch.disabled;
  // The teacher hears of an approval once it has committed (issue 28).
  let approvedTeacher: UserRow | null = null;
  const changed = await changeAccount(services, uid, async (tx) => {
    const admins = mayRemoveAdmin ? await lockActiveAdmins(tx) : [];
    const before = await lockExisting(tx, uid);
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
    const by = who(actor, uid);
    if (changes.role !== undefined) {
      const approved = before.pending_role === "teacher" && after.role === "teacher";
      if (approved) approvedTeacher = after;
      await audit(tx, {
        ...by,
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
        ...by,
        action: "admin.user_disabled",
        details: { email: after.email, sessionsEnded: sessions },
      });
    } else if (changes.disabled === false) {
      await audit(tx, { ...by, action: "admin.user_enabled", details: { email: after.email } });
    }
    return toAdminUser(after);
  });
  const approved = approvedTeacher as UserRow | null;
  if (approved) await mailAboutRequest(services, approved, localizedTeacherApprovedEmail);
  return changed;
}

/**
 * Rejects a pending teacher request (issue 17): the request is cleared and the account stays a
 * student, in one transaction with its own audit entry. 409 when no request waits (already
 * approved or rejected, perhaps by another admin a moment ago).
 */
export async function rejectTeacherRequest(
  services: Services,
  actor: Actor,
  uid: string,
): Promise<AdminUser> {
  let refused: UserRow | null = null;
  const changed = await changeAccount(services, uid, async (tx) => {
    const before = await lockExisting(tx, uid);
    if (before.pending_role !== "teacher") throw conflict(adminMessages.noTeacherRequest);
    const after = await updateUserAccess(tx, uid, { pending_role: null });
    await audit(tx, {
      ...who(actor, uid),
      action: "admin.teacher_rejected",
      details: { email: after.email, role: after.role, pendingRole: before.pending_role },
    });
    refused = after;
    return toAdminUser(after);
  });
  // The person hears of the refusal once it has committed (issue 28).
  const person = refused as UserRow | null;
  if (person) await mailAboutRequest(services, person, localizedTeacherRefusedEmail);
  return changed;
}

/** Tells the person what became of their teacher request, in their language. */
async function mailAboutRequest(
  services: Services,
  person: UserRow,
  email: typeof localizedTeacherApprovedEmail,
): Promise<void> {
  await mailPerson(services, person, email, { appUrl: appUrl(services) });
}

/**
 * Runs a change of one account in a transaction: 404 for an id that cannot name a user, and the
 * access checks' cached users dropped once it has committed.
 */
async function changeAccount(
  services: Services,
  uid: string,
  change: (tx: Transaction<DB>) => Promise<AdminUser>,
): Promise<AdminUser> {
  if (!isId(uid)) throw notFound(adminMessages.userNotFound);
  const changed = await services.db.transaction().execute(change);
  services.database.usersChanged();
  return changed;
}

/** Locks the user's row to the end of the transaction; 404 when there is no such user. */
async function lockExisting(tx: Transaction<DB>, uid: string): Promise<UserRow> {
  const row = await lockUser(tx, uid);
  if (!row) throw notFound(adminMessages.userNotFound);
  return row;
}

/** Emails the user a password-reset link (the same link and rules as "Forgot password"). */
export async function sendPasswordReset(
  ctx: AuthContext,
  actor: Actor,
  uid: string,
): Promise<void> {
  const { services } = ctx;
  if (!isId(uid)) throw notFound(adminMessages.userNotFound);
  const row = await findUser(services.db, uid);
  if (!row) throw notFound(adminMessages.userNotFound);
  if (row.disabled) throw conflict(adminMessages.resetDisabled);
  const send = await forgotPassword(ctx, { email: row.email });
  await send();
  await audit(services.db, {
    ...who(actor, uid),
    action: "admin.password_reset_sent",
    details: { email: row.email },
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

type Person = { name: string; email: string };

/** The ids an entry's details hold under keys ending in "Id" (a student's, a class's, ...). */
function detailIds(details: Record<string, unknown>): string[] {
  return Object.entries(details)
    .filter(([key, value]) => key.endsWith("Id") && typeof value === "string" && isId(value))
    .map(([, value]) => value as string);
}

function detailsOf(row: { details: unknown }): Record<string, unknown> {
  const details =
    typeof row.details === "string" ? (JSON.parse(row.details) as unknown) : row.details;
  return details && typeof details === "object" && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : {};
}

function toAuditEntry(
  row: Awaited<ReturnType<typeof listAudit>>[number],
  people: Map<string, Person>,
  classNames: Map<string, string>,
): AuditEntryView {
  const target = row.target ? people.get(row.target) : undefined;
  const details = detailsOf(row);
  const names: Record<string, string> = {};
  for (const id of detailIds(details)) {
    const name = people.get(id)?.name ?? classNames.get(id);
    if (name) names[id] = name;
  }
  return {
    id: row.id,
    at: iso(row.at),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    actorName: (row.actorId && people.get(row.actorId)?.name) || null,
    action: row.action,
    target: row.target,
    targetName: target?.name ?? null,
    targetEmail: target?.email ?? null,
    names,
    details,
    ip: row.ip,
  };
}

export async function listAuditPage(services: Services, q: AuditQuery): Promise<AuditPage> {
  const from = q.from ? startOf(q.from) : undefined;
  const to = q.to ? endOf(q.to) : undefined;
  if (from && to && from.getTime() >= to.getTime()) {
    const message = "The end of the period must come after its start.";
    throw invalid(message, { to: message });
  }
  const after = q.cursor ? decodePosition(q.cursor, isBigintText) : undefined;
  const byId = q.actor !== undefined && isId(q.actor);
  const rows = await listAudit(services.db, {
    action: q.action,
    actorId: byId ? q.actor : undefined,
    actorEmail: byId ? undefined : q.actor,
    from,
    to,
    limit: q.limit + 1,
    after,
  });
  // The people named (actors, and targets that are accounts), read in one query.
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.actorId) ids.add(row.actorId);
    if (row.target && isId(row.target)) ids.add(row.target);
    for (const id of detailIds(detailsOf(row))) ids.add(id);
  }
  const people = new Map<string, Person>();
  const classNames = new Map<string, string>();
  if (ids.size > 0) {
    const [found, classes] = await Promise.all([
      services.db
        .selectFrom("users")
        .select(["id", "name", "email"])
        .where("id", "in", [...ids])
        .execute(),
      services.db
        .selectFrom("classes")
        .select(["id", "name"])
        .where("id", "in", [...ids])
        .execute(),
    ]);
    for (const p of found) people.set(p.id, { name: p.name, email: p.email });
    for (const c of classes) classNames.set(c.id, c.name);
  }
  return pageOf(
    rows,
    q.limit,
    (row) => toAuditEntry(row, people, classNames),
    (last) => encodePosition(last.position),
  );
}
