import type { AuditAction } from "@gradecast/contract/admin";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// The audit log: who did what to which record. Details are JSON and never hold a secret
// (no password, token or code).
export interface AuditEntry {
  actorId: string | null;
  actorEmail: string | null;
  /** One of the contract's actions, each with the label the audit screen shows. */
  action: AuditAction;
  target: string | null;
  details?: Record<string, unknown>;
  ip: string | null;
}

/** Writes the entries, several in one statement. */
export async function audit(db: Kysely<DB>, entries: AuditEntry | AuditEntry[]): Promise<void> {
  const all = Array.isArray(entries) ? entries : [entries];
  if (all.length === 0) return;
  await db
    .insertInto("audit_log")
    .values(
      all.map((entry) => ({
        actor_id: entry.actorId,
        actor_email: entry.actorEmail,
        action: entry.action,
        target: entry.target,
        details: JSON.stringify(entry.details ?? {}),
        ip: entry.ip,
      })),
    )
    .execute();
}

/** An entry of what a user did on their own account: they are both the actor and the target. */
export function auditOwn(
  db: Kysely<DB>,
  user: { id: string; email: string },
  action: AuditAction,
  ip: string | null,
  details?: Record<string, unknown>,
): Promise<void> {
  return audit(db, {
    actorId: user.id,
    actorEmail: user.email,
    action,
    target: user.id,
    ...(details ? { details } : {}),
    ip,
  });
}

/** The part every entry of a signed-in action shares: who, from which address, on what. */
export function who(
  actor: { user: { id: string; email: string }; ip: string | null },
  target: string | null,
): Pick<AuditEntry, "actorId" | "actorEmail" | "target" | "ip"> {
  return { actorId: actor.user.id, actorEmail: actor.user.email, target, ip: actor.ip };
}
