import { type Kysely, sql } from "kysely";

// TOTP MFA (auth/mfa.ts) and re-authentication (auth/reauth.ts).
// - users: the TOTP secret, encrypted with the data directory's MFA key (never stored plain),
//   the one being enrolled until its first code confirms it, when MFA was turned on, and the
//   last 30-second step a code was accepted for (a code works once). On users so that the
//   access check reads "enrolled" with the row it already reads, and its cache hears of changes.
// - mfa_recovery_codes: ten single-use codes per user, stored as SHA-256 (they are random).
// - sessions.reauthenticated_at: the last time the password (and code) was asked again in this
//   session; with signed_in_at it opens ten minutes of sensitive changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column mfa_secret text,
      add column mfa_pending_secret text,
      add column mfa_enabled_at timestamptz,
      add column mfa_last_step bigint`.execute(db);
  await sql`
    create table mfa_recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      code_hash text not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index mfa_recovery_codes_user_idx on mfa_recovery_codes (user_id)`.execute(db);
  await sql`alter table sessions add column reauthenticated_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column if exists reauthenticated_at`.execute(db);
  await sql`drop table if exists mfa_recovery_codes`.execute(db);
  await sql`
    alter table users
      drop column if exists mfa_last_step,
      drop column if exists mfa_enabled_at,
      drop column if exists mfa_pending_secret,
      drop column if exists mfa_secret`.execute(db);
}
