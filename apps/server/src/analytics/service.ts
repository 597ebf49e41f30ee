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

export async function staffReport(services: Services): Promise<StaffReport> {
  const db = services.db;
  // Independent queries: on PostgreSQL they run on separate pool connections at once.
  const [totals, marks, cells, fit, courses, behavior, scores, atRisk] = await Promise.all([
    q.totals(db),
    q.marksHistogram(db),
    q.attendanceMarksCells(db),
    q.attendanceMarksFit(db),
    q.courseAverages(db, COURSE_LIMIT),
    q.behaviorCounts(db),
    q.latestScoresByPoint(db),
    q.atRisk(db, atRiskListLimit),
  ]);

  const marksBins = binEdges(100, 10).map((edge, i) => ({
    ...edge,
    count: marks.find((m) => m.bin === i + 1)?.count ?? 0,
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
    totals,
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
    courses: courses.map((c) => ({
      course: c.course,
      averageMarks: round(c.averageMarks, 1),
      reports: c.reports,
    })),
    otherCourses: Math.max(0, (courses[0]?.courses ?? 0) - courses.length),
    behavior: behaviors.map((b) => ({
      behavior: b,
      count: behavior.find((row) => row.behavior === b)?.count ?? 0,
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
  const last = history.at(-1);
  const prediction = last ? round(last.score, 2) : null;
  return {
    scope: "student",
    generatedAt: services.now().toISOString(),
    name: viewer.name,
    predictions: history.map((p) => ({
      at: new Date(p.created_at as unknown as Date | string).toISOString(),
      score: round(p.score, 2),
      low: round(p.interval_low, 2),
      high: round(p.interval_high, 2),
    })),
    latest: {
      g1: grades?.g1 ?? null,
      g2: grades?.g2 ?? null,
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
