import type { Kysely } from "kysely";
import { audit } from "../audit/audit.ts";
import type { DB } from "./schema.ts";

// Account deletions waiting for their grace period (migration 0027, issue 31). Signing in during
// it cancels the deletion: auth's sign-in calls `cancelDeletionOnSignIn`, and the session it
// answers says so (`deletionCancelled`).

/** Cancels the account's pending deletion, if any; true when there was one (audited). */
export async function cancelDeletionOnSignIn(
  db: Kysely<DB>,
  user: { id: string; email: string },
  ip: string | null,
): Promise<boolean> {
  const removed = await db
    .deleteFrom("account_deletions")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return false;
  await audit(db, {
    actorId: user.id,
    actorEmail: user.email,
    action: "privacy.deletion_cancelled",
    target: user.id,
    details: { by: "sign-in" },
    ip,
  });
  return true;
}
