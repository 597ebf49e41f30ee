import { type Kysely, sql } from "kysely";

// Classes and the relationships a school has: a class has one or more
// teachers and enrolled students; a student joins with the class's join code or is enrolled by a
// roster import, which invites the emails that have no account yet. A report may name an enrolled
// student (student_id, class_id): it is then visible to that class's teachers and the student.
// Reports written about a free-text name keep both columns null (author and admins only).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table classes (
      id uuid primary key default gen_random_uuid(),
      name text not null check (char_length(name) between 1 and 100),
      subject text not null check (subject in ('mat', 'por')),
      year text not null check (char_length(year) between 1 and 20),
      join_code text unique check (join_code ~ '^[A-Z2-9]{8}$'),
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);

  // A class's teachers and its students: the same shape, a class, a person and since when, and
  // an index to find a person's classes.
  const members = [
    ["class_teachers", "teacher_id", "added_at", "class_teachers_teacher_idx"],
    ["enrolments", "student_id", "enrolled_at", "enrolments_student_idx"],
  ] as const;
  for (const [table, person, since, index] of members) {
    await sql`
      create table ${sql.id(table)} (
        class_id uuid not null references classes (id) on delete cascade,
        ${sql.id(person)} uuid not null references users (id) on delete cascade,
        ${sql.id(since)} timestamptz not null default now(),
        primary key (class_id, ${sql.id(person)})
      )`.execute(db);
    await sql`create index ${sql.id(index)} on ${sql.id(table)} (${sql.id(person)})`.execute(db);
  }

  await sql`
    create table class_invitations (
      class_id uuid not null references classes (id) on delete cascade,
      email text not null check (email = lower(email) and char_length(email) <= 254),
      name text not null check (char_length(name) between 1 and 100),
      invited_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (class_id, email)
    )`.execute(db);
  await sql`create index class_invitations_email_idx on class_invitations (email)`.execute(db);

  await sql`
    alter table student_reports
      add column student_id uuid references users (id) on delete set null,
      add column class_id uuid references classes (id) on delete set null`.execute(db);
  await sql`create index student_reports_student_idx on student_reports (student_id, created_at desc)`.execute(
    db,
  );
  await sql`create index student_reports_class_idx on student_reports (class_id, created_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists student_reports_class_idx`.execute(db);
  await sql`drop index if exists student_reports_student_idx`.execute(db);
  await sql`alter table student_reports drop column if exists class_id, drop column if exists student_id`.execute(
    db,
  );
  for (const table of ["class_invitations", "enrolments", "class_teachers", "classes"]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
