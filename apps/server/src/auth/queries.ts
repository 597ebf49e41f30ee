import { isId } from "@gradecast/contract/ids";
import { CompiledQuery, type Kysely } from "kysely";
import { prepared } from "../db/prepared.ts";
import { stampOnce } from "../db/rows.ts";
import type { DB, NewUser, UserRow } from "../db/schema.ts";

export * from "./mfa-queries.ts";

// Every SQL statement of accounts: users, refresh-token sessions, email codes, password resets.
type Db = Kysely<DB>;

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!isId(id)) return Promise.resolve(undefined);
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** What the access check needs of the signed-in user, and whether the token's session is live. */
export type AuthUserRow = Pick<
  UserRow,
  "id" | "name" | "email" | "role" | "email_verified" | "disabled"
> & { session_live: boolean; mfa_enabled: boolean };

// Read on every signed-in call: one fixed SQL text (no query building per call, prepared on
// PostgreSQL) by primary key, only the columns the access check uses. A session (the family of
// refresh tokens named by the ID token's sid) is live while one of its tokens is not revoked:
// logout, ending it from the list of sessions, and a password change or reset revoke them, and
// end the ID tokens issued with them.
const authUserSql = prepared(
  `select "id", "name", "email", "role", "email_verified", "disabled",
    "mfa_enabled_at" is not null as "mfa_enabled",
    exists (select 1 from "sessions" s where s."family_id" = $2 and s."user_id" = "users"."id"
      and s."revoked_at" is null) as "session_live"
  from "users" where "id" = $1`,
);

export async function findAuthUser(
  db: Db,
  id: string,
  sessionId: string,
): Promise<AuthUserRow | undefined> {
  if (!isId(id) || !isId(sessionId)) return undefined;
  const result = await db.executeQuery<AuthUserRow>(
    CompiledQuery.raw(authUserSql, [id, sessionId]),
  );
  return result.rows[0];
}

/** The new user, or undefined when the email is taken (unique index, whatever the case). */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow | undefined> {
  return db
    .insertInto("users")
    .values(user)
    .onConflict((oc) => oc.column("email").doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateUser(
  db: Db,
  id: string,
  changes: {
    name?: string;
    email?: string;
    password_hash?: string;
    email_verified?: boolean;
    role?: UserRow["role"];
    pending_role?: UserRow["pending_role"];
  },
  now: Date,
): Promise<UserRow | undefined> {
  return (
    db
      .updateTable("users")
      // schema.ts types updated_at as Generated<ColumnType>, which Kysely will not accept a Date for.
      .set({ ...changes, updated_at: now } as typeof changes)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst()
  );
}

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

/** Marks the account's address verified if it is still `email`; the account, or undefined. */
export function verifyAddress(
  db: Db,
  id: string,
  email: string,
  now: Date,
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({ email_verified: true, updated_at: now } as { email_verified: boolean })
    .where("id", "=", id)
    .where("email", "=", email)
    .returningAll()
    .executeTakeFirst();
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

/**
 * A reset's new password, only while the account's address is still the one the link was
 * mailed to (checked on the row as it is written, so an email change cannot slip in between),
 * and that address is then verified. A link stored before migration 0017 (no address) sets the
 * password and verifies nothing. Undefined when the address is another now.
 */
export async function setResetPassword(
  db: Db,
  id: string,
  passwordHash: string,
  linkEmail: string | null,
  now: Date,
): Promise<UserRow | undefined> {
  let query = db
    .updateTable("users")
    .set({
      password_hash: passwordHash,
      ...(linkEmail === null ? {} : { email_verified: true }),
      updated_at: now,
    } as { password_hash: string })
    .where("id", "=", id);
  if (linkEmail !== null) query = query.where("email", "=", linkEmail);
  return query.returningAll().executeTakeFirst();
}
