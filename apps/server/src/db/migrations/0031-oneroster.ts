import { type Kysely, sql } from "kysely";

// Issue 34: rosters from the school's system (OneRoster 1.2 CSV). What the last imports said,
// keyed by the school system's sourcedId, so that importing the same bundle again changes
// nothing, a bulk import knows which enrolments it ends, and a delta import may name a class or
// a user an earlier bundle brought.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A class that came from OneRoster; deleting the class forgets the link.
  await sql`
    create table oneroster_classes (
      sourced_id text primary key check (char_length(sourced_id) between 1 and 256),
      class_id uuid not null unique references classes (id) on delete cascade,
      created_at timestamptz not null default now()
    )`.execute(db);
  // A person as the school's system names them: the address an account is found (or invited) by.
  await sql`
    create table oneroster_users (
      sourced_id text primary key check (char_length(sourced_id) between 1 and 256),
      email text not null check (email = lower(email) and char_length(email) <= 254),
      name text not null check (char_length(name) between 1 and 100),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index oneroster_users_email_idx on oneroster_users (email)`.execute(db);
  // The enrolments the roster holds now (teachers and students of imported classes).
  await sql`
    create table oneroster_enrolments (
      sourced_id text primary key check (char_length(sourced_id) between 1 and 256),
      class_sourced_id text not null references oneroster_classes (sourced_id) on delete cascade,
      user_sourced_id text not null references oneroster_users (sourced_id) on delete cascade,
      role text not null check (role in ('student', 'teacher'))
    )`.execute(db);
  await sql`create index oneroster_enrolments_user_idx on oneroster_enrolments (user_sourced_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["oneroster_enrolments", "oneroster_users", "oneroster_classes"]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
