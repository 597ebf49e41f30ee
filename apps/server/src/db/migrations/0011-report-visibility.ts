import { type Kysely, sql } from "kysely";

// A teacher's list of reports is their own reports plus those filed through their classes
// (reports/queries.ts). The class side is served by student_reports_class_idx (migration 0009);
// this index serves the author side in the list's newest-first order, so a teacher's page reads
// their rows in order instead of sorting every report they wrote.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index student_reports_author_created_idx
    on student_reports (author_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists student_reports_author_created_idx`.execute(db);
}
