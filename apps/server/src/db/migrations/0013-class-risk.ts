import { type Kysely, sql } from "kysely";

// The class risk list (issue 20). Intervention notes: what a class's teacher did for a student
// on the list, when, and when to look again; kept per class and student, removed with either.
// Explanation sharing: whether the student shares their full explanation with their teachers
// (no row, or shared false: teachers see only the school-record reasons).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table intervention_notes (
      id uuid primary key default gen_random_uuid(),
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      author_id uuid references users (id) on delete set null,
      author_name text not null check (char_length(author_name) between 1 and 100),
      action text not null check (char_length(action) between 1 and 1000),
      done_on date not null,
      follow_up_on date check (follow_up_on is null or follow_up_on >= done_on),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create index intervention_notes_class_idx
      on intervention_notes (class_id, student_id, created_at desc)`.execute(db);
  await sql`
    create table explanation_shares (
      student_id uuid primary key references users (id) on delete cascade,
      shared boolean not null,
      changed_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists explanation_shares`.execute(db);
  await sql`drop table if exists intervention_notes`.execute(db);
}
