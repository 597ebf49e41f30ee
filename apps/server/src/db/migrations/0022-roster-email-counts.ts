import { type Kysely, sql } from "kysely";

// Issue 26: invitation emails a person's roster imports sent, per UTC day, against the daily
// cap (INVITATION_EMAILS_PER_DAY). Kept in the database so that a restart does not reset it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table roster_email_counts (
      sender_id uuid not null references users (id) on delete cascade,
      day date not null,
      sent integer not null check (sent >= 0),
      primary key (sender_id, day)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists roster_email_counts`.execute(db);
}
