import { type Kysely, sql } from "kysely";

// Recovery codes are stored as argon2id hashes from this release on (issue 26, ASVS 6.5.2),
// each found by its id: its first two characters, which are not secret, so that checking a
// code costs one hash, not one per code. Codes stored before have no id and a SHA-256 hash: a
// migration cannot rehash what it cannot read, so they keep working (once each, as always)
// until the user enrols MFA again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mfa_recovery_codes add column code_id text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mfa_recovery_codes drop column if exists code_id`.execute(db);
}
