import type { Kysely } from "kysely";
import { stampOnce } from "../db/rows.ts";
import type { DB } from "../db/schema.ts";

export * from "./mfa-queries.ts";

// Every SQL statement of sign-in: refresh-token sessions, email codes, password resets. The
// users table has its own repository (db/users.ts).
type Db = Kysely<DB>;

// Sessions: one row per refresh token; a sign-in starts a family, each refresh adds a row.
export async function insertSession(
  db: Db,
  row: {
    familyId: string;
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    createdAt: Date;
    signedInAt: Date;
    ip: string | null;
    userAgent: string | null;
    signInMethod: string;
    providerMfa: boolean;
  },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      family_id: row.familyId,
      user_id: row.userId,
      token_hash: row.tokenHash,
      // schema.ts types created_at as Generated<ColumnType>, which Kysely will not take a Date for.
      created_at: row.createdAt as never,
      expires_at: row.expiresAt,
      signed_in_at: row.signedInAt,
      ip: row.ip,
      user_agent: row.userAgent,
      sign_in_method: row.signInMethod,
      provider_mfa: row.providerMfa,
    })
    .execute();
}

/** A user's live sessions: the newest refresh token of each family not ended or expired. */
export async function listLiveSessions(db: Db, userId: string, now: Date) {
  const rows = await db
    .selectFrom("sessions")
    .select([
      "family_id",
      "signed_in_at",
      "created_at",
      "expires_at",
      "used_at",
      "ip",
      "user_agent",
      "sign_in_method",
    ])
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .orderBy("family_id")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!newest.has(row.family_id)) newest.set(row.family_id, row);
  return [...newest.values()].filter(
    (row) => row.used_at === null && new Date(row.expires_at).getTime() > now.getTime(),
  );
}

/** Ends one session of a user; false when the user has no such live session. */
export async function revokeUserFamily(
  db: Db,
  userId: string,
  familyId: string,
  now: Date,
): Promise<boolean> {
  return stampOnce(db, "sessions", "revoked_at", now, { user_id: userId, family_id: familyId });
}

export function findSession(db: Db, tokenHash: string) {
  return db
    .selectFrom("sessions")
    .selectAll()
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
}

/** Marks a refresh token used; false when another request used it first. */
export async function markSessionUsed(db: Db, id: string, now: Date): Promise<boolean> {
  return stampOnce(db, "sessions", "used_at", now, { id, revoked_at: null });
}

export async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await stampOnce(db, "sessions", "revoked_at", now, { family_id: familyId });
}

/** Revokes every session of a user, except one family when given. */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  now: Date,
  exceptFamily?: string,
): Promise<void> {
  let query = db
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (exceptFamily) query = query.where("family_id", "!=", exceptFamily);
  await query.execute();
}

// Email verification codes.
export async function replaceEmailCode(
  db: Db,
  row: { userId: string; email: string; codeHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await stampOnce(tx, "email_codes", "consumed_at", row.createdAt, { user_id: row.userId });
    await tx
      .insertInto("email_codes")
      .values({
        user_id: row.userId,
        email: row.email,
        code_hash: row.codeHash,
        expires_at: row.expiresAt,
      })
      .execute();
  });
}

/**
 * Counts one try against the user's live code and returns it, or undefined when there is no
 * live code (none, consumed, expired, or already tried 5 times).
 */
export async function tryEmailCode(db: Db, userId: string, now: Date, maxTries: number) {
  return (
    db
      .updateTable("email_codes")
      .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
      .where("id", "=", (eb) =>
        eb
          .selectFrom("email_codes")
          .select("id")
          .where("user_id", "=", userId)
          .where("consumed_at", "is", null)
          .where("expires_at", ">", now)
          .where("attempts", "<", maxTries)
          .orderBy("created_at", "desc")
          .limit(1),
      )
      // Checked again on the row as locked: concurrent tries each wait for the one before, and
      // PostgreSQL re-evaluates this condition (not the subquery) on the row it then sees, so
      // ten parallel wrong codes cannot all count as one of the five.
      .where("attempts", "<", maxTries)
      .returning(["id", "code_hash", "email"])
      .executeTakeFirst()
  );
}

export async function consumeEmailCode(db: Db, id: string, now: Date): Promise<boolean> {
  return stampOnce(db, "email_codes", "consumed_at", now, { id });
}

// Password resets.
export async function insertPasswordReset(
  db: Db,
  row: { userId: string; email: string; tokenHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db
    .insertInto("password_resets")
    .values({
      user_id: row.userId,
      email: row.email,
      token_hash: row.tokenHash,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Uses a live reset token once; returns its user id, or undefined. */
/** Whether a reset link is live, without using it. */
export async function isLivePasswordReset(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom("password_resets")
    .select("user_id")
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function usePasswordReset(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable("password_resets")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["user_id", "email"])
    .executeTakeFirst();
}

/** Ends every unused reset link of a user: after a new password, an older link must not work. */
export async function endPasswordResets(db: Db, userId: string, now: Date): Promise<void> {
  await stampOnce(db, "password_resets", "used_at", now, { user_id: userId });
}

/**
 * Ends every emailed proof of a user (reset links and verification codes): after an email
 * change, nothing mailed to the old address may prove anything.
 */
export async function endEmailedProofs(db: Db, userId: string, now: Date): Promise<void> {
  await endPasswordResets(db, userId, now);
  await stampOnce(db, "email_codes", "consumed_at", now, { user_id: userId });
}
