import { type Kysely, sql } from "kysely";

// Issue 26: a roster line for an address that already has an account no longer enrols it; it
// is an invitation its owner accepts or declines in the app (needs_consent). An invitation to a
// new address keeps working as before: whoever registers and verifies it is in the class.
// Invitations already open for an address whose account existed before the invitation (an
// unverified account, enrolled on verification until now) need the owner's answer too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table class_invitations
      add column needs_consent boolean not null default false`.execute(db);
  await sql`
    update class_invitations i set needs_consent = true
    where exists (
      select 1 from users u where u.email = i.email and u.created_at <= i.created_at
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table class_invitations drop column if exists needs_consent`.execute(db);
}
