import { type Kysely, sql } from "kysely";

// Issue 29: the school record. A class's teachers keep, per enrolled student, the term grades,
// absences, past failures and the year's outcome. `record_entries` holds every value ever set
// (a correction is a new row; nothing is overwritten); `school_records` holds the current values
// of each student in each class, written in the same transaction, so that a prediction reads
// one row. `inputs_version` counts changes of the values the model reads: a prediction made at
// an older version is stale. `outcome_at` is when the outcome (G3 or "did not sit") was first
// recorded: the predictions made before it are the ones the evaluation scores.
//
// Predictions gain the class whose record and subject they used, where each input came from
// (`sources`: the keys the record supplied), the student's own values of the record's inputs
// (`own_values`, for the "differs from the record" mark and for recomputing when a value is
// cleared), the record version they were made at, and whether the student or the school's
// recomputation made them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table record_entries (
      id uuid primary key default gen_random_uuid(),
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      field text not null check (field in ('G1', 'G2', 'absences', 'failures', 'G3', 'sat')),
      value smallint,
      set_by uuid references users (id) on delete set null,
      set_by_name text not null,
      set_at timestamptz not null default now(),
      via text not null default 'grid' check (via in ('grid', 'import', 'seed'))
    )`.execute(db);
  await sql`
    create index record_entries_student_idx
      on record_entries (class_id, student_id, set_at desc)`.execute(db);
  await sql`create index record_entries_student_only_idx on record_entries (student_id)`.execute(
    db,
  );

  await sql`
    create table school_records (
      class_id uuid not null references classes (id) on delete cascade,
      student_id uuid not null references users (id) on delete cascade,
      g1 smallint check (g1 between 0 and 20),
      g2 smallint check (g2 between 0 and 20),
      absences smallint check (absences between 0 and 100),
      failures smallint check (failures between 0 and 4),
      g3 smallint check (g3 between 0 and 20),
      sat boolean,
      inputs_version integer not null default 0,
      updated_at timestamptz not null default now(),
      outcome_at timestamptz,
      primary key (class_id, student_id)
    )`.execute(db);
  await sql`create index school_records_student_idx on school_records (student_id)`.execute(db);

  await sql`
    alter table predictions
      add column class_id uuid references classes (id) on delete set null,
      add column sources jsonb,
      add column own_values jsonb,
      add column record_version integer,
      add column made_by text not null default 'student' check (made_by in ('student', 'school'))
  `.execute(db);
  await sql`
    create index predictions_class_idx on predictions (class_id, user_id, created_at desc)
      where class_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists predictions_class_idx`.execute(db);
  await sql`
    alter table predictions
      drop column if exists class_id,
      drop column if exists sources,
      drop column if exists own_values,
      drop column if exists record_version,
      drop column if exists made_by`.execute(db);
  await sql`drop table if exists school_records`.execute(db);
  await sql`drop table if exists record_entries`.execute(db);
}
