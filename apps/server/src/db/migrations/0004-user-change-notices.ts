import { type Kysely, sql } from "kysely";

// Every change to the users table sends a notice on the channel `gradecast_users` when its
// transaction commits. Each server instance on a PostgreSQL database listens and forgets the
// users it remembered for the access check (db/user-notices.ts, auth/authenticate.ts), so a
// role changed or an account disabled by another instance or by `npm run admin:create` takes
// effect there as soon as the notice arrives. One notice per statement: listeners forget every
// remembered user, so which rows changed does not matter. New users need no notice (nobody has
// remembered them). On PGlite nobody listens and the notice costs nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function gradecast_users_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gradecast_users', '');
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger users_changed after update or delete on users
    for each statement execute function gradecast_users_changed()`.execute(db);
  await sql`
    create trigger users_truncated after truncate on users
    for each statement execute function gradecast_users_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists users_truncated on users`.execute(db);
  await sql`drop trigger if exists users_changed on users`.execute(db);
  await sql`drop function if exists gradecast_users_changed()`.execute(db);
}
