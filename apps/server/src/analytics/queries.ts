import { riskRules } from "@gradecast/contract/analytics";
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import { countedReport, countedStudent, type Population } from "./population.ts";

// Every aggregate of the report is computed by PostgreSQL, except what follows from the exact
// sums (means, the fitted line). The report aggregates come from the running totals of migration
// 0002 or one pass over a scoped view's reports; the rest group small tables or use indexes.
// Counts are cast to int and averages to float8 so both drivers hand back plain numbers. Every
// query takes the population it counts (population.ts).

/** One (dim, key) of the report aggregates: the count and the exact sums (x attendance, y marks). */
export interface ReportAggregate {
  dim: "all" | "marks" | "cell" | "behavior" | "course";
  key: string;
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  sxy: number;
  syy: number;
}

/**
 * Every report aggregate of a population in one statement, most frequent key first within each
 * dim, and the number of distinct students reported on. The school's come from the running
 * totals of migration 0002 (analytics_report_rollup: a few hundred rows, whatever the number of
 * reports). A teacher's or a class's view groups its own reports with the same keys
 * (analytics_report_keys), through the author and class indexes, in one pass over them: one
 * query per aggregate expanded every report six times per aggregate. Sums are exact integers
 * (under 2^53 for any school) sent as float8, so both drivers hand back plain numbers.
 */
export async function reportAggregates(
  db: Kysely<DB>,
  p: Population,
): Promise<{ aggregates: ReportAggregate[]; students: number }> {
  const { rows } = await sql<ReportAggregate | (Omit<ReportAggregate, "dim"> & { dim: "student" })>`
    ${
      p.kind === "school"
        ? sql`
    select dim, key, n::float8 as n, sum_x::float8 as sx, sum_y::float8 as sy,
      sum_xx::float8 as sxx, sum_xy::float8 as sxy, sum_yy::float8 as syy
    from analytics_report_rollup where dim <> 'student' and n > 0
    union all
    select 'student', '', count(*)::float8, 0, 0, 0, 0, 0
    from analytics_report_rollup where dim = 'student' and n > 0`
        : sql`
    with g as materialized (
      select k.dim, k.key, count(*)::float8 as n, sum(r.attendance)::float8 as sx,
        sum(r.marks)::float8 as sy, sum(r.attendance * r.attendance)::float8 as sxx,
        sum(r.attendance * r.marks)::float8 as sxy, sum(r.marks * r.marks)::float8 as syy
      from student_reports r cross join lateral analytics_report_keys(r) k
      where ${countedReport(p)}
      group by k.dim, k.key)
    select * from g where dim <> 'student'
    union all
    select 'student', '', count(*)::float8, 0, 0, 0, 0, 0 from g where dim = 'student'`
    }
    order by 1, 3 desc, 2`.execute(db);
  const students = rows.find((r) => r.dim === "student")?.n ?? 0;
  return {
    aggregates: rows.filter((r): r is ReportAggregate => r.dim !== "student"),
    students,
  };
}

/** The least-squares line of marks on attendance and Pearson's r, from the exact sums. */
export function fitOf(all: ReportAggregate | undefined): {
  slope: number | null;
  intercept: number | null;
  r: number | null;
} {
  if (!all || all.n === 0) return { slope: null, intercept: null, r: null };
  // The differences of large products are taken in integers, as regr_slope would be exact.
  const big = (x: number) => BigInt(Math.round(x));
  const [n, sx, sy] = [big(all.n), big(all.sx), big(all.sy)];
  const vxx = Number(n * big(all.sxx) - sx * sx);
  const vxy = Number(n * big(all.sxy) - sx * sy);
  const vyy = Number(n * big(all.syy) - sy * sy);
  if (vxx <= 0) return { slope: null, intercept: null, r: null };
  const slope = vxy / vxx;
  return {
    slope,
    intercept: (all.sy - slope * all.sx) / all.n,
    r: vyy > 0 ? vxy / Math.sqrt(vxx * vyy) : null,
  };
}

/** The latest prediction of each counted student. */
const latestPredictions = (p: Population) => sql`
  select distinct on (p.user_id) p.user_id, p.score
  from predictions p join users u on u.id = p.user_id and ${countedStudent(p)}
  order by p.user_id, p.created_at desc, p.id desc`;

/** The number of predictions of the population's counted students. */
export async function predictionCount(db: Kysely<DB>, p: Population): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from predictions p join users u on u.id = p.user_id
      and ${countedStudent(p)}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** The latest prediction of each counted student, counted by whole point (0..20). */
export async function latestScoresByPoint(db: Kysely<DB>, p: Population) {
  const { rows } = await sql<{ point: number; count: number }>`
    with latest as (${latestPredictions(p)})
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
export async function atRisk(db: Kysely<DB>, p: Population, limit: number): Promise<AtRiskRow[]> {
  const { marksBelow, attendanceBelow, predictedBelow } = riskRules;
  const { rows } = await sql<AtRiskRow>`
    with latest_report as (${
      p.kind === "school"
        ? sql`
      select student_key, student_name, course, marks, attendance
      from analytics_latest_report`
        : sql`
      select distinct on (lower(r.student_name), lower(r.course))
        lower(r.student_name) as student_key, r.student_name, r.course, r.marks, r.attendance
      from student_reports r where ${countedReport(p)}
      order by lower(r.student_name), lower(r.course), r.created_at desc, r.id desc`
    }
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
    latest_prediction as (${latestPredictions(p)}),
    prediction_risk as (
      select lower(u.name) as key, min(u.name) as name, min(lp.score) as score
      from latest_prediction lp join users u on u.id = lp.user_id
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
    // The grades the prediction was made from, so each one is shown beside its own answers.
    .select([
      sql<number | null>`round((inputs->>'G1')::numeric)::int`.as("g1"),
      sql<number | null>`round((inputs->>'G2')::numeric)::int`.as("g2"),
    ])
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
    .select(["g1", "g2", "created_at"])
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
 * Other students only (the viewer excluded) of the school's counted population: their latest
 * questionnaire's G1 and G2 and their latest prediction, counted in bins of 2 points (0-1, 2-3,
 * …, 18-20). A grade not known yet (null, issue 19) is not counted.
 */
export async function cohortCounts(db: Kysely<DB>, viewerId: string): Promise<CohortCounts[]> {
  const school = countedStudent({ kind: "school" });
  const { rows } = await sql<CohortCounts>`
    with latest_student as (
      select distinct on (s.user_id) s.g1, s.g2
      from students s join users u on u.id = s.user_id and ${school}
      where s.user_id <> ${viewerId}
      order by s.user_id, s.created_at desc, s.id desc
    ),
    latest_prediction as (
      select distinct on (p.user_id) p.score
      from predictions p join users u on u.id = p.user_id and ${school}
      where p.user_id <> ${viewerId}
      order by p.user_id, p.created_at desc, p.id desc
    )
    select 'g1' as measure, least(g1 / 2, 9)::int as bin, count(*)::int as count
      from latest_student where g1 is not null group by 2
    union all
    select 'g2', least(g2 / 2, 9)::int, count(*)::int
      from latest_student where g2 is not null group by 2
    union all
    select 'prediction', least(floor(score / 2), 9)::int, count(*)::int
      from latest_prediction group by 2`.execute(db);
  return rows;
}
