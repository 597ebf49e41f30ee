import { type Kysely, sql } from "kysely";

// Issue 31 (docs/decisions/0021-data-rights.md): account deletions waiting for their grace
// period, how long each category of personal data is kept (set by an admin), and what happens to
// reports about a deleted student. Written literally: a migration must keep meaning what it
// meant when it ran.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_deletions (
      user_id uuid primary key references users (id) on delete cascade,
      requested_by uuid references users (id) on delete set null,
      requested_at timestamptz not null default now(),
      due_at timestamptz not null,
      via text not null check (via in ('self', 'admin')),
      reason text check (char_length(reason) <= 500)
    )`.execute(db);
  await sql`create index account_deletions_due_idx on account_deletions (due_at)`.execute(db);

  await sql`
    create table retention_settings (
      category text primary key,
      keep_days integer check (keep_days between 1 and 36500),
      auto_purge boolean not null default false,
      updated_by uuid references users (id) on delete set null,
      updated_at timestamptz,
      checked_at timestamptz,
      due_count integer,
      purged_at timestamptz,
      purged_count integer
    )`.execute(db);

  await sql`
    create table privacy_settings (
      id boolean primary key default true check (id),
      deleted_student_reports text not null default 'anonymise'
        check (deleted_student_reports in ('delete', 'anonymise')),
      updated_by uuid references users (id) on delete set null,
      updated_at timestamptz
    )`.execute(db);
  await sql`insert into privacy_settings (id) values (true)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists privacy_settings`.execute(db);
  await sql`drop table if exists retention_settings`.execute(db);
  await sql`drop table if exists account_deletions`.execute(db);
}
