import type { Kysely } from "kysely";
import { type ChangeNotices, createChangeNotices, dropChangeNotices } from "./shared-steps.ts";

// The access check also remembers whether an ID token's session is live (auth/authenticate.ts),
// so ending a session (logout, a password change or reset, an admin disabling the account, a
// reused refresh token) sends the same notice as a change to users: every instance forgets what
// it remembered, and a token of that session is refused from the next call on. Only statements
// that set revoked_at, and deletions: signing in and refreshing leave other sessions as they were.
const sessions: ChangeNotices = {
  table: "sessions",
  changed: "sessions_ended",
  events: "update of revoked_at or delete",
  truncated: "sessions_truncated",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await createChangeNotices(db, sessions);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangeNotices(db, sessions);
}
