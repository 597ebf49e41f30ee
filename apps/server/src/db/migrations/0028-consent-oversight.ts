import { type Kysely, sql } from "kysely";

// Issue 31 part B. Under LEGAL_BASIS=consent a student under the age of digital consent answers
// only once a guardian has consented by email: the student's date of birth (asked at
// registration under consent only), and each consent request with its hashed links, the text
// version the guardian confirmed and when it was withdrawn. Which privacy notice a person saw at
// registration and at each questionnaire save. A student's "this prediction is wrong because",
// kept with the prediction for their class teachers.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column date_of_birth date`.execute(db);
  await sql`alter table users add column notice_version text`.execute(db);
  await sql`alter table students add column notice_version text`.execute(db);
  await sql`
    create table guardian_consents (
      id uuid primary key default gen_random_uuid(),
      student_id uuid not null references users (id) on delete cascade,
      guardian_email text not null,
      token_hash text not null unique,
      withdraw_token_hash text unique,
      text_version text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consented_at timestamptz,
      withdrawn_at timestamptz,
      withdrawn_by text check (withdrawn_by in ('guardian', 'admin'))
    )`.execute(db);
  await sql`
    create index guardian_consents_student_idx on guardian_consents (student_id, created_at desc)`.execute(
    db,
  );
  await sql`
    create table prediction_contests (
      id uuid primary key default gen_random_uuid(),
      prediction_id uuid not null references predictions (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      reason text not null,
      created_at timestamptz not null default now(),
      unique (prediction_id)
    )`.execute(db);
  await sql`create index prediction_contests_student_idx on prediction_contests (student_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists prediction_contests`.execute(db);
  await sql`drop table if exists guardian_consents`.execute(db);
  await sql`alter table students drop column if exists notice_version`.execute(db);
  await sql`alter table users drop column if exists notice_version`.execute(db);
  await sql`alter table users drop column if exists date_of_birth`.execute(db);
}
