import { z } from "zod";
import type { Band } from "./score.ts";

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

export type ReportScope = "staff" | "student";

/** Counts per bin; `from` is inclusive, `to` exclusive except for the last bin. */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

/** A histogram of other students: a bin of fewer than minGroupSize students has count null. */
export interface CohortBin {
  from: number;
  to: number;
  count: number | null;
}

export interface CohortDistribution {
  /** Omitted when the whole group is smaller than minGroupSize. */
  bins: CohortBin[] | null;
  /** Set when bins, or some of them, are withheld: says why. */
  note: string | null;
}

export type RiskReason =
  | { kind: "marks"; course: string; value: number }
  | { kind: "attendance"; course: string; value: number }
  | { kind: "predicted"; value: number };

export interface AtRiskStudent {
  name: string;
  reasons: RiskReason[];
}

export interface FactorImportance {
  feature: string;
  label: string;
  importance: number;
}

export interface StaffReport {
  scope: "staff";
  generatedAt: string;
  totals: { reports: number; students: number; predictions: number };
  /** Ten bins of 10 marks: 0-9, 10-19, …, 90-100. */
  marks: HistogramBin[];
  attendanceVsMarks: {
    /** Reports grouped in cells of 5 by 5; each point sits at the mean of its cell. */
    points: { attendance: number; marks: number; count: number }[];
    /** Least-squares line marks = slope × attendance + intercept; null under two distinct points. */
    fit: { slope: number; intercept: number; r: number | null } | null;
  };
  /** The most frequent courses first. */
  courses: { course: string; averageMarks: number; reports: number }[];
  /** Courses beyond the list, if any. */
  otherCourses: number;
  behavior: { behavior: string; count: number }[];
  /** Latest prediction of each student, by band. */
  bands: { band: Band; count: number }[];
  atRisk: { total: number; students: AtRiskStudent[] };
  importance: { modelVersion: string | null; factors: FactorImportance[] };
}

export interface PredictionPoint {
  at: string;
  /** The grades this prediction was made from (null when it was made without them). */
  g1: number | null;
  g2: number | null;
  score: number;
  low: number;
  high: number;
}

export interface StudentReport {
  scope: "student";
  generatedAt: string;
  name: string;
  predictions: PredictionPoint[];
  /** The latest prediction with the answers it was made from, or the latest saved answers. */
  latest: {
    /** When that prediction was made (or those answers saved); null with neither. */
    at: string | null;
    g1: number | null;
    g2: number | null;
    prediction: number | null;
    band: Band | null;
    message: string;
  };
  /** The cohort (students' latest questionnaires and predictions), in bins of 2 points. */
  cohort: { g1: CohortDistribution; g2: CohortDistribution; prediction: CohortDistribution };
}

export type AnalyticsReport = StaffReport | StudentReport;

/**
 * GET /api/analytics/embed: a staff member's report of one class (a teacher's own, any for an
 * admin) instead of all of theirs (the school for an admin). The token carries the class.
 */
export const analyticsEmbedQuerySchema = z.strictObject(
  { classId: z.string().max(100).optional() },
  { error: "Only classId can be sent." },
);

export interface EmbedAnswer {
  url: string;
  /** ISO time; null for an external report (ANALYTICS_EMBED_URL), which has no token. */
  expiresAt: string | null;
  external: boolean;
}

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
