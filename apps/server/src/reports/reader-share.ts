import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import { ExpiringCache } from "../memo.ts";

// Which statement a teacher's list takes (queries.ts). Two walks, the teacher's own reports and
// each class's, cost about twice a walk of the whole school's sort index when the teacher may
// read most of the school (measured: a teacher who wrote all 100,000 reports searched at half
// the rate of one filtered walk); one filtered walk costs the inverse of their share when they
// read little (1 % of 100,000: walks of 100 times as many rows). So a teacher who reads more
// than half of the reports takes the single walk. The share is counted, up to half the table's
// size, at most every five minutes per teacher: it moves slowly, and either statement answers
// the same rows, so a stale share costs time, never correctness.

/** Per teacher: whether they read most of the reports, counted at most every five minutes. */
const shares = new ExpiringCache<string, boolean>(5 * 60_000, 10_000);

/** The table's size as last counted by ANALYZE (0 when never counted). */
async function reportsEstimate(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select greatest(reltuples, 0)::float8 as n from pg_class
    where oid = 'student_reports'::regclass`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** True when the teacher may read more than half of the school's reports (a large table). */
export async function readsMostReports(
  db: Kysely<DB>,
  teacherId: string,
  now = Date.now(),
): Promise<boolean> {
  const hit = shares.get(teacherId, now);
  if (hit !== undefined) return hit;
  const total = await reportsEstimate(db);
  let wide = false;
  // Below a few thousand reports every statement is fast: nothing to count.
  if (total >= 5000) {
    const half = Math.ceil(total / 2);
    const { rows } = await sql<{ seen: number }>`
      select count(*)::int as seen from (
        select 1 from student_reports r
        where r.author_id = ${teacherId}::uuid or r.class_id in (
          select ct.class_id from class_teachers ct where ct.teacher_id = ${teacherId}::uuid)
        limit ${half + 1}::int) x`.execute(db);
    wide = (rows[0]?.seen ?? 0) > half;
  }
  shares.set(teacherId, wide, now);
  return wide;
}

/** Forgets every counted share (tests that change who reads what). */
export function forgetReaderShares(): void {
  shares.clear();
}
