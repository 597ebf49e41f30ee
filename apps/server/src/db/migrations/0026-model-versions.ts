import { type Kysely, sql } from "kysely";

// Issue 30: the model learns from its school. Every version of the model a deployment has known:
// the shipped artifact (artifact null: the one in the package), candidates trained on the
// school's outcomes with their gate report, and which one is in use. At most one row is
// `active`; none means the shipped artifact. Every instance reads the active row (with a short
// cache) and loads its artifact, so a promotion or rollback reaches them all through here.
// Predictions already name their model version (`predictions.model_version`) and keep the
// inputs the model saw (`inputs`, with `sources` and `model_setup`): the training rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table model_versions (
      id text primary key,
      artifact jsonb,
      state text not null check (state in ('candidate', 'active', 'retired', 'refused')),
      gate_report jsonb,
      weights jsonb,
      outcomes integer not null default 0,
      job_id uuid,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      promoted_at timestamptz,
      promoted_by uuid references users (id) on delete set null
    )`.execute(db);
  await sql`
    create unique index model_versions_one_active_idx on model_versions (state)
      where state = 'active'`.execute(db);
  await sql`create index model_versions_created_idx on model_versions (created_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists model_versions`.execute(db);
}
