import { riskRules } from "@gradecast/contract/analytics";
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";

// Every aggregate of the report is computed by PostgreSQL. The report aggregates come from the
// running totals of migration 0002 (a few hundred rows, whatever the number of reports); the
// rest group small tables or use indexes. Counts are cast to int and averages to float8 so both
// drivers hand back plain numbers.

// The report aggregates read analytics_report_rollup (migration 0002): per (dim, key) the count
// and the exact sums of x = attendance and y = marks, kept by triggers on student_reports.
const rollup = (dim: string) => sql`
  select key, n::int as n, sum_x::float8 as sx, sum_y::float8 as sy
  from analytics_report_rollup where dim = ${dim} and n > 0`;

export async function totals(db: Kysely<DB>) {
  const { rows } = await sql<{ reports: number; students: number; predictions: number }>`
    select
      coalesce((select n::int from analytics_report_rollup where dim = 'all' and key = ''), 0)
        as reports,
      (select count(*)::int from analytics_report_rollup where dim = 'student' and n > 0)
        as students,
      (select count(*)::int from predictions) as predictions`.execute(db);
  return rows[0] ?? { reports: 0, students: 0, predictions: 0 };
}

/** Bins 1..10 of 10 marks each (width_bucket); 100 joins the last bin. */
export async function marksHistogram(db: Kysely<DB>) {
  const { rows } = await sql<{ bin: number; count: number }>`
    select key::int as bin, n as count from (${rollup("marks")}) r order by 1`.execute(db);
  return rows;
}

/** Cells of 5 by 5 (100 joins the 95 cell), each at the mean of its reports. */
export async function attendanceMarksCells(db: Kysely<DB>) {
  const { rows } = await sql<{ attendance: number; marks: number; count: number }>`
    select sx / n as attendance, sy / n as marks, n as count
    from (${rollup("cell")}) r order by 1, 2`.execute(db);
  return rows;
}

/**
 * The least-squares line of marks on attendance and Pearson's r, from the exact sums: what
 * regr_slope, regr_intercept and corr give over the reports themselves. Null when undefined
 * (fewer than two distinct attendances; r also when every mark is the same).
 */
export async function attendanceMarksFit(db: Kysely<DB>) {
  const { rows } = await sql<{
    slope: number | null;
    intercept: number | null;
    r: number | null;
  }>`
    with s as (
      select n::numeric as n, sum_x::numeric as sx, sum_y::numeric as sy,
        (n * sum_xx - sum_x * sum_x)::numeric as vxx,
        (n * sum_xy - sum_x * sum_y)::numeric as vxy,
        (n * sum_yy - sum_y * sum_y)::numeric as vyy
      from analytics_report_rollup where dim = 'all' and key = '' and n > 0
    )
    select
      case when vxx > 0 then (vxy / vxx)::float8 end as slope,
      case when vxx > 0 then ((sy - (vxy / vxx) * sx) / n)::float8 end as intercept,
      case when vxx > 0 and vyy > 0 then (vxy / sqrt(vxx * vyy))::float8 end as r
    from s`.execute(db);
  return rows[0] ?? { slope: null, intercept: null, r: null };
}

export async function courseAverages(db: Kysely<DB>, limit: number) {
  const { rows } = await sql<{
    course: string;
    averageMarks: number;
    reports: number;
    courses: number;
  }>`
    select key as course, sy / n as "averageMarks", n as reports, (count(*) over ())::int as courses
    from (${rollup("course")}) r
    order by n desc, key
    limit ${limit}`.execute(db);
  return rows;
}

export async function behaviorCounts(db: Kysely<DB>) {
  const { rows } = await sql<{ behavior: string; count: number }>`
    select key as behavior, n as count from (${rollup("behavior")}) r`.execute(db);
  return rows;
}

/** The latest prediction of each student account, counted by whole point (0..20). */
export async function latestScoresByPoint(db: Kysely<DB>) {
  const { rows } = await sql<{ point: number; count: number }>`
    with latest as (
      select distinct on (p.user_id) p.score
      from predictions p join users u on u.id = p.user_id and u.role = 'student'
      order by p.user_id, p.created_at desc, p.id desc
    )
    select floor(score)::int as point, count(*)::int as count from latest group by 1 order by 1`.execute(
    db,
  );
  return rows;
}

export interface AtRiskRow {
  name: string;
  courses: { course: string; marks: number; attendance: number }[] | null;
  predicted: number | null;
  total: number;
}

/**
 * Students at risk: the latest report of each (student, course) under the marks or attendance
 * line, and student accounts whose latest prediction is under the score line, matched by name
 * (case-insensitive). Most reasons first, then the lowest marks, then the lowest prediction.
 */
export async function atRisk(db: Kysely<DB>, limit: number): Promise<AtRiskRow[]> {
  const { marksBelow, attendanceBelow, predictedBelow } = riskRules;
  const { rows } = await sql<AtRiskRow>`
    with latest_report as (
      select student_key, student_name, course, marks, attendance
      from analytics_latest_report
    ),
    report_risk as (
      select student_key as key, min(student_name) as name,
        jsonb_agg(jsonb_build_object('course', course, 'marks', marks, 'attendance', attendance)
          order by course) as courses,
        sum((marks < ${marksBelow})::int + (attendance < ${attendanceBelow})::int) as reasons,
        min(marks) as worst_marks
      from latest_report
      where marks < ${marksBelow} or attendance < ${attendanceBelow}
      group by student_key
    ),
    latest_prediction as (
      select distinct on (p.user_id) p.user_id, p.score
      from predictions p
      order by p.user_id, p.created_at desc, p.id desc
    ),
    prediction_risk as (
      select lower(u.name) as key, min(u.name) as name, min(lp.score) as score
      from latest_prediction lp join users u on u.id = lp.user_id and u.role = 'student'
      -- The score as shown (one decimal): 9.96 reads "10.0", which is not under 10.
      where round(lp.score::numeric, 1) < ${predictedBelow}
      group by lower(u.name)
    )
    select coalesce(r.name, p.name) as name, r.courses, p.score::float8 as predicted,
      (count(*) over ())::int as total
    from report_risk r full join prediction_risk p on p.key = r.key
    order by coalesce(r.reasons, 0) + (p.score is not null)::int desc,
      r.worst_marks asc nulls last, p.score asc nulls last, 1
    limit ${limit}`.execute(db);
  return rows;
}

// ---- student scope -------------------------------------------------------------------------

export async function ownPredictions(db: Kysely<DB>, userId: string, limit: number) {
  const rows = await db
    .selectFrom("predictions")
    .select(["created_at", "score", "interval_low", "interval_high"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse();
}

export async function ownLatestGrades(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom("students")
    .select(["g1", "g2"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export interface CohortCounts {
  measure: "g1" | "g2" | "prediction";
  bin: number;
  count: number;
}

/**
 * Other students only (the viewer excluded): their latest questionnaire's G1 and G2 and their
 * latest prediction, counted in bins of 2 points (0-1, 2-3, …, 18-20).
 */
export async function cohortCounts(db: Kysely<DB>, viewerId: string): Promise<CohortCounts[]> {
  const { rows } = await sql<CohortCounts>`
    with latest_student as (
      select distinct on (s.user_id) s.g1, s.g2
      from students s join users u on u.id = s.user_id and u.role = 'student'
      where s.user_id <> ${viewerId}
      order by s.user_id, s.created_at desc, s.id desc
    ),
    latest_prediction as (
      select distinct on (p.user_id) p.score
      from predictions p join users u on u.id = p.user_id and u.role = 'student'
      where p.user_id <> ${viewerId}
      order by p.user_id, p.created_at desc, p.id desc
    )
    select 'g1' as measure, least(g1 / 2, 9)::int as bin, count(*)::int as count
      from latest_student group by 2
    union all
    select 'g2', least(g2 / 2, 9)::int, count(*)::int from latest_student group by 2
    union all
    select 'prediction', least(floor(score / 2), 9)::int, count(*)::int
      from latest_prediction group by 2`.execute(db);
  return rows;
}
