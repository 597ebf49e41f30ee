import { type Kysely, sql } from "kysely";

// The first schema. CHECK constraints repeat the contract's ranges of answers and scores so that no
// path around the API stores an out-of-range value. Written literally, not generated from the
// contract: a migration must keep meaning what it meant when it ran.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      name text not null check (char_length(name) between 1 and 100),
      email text not null check (email = lower(email) and char_length(email) <= 254),
      password_hash text not null,
      role text not null default 'student' check (role in ('student', 'teacher', 'admin')),
      pending_role text check (pending_role in ('teacher')),
      email_verified boolean not null default false,
      disabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index users_email_key on users (email)`.execute(db);
  await sql`create index users_search_idx on users using gin (lower(name || ' ' || email) gin_trgm_ops)`.execute(
    db,
  );

  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      family_id uuid not null,
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index sessions_family_idx on sessions (family_id)`.execute(db);
  await sql`create index sessions_user_idx on sessions (user_id)`.execute(db);

  await sql`
    create table email_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      code_hash text not null,
      attempts integer not null default 0 check (attempts >= 0),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
  await sql`create index email_codes_user_idx on email_codes (user_id, created_at desc)`.execute(
    db,
  );

  await sql`
    create table password_resets (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);

  await sql`
    create table student_reports (
      id uuid primary key default gen_random_uuid(),
      author_id uuid not null references users (id),
      student_name text not null check (char_length(student_name) between 1 and 100),
      course text not null check (char_length(course) between 1 and 100),
      marks integer not null check (marks between 0 and 100),
      attendance integer not null check (attendance between 0 and 100),
      assignments integer not null check (assignments between 0 and 6),
      behavior text not null
        check (behavior in ('Excellent', 'Good', 'Average', 'Needs Improvement', 'Poor')),
      feedback text not null check (char_length(feedback) between 1 and 2000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index student_reports_name_trgm on student_reports using gin (lower(student_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index student_reports_created_idx on student_reports (created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index student_reports_name_idx on student_reports (lower(student_name), id)`.execute(
    db,
  );
  await sql`create index student_reports_marks_idx on student_reports (marks desc, id desc)`.execute(
    db,
  );
  await sql`create index student_reports_author_idx on student_reports (author_id)`.execute(db);

  const yesNo = (c: string) => sql.raw(`${c} text not null check (${c} in ('yes', 'no'))`);
  const between = (c: string, lo: number, hi: number) =>
    sql.raw(`${c} integer not null check (${c} between ${lo} and ${hi})`);
  const job = (c: string) =>
    sql.raw(
      `${c} text not null check (${c} in ('teacher', 'health', 'services', 'at_home', 'other'))`,
    );
  await sql`
    create table students (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      school text not null check (school in ('GP', 'MS')),
      sex text not null check (sex in ('M', 'F')),
      ${between("age", 10, 25)},
      address text not null check (address in ('U', 'R')),
      famsize text not null check (famsize in ('LE3', 'GT3')),
      pstatus text not null check (pstatus in ('T', 'A')),
      ${between("medu", 0, 4)},
      ${between("fedu", 0, 4)},
      ${job("mjob")},
      ${job("fjob")},
      reason text not null check (reason in ('home', 'reputation', 'course', 'other')),
      guardian text not null check (guardian in ('mother', 'father', 'other')),
      ${between("traveltime", 1, 4)},
      ${between("studytime", 1, 4)},
      ${between("failures", 0, 4)},
      ${yesNo("schoolsup")}, ${yesNo("famsup")}, ${yesNo("paid")}, ${yesNo("activities")},
      ${yesNo("nursery")}, ${yesNo("higher")}, ${yesNo("internet")}, ${yesNo("romantic")},
      ${between("famrel", 1, 5)},
      ${between("freetime", 1, 5)},
      ${between("goout", 1, 5)},
      ${between("health", 1, 5)},
      ${between("absences", 0, 100)},
      ${between("g1", 0, 20)},
      ${between("g2", 0, 20)},
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index students_user_idx on students (user_id, created_at desc)`.execute(db);

  await sql`
    create table predictions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      inputs jsonb not null,
      score double precision not null check (score between 0 and 20),
      raw_score double precision not null,
      interval_low double precision not null check (interval_low between 0 and 20),
      interval_high double precision not null check (interval_high between 0 and 20),
      extrapolation boolean not null,
      model_version text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index predictions_user_idx on predictions (user_id, created_at desc)`.execute(
    db,
  );

  await sql`
    create table audit_log (
      id bigserial primary key,
      at timestamptz not null default now(),
      actor_id uuid,
      actor_email text,
      action text not null,
      target text,
      details jsonb not null default '{}',
      ip text
    )`.execute(db);
  await sql`create index audit_log_at_idx on audit_log (at desc, id desc)`.execute(db);
  await sql`create index audit_log_action_idx on audit_log (action, at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "audit_log",
    "predictions",
    "students",
    "student_reports",
    "password_resets",
    "email_codes",
    "sessions",
    "users",
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
