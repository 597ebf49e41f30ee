import { type Kysely, sql } from "kysely";

// Issue 32: early warning that reaches the teacher.
// - `alert_states`: per class and student, whether the risk list's flag is up, with the
//   hysteresis rule's memory (`pending`: the previous prediction crossed the line by less than
//   the margin; the next one confirms it) and the record version the last prediction was made at.
// - `notifications`: the in-app list of one person (risk crossings for a class's teachers; a
//   report written about a student, a record change of their prediction for the student). The
//   payload holds only what the risk list shows a teacher (school-record reasons).
// - `notification_settings`: the digest preference (off, daily, weekly: no row is weekly) and
//   the per-person key that signs the unsubscribe link (a new key voids every old link).
// - `digests`: one row per person and period once its digest was written to the outbox (in the
//   same transaction): the primary key makes a second digest of a period impossible.
// - `mail_outbox`: mail to send, sent by a job and marked sent once the SMTP server accepted it.
// - `flag_feedback`: a teacher's judgement of one flag (one prediction of one student).
// - `intervention_plans`: a plan per student in a class, with an owner among its teachers.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table alert_states (
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      at_risk boolean not null default false,
      pending boolean not null default false,
      prediction_id uuid,
      record_version integer,
      changed_at timestamptz not null default now(),
      primary key (class_id, student_id)
    )`.execute(db);

  await sql`
    create table notifications (
      id uuid primary key default gen_random_uuid(),
      recipient_id uuid not null references users (id) on delete cascade,
      kind text not null
        check (kind in ('risk_up', 'risk_down', 'report_written', 'record_changed')),
      student_id uuid references users (id) on delete cascade,
      class_id uuid references classes (id) on delete cascade,
      payload jsonb not null default '{}',
      created_at timestamptz not null default now(),
      read_at timestamptz
    )`.execute(db);
  await sql`
    create index notifications_recipient_idx
      on notifications (recipient_id, created_at desc)`.execute(db);
  await sql`create index notifications_student_idx on notifications (student_id)`.execute(db);

  await sql`
    create table notification_settings (
      user_id uuid primary key references users (id) on delete cascade,
      digest text not null default 'weekly' check (digest in ('off', 'daily', 'weekly')),
      unsubscribe_key text not null,
      changed_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table digests (
      user_id uuid not null references users (id) on delete cascade,
      period text not null,
      items integer not null default 0,
      created_at timestamptz not null default now(),
      primary key (user_id, period)
    )`.execute(db);

  await sql`
    create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      recipient_id uuid references users (id) on delete cascade,
      recipient text not null,
      subject text not null,
      body text not null,
      kind text not null,
      dedupe_key text not null unique,
      state text not null default 'pending' check (state in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      error text
    )`.execute(db);
  await sql`
    create index mail_outbox_pending_idx on mail_outbox (created_at) where state = 'pending'`.execute(
    db,
  );

  await sql`
    create table flag_feedback (
      teacher_id uuid not null references users (id) on delete cascade,
      prediction_id uuid not null references predictions (id) on delete cascade,
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      model_version text not null,
      judgement text not null check (judgement in ('acknowledged', 'not_useful', 'incorrect')),
      reason text check (reason is null or char_length(reason) between 1 and 500),
      updated_at timestamptz not null default now(),
      primary key (teacher_id, prediction_id)
    )`.execute(db);
  await sql`create index flag_feedback_class_idx on flag_feedback (class_id, student_id)`.execute(
    db,
  );
  await sql`create index flag_feedback_student_idx on flag_feedback (student_id)`.execute(db);

  await sql`
    create table intervention_plans (
      id uuid primary key default gen_random_uuid(),
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      owner_id uuid references users (id) on delete set null,
      tier smallint not null check (tier between 1 and 3),
      goal text not null check (char_length(goal) between 1 and 1000),
      review_on date not null,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      closed_at timestamptz,
      outcome text check (outcome is null or char_length(outcome) between 1 and 1000)
    )`.execute(db);
  await sql`
    create index intervention_plans_class_idx
      on intervention_plans (class_id, review_on)`.execute(db);
  await sql`create index intervention_plans_student_idx on intervention_plans (student_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "intervention_plans",
    "flag_feedback",
    "mail_outbox",
    "digests",
    "notification_settings",
    "notifications",
    "alert_states",
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
