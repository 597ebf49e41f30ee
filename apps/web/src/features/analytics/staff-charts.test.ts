import { behaviors } from "@gradecast/contract/reports";
import { describe, expect, it } from "vitest";
import { bandColors } from "../../components/palette.ts";
import { type ChartSize, estimateTextWidth } from "./chart-fit.ts";
import { staffReport } from "./staff-report.fixture.ts";
import { bandLabels, buildCharts } from "./staff-report.tsx";

// What each chart of the school report is given, read from the ECharts options built for it:
// the numbers and their categories, in order, as the report holds them. Where the bars land on
// the canvas is ECharts' business; that they show the report's figures is ours.
const report = staffReport({
  attendanceVsMarks: {
    points: [
      { attendance: 90, marks: 80, count: 3 },
      { attendance: 50, marks: 35, count: 1 },
    ],
    fit: null,
  },
  courses: [
    { course: "Maths", averageMarks: 71.5, reports: 60 },
    { course: "History", averageMarks: 64, reports: 40 },
  ],
  otherCourses: 1,
  importance: {
    modelVersion: "test",
    factors: [
      { feature: "G2", label: "Second period grade (G2)", importance: 2.4 },
      { feature: "absences", label: "Absences", importance: 0.7 },
    ],
  },
});

interface Drawn {
  xAxis: { data?: string[] } | { data?: string[] }[];
  yAxis: { data?: string[]; min?: number; max?: number } | { data?: string[] }[];
  series: { type: string; name: string; data: unknown[] }[];
}
const desktop: ChartSize = { width: 551, height: 380, measure: estimateTextWidth };
function drawn(option: unknown): Drawn {
  if (typeof option !== "function") throw new Error("no chart was built");
  return option(desktop) as Drawn;
}
const axis = (a: Drawn["xAxis"]) => (Array.isArray(a) ? a[0] : a);

describe("the school report's charts are given the report's figures", () => {
  const charts = buildCharts(report);

  it("marks: one bar per bin of 10, counts in bin order, labelled by range", () => {
    const chart = drawn(charts.marks.option);
    expect(chart.series).toHaveLength(1);
    expect(chart.series[0]).toMatchObject({ type: "bar", name: "Reports" });
    expect(chart.series[0]?.data).toEqual(report.marks.map((b) => b.count));
    const labels = axis(chart.xAxis)?.data ?? [];
    expect(labels[0]).toBe("0–9");
    expect(labels.at(-1)).toBe("90–100");
    expect(labels).toHaveLength(report.marks.length);
  });

  it("behaviour: the counts of each rating in the contract's order", () => {
    const chart = drawn(charts.behavior.option);
    expect(axis(chart.xAxis)?.data).toEqual([...behaviors]);
    expect(chart.series[0]?.data).toEqual(report.behavior.map((b) => b.count));
  });

  it("courses: average marks per course, on a 0 to 100 axis", () => {
    const chart = drawn(charts.courses.option);
    const bars = chart.series[0]?.data ?? [];
    // Horizontal bars list bottom-up: the most reported course is drawn on top, so last.
    expect(bars).toEqual([64, 71.5]);
    const all = [chart.xAxis, chart.yAxis].flat();
    expect(all.find((a) => "data" in a && a.data)?.data).toEqual(["History", "Maths"]);
    expect(all.find((a) => "max" in a)).toMatchObject({ min: 0, max: 100 });
  });

  it("bands: students per band with the band's own label and colour", () => {
    const chart = drawn(charts.bands.option);
    expect(axis(chart.xAxis)?.data).toEqual(report.bands.map((b) => bandLabels[b.band]));
    const bars = (chart.series[0]?.data ?? []) as { value: number; itemStyle: { color: string } }[];
    expect(bars.map((d) => d.value)).toEqual([5, 15, 10]);
    // The one set of band colours, which the prediction screen's stylesheet uses too.
    expect(bars.map((d) => d.itemStyle.color)).toEqual(report.bands.map((b) => bandColors[b.band]));
  });

  it("draws nothing, and says nothing, for a school with no reports yet", () => {
    const empty = buildCharts({
      ...report,
      totals: { reports: 0, students: 0, predictions: 0 },
      bands: [],
    });
    expect(empty.marks.option).toBeNull();
    expect(empty.behavior.option).toBeNull();
    expect(empty.bands.option).toBeNull();
    expect(empty.marks.summary).toBe("");
  });
});
