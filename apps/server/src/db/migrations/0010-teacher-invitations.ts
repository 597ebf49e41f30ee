import { type Kysely, sql } from "kysely";

// Teacher invitations (TEACHER_SIGNUP=closed, issue 17): an admin invites an email address; the
// person registers with it and becomes a teacher once the address is verified. One open
// invitation per address; it is removed when used.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table teacher_invitations (
      email text primary key check (email = lower(email) and char_length(email) <= 254),
      name text not null check (char_length(name) between 1 and 100),
      invited_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists teacher_invitations`.execute(db);
}
