import { z } from "zod";

// The analytics report (issue 7): its rules and the shape of GET /api/analytics/report, read by
// the server that computes it and the report page that draws it.

/** An embed token lives this long; the Student Dashboard asks for a new one on each visit. */
export const embedTokenMinutes = 10;

/** The analytics report's frame on a desktop: 1250 by 600 pixels. */
export const reportFrame = { width: 1250, height: 600 } as const;

/**
 * On a phone the built-in report tells the Student Dashboard its height (issue 28), so that the
 * frame is as tall as the report and only the page scrolls: `{ type, height }` posted to the
 * parent. The parent takes it only from its own frame's window, from an opaque origin, and
 * within these bounds.
 */
export const reportHeightMessage = { type: "gradecast:report-height", max: 40_000 } as const;

export function isReportHeight(data: unknown): data is { type: string; height: number } {
  if (typeof data !== "object" || data === null) return false;
  const { type, height } = data as { type?: unknown; height?: unknown };
  return (
    type === reportHeightMessage.type &&
    typeof height === "number" &&
    Number.isFinite(height) &&
    height > 0 &&
    height <= reportHeightMessage.max
  );
}

/** A group of other students smaller than this is never shown to a student (not even a count). */
export const minGroupSize = 5;

/** Students at risk: any one of these is enough, and each one met is a reason. */
export const riskRules = {
  /** Marks under this, in the latest report of a course. */
  marksBelow: 40,
  /** Attendance (%) under this, in the latest report of a course. */
  attendanceBelow: 75,
  /** Latest predicted score (out of 20) under this. */
  predictedBelow: 10,
} as const;

/** The at-risk list shows at most this many students (the total is given beside it). */
export const atRiskListLimit = 100;

// The report's shapes are the schemas of api-responses.ts.
export type {
  AnalyticsReport,
  AtRiskStudent,
  CohortBin,
  CohortDistribution,
  EmbedAnswer,
  FactorImportance,
  HistogramBin,
  PredictionPoint,
  ReportScope,
  RiskReason,
  StaffReport,
  StudentReport,
} from "./api-responses.ts";

/**
 * GET /api/analytics/embed: a staff member's report of one class (a teacher's own, any for an
 * admin) instead of all of theirs (the school for an admin). The token carries the class.
 */
export const analyticsEmbedQuerySchema = z.strictObject(
  { classId: z.string().max(100).optional() },
  { error: "Only classId can be sent." },
);

export const analyticsMessages = {
  badToken: "This report link has expired or is not valid. Open the Student Dashboard again.",
  smallGroup: `Groups of fewer than ${minGroupSize} students are not shown, to protect their privacy.`,
  smallCohort: `Fewer than ${minGroupSize} students have data yet, so the cohort is not shown.`,
} as const;

/** Bins of `width` over [0, max]; the last bin is closed on the right. */
export function binEdges(max: number, width: number): { from: number; to: number }[] {
  const bins: { from: number; to: number }[] = [];
  for (let from = 0; from < max; from += width)
    bins.push({ from, to: Math.min(from + width, max) });
  return bins;
}
