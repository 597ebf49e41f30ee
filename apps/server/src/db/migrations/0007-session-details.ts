import { type Kysely, sql } from "kysely";

// What a person sees of their sessions (GET /api/me/sessions) and the absolute limit: when the
// sign-in happened (refreshing keeps it, so 30 days from it end the session whatever happens),
// and the address and browser of the latest refresh. Older rows count from their own creation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sessions
      add column signed_in_at timestamptz,
      add column ip text,
      add column user_agent text`.execute(db);
  await sql`update sessions set signed_in_at = created_at where signed_in_at is null`.execute(db);
  await sql`create index sessions_user_live_idx on sessions (user_id) where revoked_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists sessions_user_live_idx`.execute(db);
  await sql`
    alter table sessions
      drop column if exists user_agent,
      drop column if exists ip,
      drop column if exists signed_in_at`.execute(db);
}
