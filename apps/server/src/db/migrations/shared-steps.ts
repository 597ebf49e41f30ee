import { type Kysely, sql } from "kysely";

// Steps that more than one migration takes. Each sends its statements exactly as the migrations
// that use it first ran them, so change nothing here: a migration must keep meaning what it meant
// when it ran. A step that must differ is a new function.

/** A table whose changes send the notice of migration 0004 (db/user-notices.ts). */
export interface ChangeNotices {
  table: string;
  /** The trigger after the statements that change what the access check remembers... */
  changed: string;
  /** ...namely these (`update or delete`, `update of revoked_at or delete`). */
  events: string;
  /** The trigger after a truncate of the table. */
  truncated: string;
}

/** Migrations 0004 and 0006: each statement that changes the table sends one notice. */
export async function createChangeNotices(db: Kysely<unknown>, t: ChangeNotices): Promise<void> {
  await sql`
    create trigger ${sql.raw(t.changed)} after ${sql.raw(t.events)} on ${sql.raw(t.table)}
    for each statement execute function gradecast_users_changed()`.execute(db);
  await sql`
    create trigger ${sql.raw(t.truncated)} after truncate on ${sql.raw(t.table)}
    for each statement execute function gradecast_users_changed()`.execute(db);
}

export async function dropChangeNotices(db: Kysely<unknown>, t: ChangeNotices): Promise<void> {
  await sql`drop trigger if exists ${sql.raw(t.truncated)} on ${sql.raw(t.table)}`.execute(db);
  await sql`drop trigger if exists ${sql.raw(t.changed)} on ${sql.raw(t.table)}`.execute(db);
}

/**
 * Migrations 0005 and 0032: the report list's search name, a column the database computes from
 * student_name, with the finer statistics of migration 0003 and a trigram index.
 */
export async function addReportNameSearchColumn(
  db: Kysely<unknown>,
  s: { column: string; expression: string; index: string },
): Promise<void> {
  await sql`
    alter table student_reports
    add column ${sql.raw(s.column)} text generated always as (${sql.raw(s.expression)}) stored`.execute(
    db,
  );
  await sql`alter table student_reports alter column ${sql.raw(s.column)} set statistics 1000`.execute(
    db,
  );
  await sql`
    create index ${sql.raw(s.index)}
    on student_reports using gin (${sql.raw(s.column)} gin_trgm_ops)`.execute(db);
}
