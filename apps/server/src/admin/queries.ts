import { type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { DB, UserRow } from "../db/schema.ts";

// Every SQL statement of user management and the audit log. Lists are keyset-paged on
// (created_at | at, id), newest first, each backed by an index of migration 0001.
type Db = Kysely<DB>;

/** Where a page ends: the time of its last row (exact, as text) and its id. */
export interface Position {
  key: string;
  id: string;
}

/** `%`, `_` and `\` of a search are matched literally (escape character `\`). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listUsers(
  db: Db,
  options: {
    search: string;
    pendingOnly: boolean;
    /** Self-registered teachers no admin has decided on (the audit log says both). */
    reviewOnly?: boolean;
    limit: number;
    after?: Position | undefined;
  },
): Promise<(UserRow & { position: Position })[]> {
  const { search, pendingOnly, reviewOnly = false, limit, after } = options;
  const rows = await db
    .selectFrom("users")
    .selectAll()
    .select(sql<string>`created_at::text`.as("sortKey"))
    // The expression of the trigram index users_search_idx, so a search uses it.
    .$if(search !== "", (q) =>
      q.where(
        sql<SqlBool>`fold_for_search(name || ' ' || email) like '%' || fold_for_search(${likeEscape(search)}) || '%' escape '\\'`,
      ),
    )
    .$if(pendingOnly, (q) => q.where("pending_role", "is not", null))
    .$if(reviewOnly, (q) =>
      q.where(
        sql<SqlBool>`role = 'teacher' and exists (select 1 from audit_log a
          where a.action = 'auth.register' and a.target = users.id::text
            and a.details->>'role' = 'teacher')
          and not exists (select 1 from audit_log a
          where a.action in ('admin.teacher_approved', 'admin.role_changed')
            and a.target = users.id::text)`,
      ),
    )
    .$if(after !== undefined, (q) =>
      q.where(sql<SqlBool>`(created_at, id) < (${after!.key}::timestamptz, ${after!.id}::uuid)`),
    )
    .orderBy(sql`created_at desc, id desc`)
    .limit(limit)
    .execute();
  return rows.map(({ sortKey, ...row }) => ({ ...row, position: { key: sortKey, id: row.id } }));
}

/** Teacher sign-ups waiting for an admin, and active admins, in one scan. */
export async function countAccounts(db: Db): Promise<{ pending: number; activeAdmins: number }> {
  const row = await db
    .selectFrom("users")
    .select([
      sql<string>`count(*) filter (where pending_role is not null)`.as("pending"),
      sql<string>`count(*) filter (where role = 'admin' and not disabled)`.as("admins"),
    ])
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), activeAdmins: Number(row?.admins ?? 0) };
}

export function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The user's row, locked until the transaction ends. */
export function lockUser(tx: Transaction<DB>, id: string): Promise<UserRow | undefined> {
  return tx.selectFrom("users").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/**
 * Locks every active admin (in id order, so two transactions never lock them crosswise) and
 * returns their ids. A transaction that waited re-reads each row, so an admin demoted or
 * disabled meanwhile is no longer counted.
 */
export async function lockActiveAdmins(tx: Transaction<DB>): Promise<string[]> {
  const rows = await tx
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .where("disabled", "=", false)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

export async function updateUserAccess(
  tx: Transaction<DB>,
  id: string,
  changes: { role?: UserRow["role"]; pending_role?: null; disabled?: boolean },
): Promise<UserRow> {
  return tx
    .updateTable("users")
    .set({ ...changes, updated_at: sql`now()` } as typeof changes)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ends every session (refresh-token family) of a user at once. */
export async function revokeAllSessions(tx: Transaction<DB>, userId: string): Promise<number> {
  const result = await tx
    .updateTable("sessions")
    .set({ revoked_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// The audit log.
export interface AuditRow {
  id: string;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  details: unknown;
  ip: string | null;
  position: Position;
}

export async function listAudit(
  db: Db,
  options: {
    action?: string | undefined;
    actorId?: string | undefined;
    actorEmail?: string | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    limit: number;
    after?: Position | undefined;
  },
): Promise<AuditRow[]> {
  const { action, actorId, actorEmail, from, to, limit, after } = options;
  const rows = await db
    .selectFrom("audit_log")
    .select([
      sql<string>`id::text`.as("id"),
      sql<Date>`at`.as("at"),
      "actor_id",
      "actor_email",
      "action",
      "target",
      "details",
      "ip",
      sql<string>`at::text`.as("sortKey"),
    ])
    .$if(action !== undefined, (q) => q.where("action", "=", action!))
    .$if(actorId !== undefined, (q) => q.where("actor_id", "=", actorId!))
    .$if(actorEmail !== undefined, (q) =>
      q.where(
        sql<SqlBool>`lower(actor_email) like '%' || lower(${likeEscape(actorEmail!)}) || '%' escape '\\'`,
      ),
    )
    .$if(from !== undefined, (q) => q.where(sql<SqlBool>`at >= ${from!}`))
    .$if(to !== undefined, (q) => q.where(sql<SqlBool>`at < ${to!}`))
    .$if(after !== undefined, (q) =>
      q.where(sql<SqlBool>`(at, id) < (${after!.key}::timestamptz, ${after!.id}::bigint)`),
    )
    .orderBy(sql`at desc, id desc`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    action: r.action,
    target: r.target,
    details: r.details,
    ip: r.ip,
    position: { key: r.sortKey, id: r.id },
  }));
}
