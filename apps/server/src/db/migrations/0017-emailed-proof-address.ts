import { type Kysely, sql } from "kysely";

// A reset link or a verification code proves the address it was mailed to, and only that one
// (issue 26): each keeps the address it was sent to, and proves nothing once the account's
// address is another. Rows written before this release have none: such a reset link still sets
// a password but verifies no address, and such a code verifies nothing (the account asks for a
// new one).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table password_resets add column email text`.execute(db);
  await sql`alter table email_codes add column email text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table password_resets drop column if exists email`.execute(db);
  await sql`alter table email_codes drop column if exists email`.execute(db);
}
