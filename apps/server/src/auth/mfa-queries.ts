import { type Kysely, sql } from "kysely";
import { countRows, stampOnce, updateRows } from "../db/rows.ts";
import type { DB, UserRow } from "../db/schema.ts";

// The SQL of MFA and re-authentication (migration 0008).
type Db = Kysely<DB>;

export async function setMfaPending(db: Db, userId: string, sealed: string): Promise<void> {
  await updateRows(
    db,
    "users",
    { mfa_pending_secret: sealed },
    { id: userId, mfa_enabled_at: null },
  );
}

/** Turns MFA on with the pending secret and stores the recovery codes; false if it was on. */
export async function enableMfa(
  db: Db,
  userId: string,
  input: {
    secret: string;
    step: number;
    now: Date;
    recoveryCodes: { codeId: string; codeHash: string }[];
  },
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable("users")
      .set({
        mfa_secret: input.secret,
        mfa_pending_secret: null,
        mfa_enabled_at: input.now,
        mfa_last_step: input.step,
      })
      .where("id", "=", userId)
      .where("mfa_enabled_at", "is", null)
      .where("mfa_pending_secret", "=", input.secret)
      .returning("id")
      .executeTakeFirst();
    if (!row) return false;
    await tx.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
    await tx
      .insertInto("mfa_recovery_codes")
      .values(
        input.recoveryCodes.map((c) => ({
          user_id: userId,
          code_id: c.codeId,
          code_hash: c.codeHash,
        })),
      )
      .execute();
    return true;
  });
}

/** Accepts a TOTP step once: a later step only (a code seen over a shoulder cannot be replayed). */
export async function useTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable("users")
    .set({ mfa_last_step: step })
    .where("id", "=", userId)
    .where("mfa_enabled_at", "is not", null)
    .where((eb) => eb.or([eb("mfa_last_step", "is", null), eb("mfa_last_step", "<", step)]))
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** The unused recovery codes a typed code may be: those of its id, and any stored without one. */
export function recoveryCodeCandidates(db: Db, userId: string, codeId: string) {
  return db
    .selectFrom("mfa_recovery_codes")
    .select(["id", "code_id", "code_hash"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where((eb) => eb.or([eb("code_id", "=", codeId), eb("code_id", "is", null)]))
    .execute();
}

/** Uses a recovery code up; false when it was used meanwhile. */
export async function useRecoveryCode(db: Db, id: string, now: Date): Promise<boolean> {
  return stampOnce(db, "mfa_recovery_codes", "used_at", now, { id });
}

export function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  return countRows(db, "mfa_recovery_codes", { user_id: userId, used_at: null });
}

/** Turns MFA off; the user row when it was on (or being enrolled). */
export async function disableMfa(db: Db, userId: string, now: Date): Promise<UserRow | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable("users")
      .set({
        mfa_secret: null,
        mfa_pending_secret: null,
        mfa_enabled_at: null,
        mfa_last_step: null,
        updated_at: now,
      } as never)
      .where("id", "=", userId)
      .where((eb) =>
        eb.or([eb("mfa_enabled_at", "is not", null), eb("mfa_pending_secret", "is not", null)]),
      )
      .returningAll()
      .executeTakeFirst();
    await tx.deleteFrom("mfa_recovery_codes").where("user_id", "=", userId).execute();
    return row;
  });
}

/** Marks a session re-authenticated now (every refresh token of it). */
export async function markReauthenticated(
  db: Db,
  userId: string,
  familyId: string,
  now: Date,
): Promise<void> {
  const match = { user_id: userId, family_id: familyId };
  await updateRows(db, "sessions", { reauthenticated_at: now }, match);
}

/** The latest sign-in or re-authentication of a live session, or undefined. */
export async function lastAuthenticatedAt(
  db: Db,
  userId: string,
  familyId: string,
): Promise<Date | undefined> {
  const row = await db
    .selectFrom("sessions")
    .select(
      sql<
        Date | string | null
      >`max(greatest(coalesce(signed_in_at, created_at), coalesce(reauthenticated_at, signed_in_at, created_at)))`.as(
        "at",
      ),
    )
    .where("user_id", "=", userId)
    .where("family_id", "=", familyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : undefined;
}
