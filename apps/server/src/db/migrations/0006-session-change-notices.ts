import { type Kysely, sql } from "kysely";

// The access check also remembers whether an ID token's session is live (auth/authenticate.ts),
// so ending a session (logout, a password change or reset, an admin disabling the account, a
// reused refresh token) sends the same notice as a change to users: every instance forgets what
// it remembered, and a token of that session is refused from the next call on. Only statements
// that set revoked_at, and deletions: signing in and refreshing leave other sessions as they were.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger sessions_ended after update of revoked_at or delete on sessions
    for each statement execute function gradecast_users_changed()`.execute(db);
  await sql`
    create trigger sessions_truncated after truncate on sessions
    for each statement execute function gradecast_users_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists sessions_truncated on sessions`.execute(db);
  await sql`drop trigger if exists sessions_ended on sessions`.execute(db);
}
