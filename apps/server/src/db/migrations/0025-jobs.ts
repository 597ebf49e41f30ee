import { type Kysely, sql } from "kysely";

// Issue 29: long work (recomputing predictions after the record or the model changed; later
// training, mail and purges) runs as a job off the request path. A job survives a restart (it is
// a row), runs once across instances (claimed with FOR UPDATE SKIP LOCKED, held by a lease that
// a crashed instance lets expire), and shows its progress to whoever started it. At most one
// queued job per kind and key: asking again while one waits adds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      kind text not null,
      key text not null default '',
      payload jsonb not null default '{}',
      state text not null default 'queued'
        check (state in ('queued', 'running', 'done', 'failed')),
      progress_done integer not null default 0,
      progress_total integer,
      attempts integer not null default 0,
      run_after timestamptz not null default now(),
      locked_by text,
      locked_until timestamptz,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      error text
    )`.execute(db);
  await sql`
    create unique index jobs_one_queued_idx on jobs (kind, key) where state = 'queued'`.execute(db);
  await sql`
    create index jobs_claim_idx on jobs (run_after) where state in ('queued', 'running')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists jobs`.execute(db);
}
