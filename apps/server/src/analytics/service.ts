import {
  type AtRiskStudent,
  analyticsMessages,
  atRiskListLimit,
  binEdges,
  type CohortDistribution,
  minGroupSize,
  type ReportScope,
  type RiskReason,
  riskRules,
  type StaffReport,
  type StudentReport,
} from "@gradecast/contract/analytics";
import { type Question, questionByKey } from "@gradecast/contract/questionnaire";
import { behaviors } from "@gradecast/contract/reports";
import type { Role } from "@gradecast/contract/roles";
import { type Band, bandOf, scoreMessage } from "@gradecast/contract/score";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { Services } from "../services.ts";
import type { Population } from "./population.ts";
import * as q from "./queries.ts";

// The rules of the report: who sees which scope, how the query results become the answer, and
// which groups of other students are too small to show.

const COURSE_LIMIT = 20;
const PREDICTION_HISTORY = 100;
const bands: Band[] = ["improve", "good", "congratulations"];

export function scopeForRole(role: Role): ReportScope {
  return role === "student" ? "student" : "staff";
}

const labelOf = (feature: string) =>
  (questionByKey as Partial<Record<string, Question>>)[feature]?.label ?? feature;

/**
 * The staff report of a population: the school for an admin, a teacher's classes (or one of
 * them) for a teacher, so at-risk names reach only that student's teachers and admins.
 */
export async function staffReport(services: Services, p: Population): Promise<StaffReport> {
  const db = services.db;
  // Independent queries: on PostgreSQL they run on separate pool connections at once.
  const [{ aggregates, students }, predictions, scores, atRisk] = await Promise.all([
    q.reportAggregates(db, p),
    q.predictionCount(db, p),
    q.latestScoresByPoint(db, p),
    q.atRisk(db, p, atRiskListLimit),
  ]);
  const of = (dim: q.ReportAggregate["dim"]) => aggregates.filter((a) => a.dim === dim);
  const all = of("all")[0];
  const fit = q.fitOf(all);
  const courses = of("course");
  const cells = of("cell")
    .map((c) => ({ attendance: c.sx / c.n, marks: c.sy / c.n, count: c.n }))
    .sort((a, b) => a.attendance - b.attendance || a.marks - b.marks);
  const marksBins = binEdges(100, 10).map((edge, i) => ({
    ...edge,
    count: of("marks").find((m) => Number(m.key) === i + 1)?.n ?? 0,
  }));

  // Bands have whole-point edges (7 and 14), so a score's whole part decides its band.
  const bandCounts = new Map<Band, number>(bands.map((b) => [b, 0]));
  for (const { point, count } of scores) {
    const band = bandOf(point);
    bandCounts.set(band, (bandCounts.get(band) ?? 0) + count);
  }

  const model = services.model;
  return {
    scope: "staff",
    generatedAt: services.now().toISOString(),
    totals: { reports: all?.n ?? 0, students, predictions },
    marks: marksBins,
    attendanceVsMarks: {
      points: cells.map((c) => ({
        attendance: round(c.attendance, 1),
        marks: round(c.marks, 1),
        count: c.count,
      })),
      fit:
        fit.slope === null || fit.intercept === null
          ? null
          : {
              slope: round(fit.slope, 4),
              intercept: round(fit.intercept, 4),
              r: fit.r === null ? null : round(fit.r, 4),
            },
    },
    courses: courses.slice(0, COURSE_LIMIT).map((c) => ({
      course: c.key,
      averageMarks: round(c.sy / c.n, 1),
      reports: c.n,
    })),
    otherCourses: Math.max(0, courses.length - COURSE_LIMIT),
    behavior: behaviors.map((b) => ({
      behavior: b,
      count: of("behavior").find((row) => row.key === b)?.n ?? 0,
    })),
    bands: bands.map((band) => ({ band, count: bandCounts.get(band) ?? 0 })),
    atRisk: {
      total: atRisk[0]?.total ?? 0,
      students: atRisk.map(toAtRisk),
    },
    importance: {
      modelVersion: model.version ?? null,
      factors: [...model.globalImportance]
        .sort((a, b) => b.importance - a.importance)
        .map((f) => ({
          feature: f.feature,
          label: labelOf(f.feature),
          importance: round(f.importance, 4),
        })),
    },
  };
}

function toAtRisk(row: q.AtRiskRow): AtRiskStudent {
  const reasons: RiskReason[] = [];
  for (const c of row.courses ?? []) {
    if (c.marks < riskRules.marksBelow) {
      reasons.push({ kind: "marks", course: c.course, value: c.marks });
    }
    if (c.attendance < riskRules.attendanceBelow) {
      reasons.push({ kind: "attendance", course: c.course, value: c.attendance });
    }
  }
  if (row.predicted !== null) reasons.push({ kind: "predicted", value: round(row.predicted, 1) });
  return { name: row.name, reasons };
}

export async function studentReport(
  services: Services,
  viewer: { id: string; name: string },
): Promise<StudentReport> {
  const db: Kysely<DB> = services.db;
  const [history, grades, cohort] = await Promise.all([
    q.ownPredictions(db, viewer.id, PREDICTION_HISTORY),
    q.ownLatestGrades(db, viewer.id),
    q.cohortCounts(db, viewer.id),
  ]);
  // The latest prediction together with the answers it was made from and its date; with no
  // prediction yet, the latest saved answers (never one's grades beside the other's score).
  // Scores go out as stored: the screens round once, to one decimal (formatScore), as the
  // prediction screen does; rounding to two decimals here first made a stored 13.2499 read
  // 13.3 in the report and 13.2 on the prediction screen.
  const last = history.at(-1);
  const prediction = last ? last.score : null;
  const iso = (d: unknown) => new Date(d as Date | string).toISOString();
  return {
    scope: "student",
    generatedAt: services.now().toISOString(),
    name: viewer.name,
    predictions: history.map((p) => ({
      at: iso(p.created_at),
      g1: p.g1,
      g2: p.g2,
      score: p.score,
      low: p.interval_low,
      high: p.interval_high,
    })),
    latest: {
      at: last ? iso(last.created_at) : grades ? iso(grades.created_at) : null,
      g1: last ? last.g1 : (grades?.g1 ?? null),
      g2: last ? last.g2 : (grades?.g2 ?? null),
      prediction,
      band: prediction === null ? null : bandOf(prediction),
      message: scoreMessage(prediction),
    },
    cohort: {
      g1: suppress(cohort.filter((c) => c.measure === "g1")),
      g2: suppress(cohort.filter((c) => c.measure === "g2")),
      prediction: suppress(cohort.filter((c) => c.measure === "prediction")),
    },
  };
}

/**
 * Small-group suppression: a cohort of fewer than minGroupSize other students is not shown at
 * all; otherwise a bin of 1 to minGroupSize-1 students loses its count (null), and the answer
 * carries no total from which it could be worked out.
 */
export function suppress(counts: { bin: number; count: number }[]): CohortDistribution {
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  if (total < minGroupSize) return { bins: null, note: analyticsMessages.smallCohort };
  let withheld = false;
  const bins = binEdges(20, 2).map((edge, i) => {
    const count = counts.find((c) => c.bin === i)?.count ?? 0;
    if (count > 0 && count < minGroupSize) {
      withheld = true;
      return { ...edge, count: null };
    }
    return { ...edge, count };
  });
  return { bins, note: withheld ? analyticsMessages.smallGroup : null };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
