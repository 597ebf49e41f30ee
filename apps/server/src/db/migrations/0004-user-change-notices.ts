import { type Kysely, sql } from "kysely";
import { type ChangeNotices, createChangeNotices, dropChangeNotices } from "./shared-steps.ts";

// Every change to the users table sends a notice on the channel `gradecast_users` when its
// transaction commits. Each server instance on a PostgreSQL database listens and forgets the
// users it remembered for the access check (db/user-notices.ts, auth/authenticate.ts), so a
// role changed or an account disabled by another instance or by `npm run admin:create` takes
// effect there as soon as the notice arrives. One notice per statement: listeners forget every
// remembered user, so which rows changed does not matter. New users need no notice (nobody has
// remembered them). On PGlite nobody listens and the notice costs nothing.
const users: ChangeNotices = {
  table: "users",
  changed: "users_changed",
  events: "update or delete",
  truncated: "users_truncated",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function gradecast_users_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gradecast_users', '');
      return null;
    end
    $$`.execute(db);
  await createChangeNotices(db, users);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangeNotices(db, users);
  await sql`drop function if exists gradecast_users_changed()`.execute(db);
}
