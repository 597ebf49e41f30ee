import { type Kysely, sql } from "kysely";

// Issue 26: sharing the full explanation applies to the teachers it was shared with, not to
// whoever teaches the student later (a class the student is put in, a co-teacher added). One row
// per student and teacher; explanation_shares keeps the student's choice and when it changed.
// A choice made before this migration covers the teachers the student could have meant then:
// those of the classes the student was in when they turned sharing on, who taught them then.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table explanation_share_teachers (
      student_id uuid not null references users (id) on delete cascade,
      teacher_id uuid not null references users (id) on delete cascade,
      shared_at timestamptz not null default now(),
      primary key (student_id, teacher_id)
    )`.execute(db);
  await sql`
    create index explanation_share_teachers_teacher_idx
      on explanation_share_teachers (teacher_id)`.execute(db);
  await sql`
    insert into explanation_share_teachers (student_id, teacher_id, shared_at)
    select distinct s.student_id, t.teacher_id, s.changed_at
    from explanation_shares s
    join enrolments e on e.student_id = s.student_id and e.enrolled_at <= s.changed_at
    join class_teachers t on t.class_id = e.class_id and t.added_at <= s.changed_at
    where s.shared
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists explanation_share_teachers`.execute(db);
}
