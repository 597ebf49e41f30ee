import { isId } from "@gradecast/contract/ids";
import { CompiledQuery, type Kysely } from "kysely";
import { prepared } from "./prepared.ts";
import type { DB, NewUser, UserRow } from "./schema.ts";

// The users table's repository: every feature that reads or writes an account by id or email
// goes through here (sign-in, the admin command, class and teacher invitations). Shared, so it
// knows no feature.
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
  "id" | "name" | "email" | "role" | "email_verified" | "disabled" | "locale"
> & { session_live: boolean; mfa_enabled: boolean };

// Read on every signed-in call: one fixed SQL text (no query building per call, prepared on
// PostgreSQL) by primary key, only the columns the access check uses. A session (the family of
// refresh tokens named by the ID token's sid) is live while one of its tokens is not revoked:
// logout, ending it from the list of sessions, and a password change or reset revoke them, and
// end the ID tokens issued with them.
const authUserSql = prepared(
  `select "id", "name", "email", "role", "email_verified", "disabled", "locale",
    ("mfa_enabled_at" is not null or exists (select 1 from "sessions" m
      where m."family_id" = $2 and m."user_id" = "users"."id" and m."provider_mfa"))
      as "mfa_enabled",
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
    locale?: UserRow["locale"];
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
