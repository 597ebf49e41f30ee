import { type Kysely, sql } from "kysely";

// Finer statistics on lower(student_name) for the teacher dashboard's name search (issue 4).
// The planner estimates how many names contain a search ('%smith%') from the expression's most
// common values and histogram; with the default 100 entries, ANALYZE's sample decides whether a
// name shared by 2% of 100,000 reports is seen at all, and the plan flipped between reading the
// newest rows until 25 match (0.6 ms) and fetching every match through the trigram index then
// sorting (19 ms on PGlite). 1,000 entries make the estimate, and the plan, stable.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter index student_reports_name_idx alter column 1 set statistics 1000`.execute(db);
  await sql`alter index student_reports_name_trgm alter column 1 set statistics 1000`.execute(db);
  await sql`analyze student_reports`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter index student_reports_name_idx alter column 1 set statistics -1`.execute(db);
  await sql`alter index student_reports_name_trgm alter column 1 set statistics -1`.execute(db);
}
