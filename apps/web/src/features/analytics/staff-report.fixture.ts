import { binEdges, type StaffReport } from "@gradecast/contract/analytics";
import { behaviors } from "@gradecast/contract/reports";

/**
 * A school's report for the chart tests: every chart has data, counts rising or falling by bin
 * so that an order mix-up shows. A test changes what it looks at.
 */
export function staffReport(changes: Partial<StaffReport> = {}): StaffReport {
  return {
    scope: "staff",
    generatedAt: "2026-09-01T10:00:00.000Z",
    totals: { reports: 120, students: 40, predictions: 30 },
    marks: binEdges(100, 10).map((b, i) => ({ ...b, count: i + 1 })),
    attendanceVsMarks: { points: [], fit: null },
    courses: [{ course: "Maths", averageMarks: 71.5, reports: 60 }],
    otherCourses: 0,
    behavior: behaviors.map((behavior, i) => ({ behavior, count: 10 * (i + 1) })),
    bands: [
      { band: "improve", count: 5 },
      { band: "good", count: 15 },
      { band: "congratulations", count: 10 },
    ],
    atRisk: { total: 0, students: [] },
    importance: {
      modelVersion: "test",
      factors: [{ feature: "G2", label: "Second period grade (G2)", importance: 2.4 }],
    },
    ...changes,
  };
}
