import {
  type AtRiskStudent,
  type RiskReason,
  riskRules,
  type StaffReport,
} from "@gradecast/contract/analytics";
import { type Band, bandMessages, formatScore } from "@gradecast/contract/score";
import { useMemo } from "react";
import { EmptyState } from "../../components/empty-state.tsx";
import { bandColors, palette } from "../../components/palette.ts";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { axisName, baseOption, Chart, categoryAxisName, fittedCategoryAxis } from "./chart.tsx";
import {
  barPlotHeight,
  bottomNameWidth,
  type CategoryFitOptions,
  type ChartSize,
  fitAxisName,
  fitBarLabels,
  plotWidth,
  valueTicks,
} from "./chart-fit.ts";
import { formatNumber } from "./format.ts";
import { ReportPages } from "./report-pages.tsx";

// The report for teachers and admins: totals, then one chart per question a teacher asks of the
// reports and predictions, then the students at risk and the model's factors.

export const bandRanges: Record<Band, string> = {
  improve: "below 7",
  good: "7 to under 14",
  congratulations: "14 and above",
};

export const bandLabels: Record<Band, string> = {
  improve: `${bandMessages.improve} (${bandRanges.improve})`,
  good: `${bandMessages.good} (${bandRanges.good})`,
  congratulations: `${bandMessages.congratulations} (${bandRanges.congratulations})`,
};

/** Band names short enough for a phone's axis: the range alone (the colour and tooltip say the rest). */
const bandShortLabels: Record<Band, string> = {
  improve: "Below 7",
  good: "7 to under 14",
  congratulations: "14 and above",
};

export function reasonText(reason: RiskReason): string {
  switch (reason.kind) {
    case "marks":
      return `Marks ${reason.value} in ${reason.course} (under ${riskRules.marksBelow})`;
    case "attendance":
      return `Attendance ${reason.value} % in ${reason.course} (under ${riskRules.attendanceBelow} %)`;
    case "predicted":
      return `Predicted score ${formatScore(reason.value)} (under ${riskRules.predictedBelow})`;
  }
}

const noReports = {
  title: "No reports yet",
  body: "Teacher reports (Teacher Input) fill this chart: marks, attendance, course and behavior of each student.",
};

const noPredictions = {
  title: "No predictions yet",
  body: "Students' predictions fill this chart: each student who fills in Student Input and asks for a prediction counts once, with their latest score.",
};

const noModel = {
  title: "No model loaded",
  body: "The grade model's factor importance appears here once the server has a model.",
};

export function StaffReportView({ report }: { report: StaffReport }) {
  const charts = useMemo(() => buildCharts(report), [report]);
  const { totals } = report;
  return (
    <ReportPages
      lead={
        <section className="report-totals" aria-label="Totals">
          <Stat label="Reports" value={totals.reports} />
          <Stat label="Students reported" value={totals.students} />
          <Stat label="Predictions" value={totals.predictions} />
        </section>
      }
    >
      <Chart title="Distribution of marks" {...charts.marks} empty={noReports} />
      <Chart title="Attendance against marks" {...charts.scatter} empty={noReports} />
      <Chart
        title="Average marks by course"
        {...charts.courses}
        empty={noReports}
        tall={report.courses.length > 8}
      />
      <Chart title="Behavior" {...charts.behavior} empty={noReports} />
      <Chart title="Predicted scores by band" {...charts.bands} empty={noPredictions} />
      <Chart title="What drives the predicted score" {...charts.importance} empty={noModel} tall />
      <AtRiskList atRisk={report.atRisk} />
    </ReportPages>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="report-stat">
      <span className="report-stat-value">{formatNumber(value)}</span>
      <span className="report-stat-label">{label}</span>
    </div>
  );
}

function AtRiskList({ atRisk }: { atRisk: StaffReport["atRisk"] }) {
  return (
    <section className="card report-wide at-risk-section" aria-labelledby="at-risk-title">
      <h3 id="at-risk-title" className="chart-title">
        Students at risk
      </h3>
      {atRisk.total === 0 ? (
        <EmptyState title="No student at risk">
          A student appears here when the latest report of a course has marks under{" "}
          {riskRules.marksBelow} or attendance under {riskRules.attendanceBelow} %, or when their
          latest predicted score is under {riskRules.predictedBelow}.
        </EmptyState>
      ) : (
        <>
          <p className="chart-summary">
            {atRisk.total === 1
              ? "1 student meets at least one risk rule"
              : `${formatNumber(atRisk.total)} students meet at least one risk rule`}
            {atRisk.total > atRisk.students.length
              ? `; the ${atRisk.students.length} with the most reasons are listed.`
              : "."}{" "}
            Reports and predictions are matched by the student's name.
          </p>
          <ScrollRegion className="table-scroll" label="Students at risk: table">
            <table className="at-risk-table">
              <thead>
                <tr>
                  <th scope="col">Student</th>
                  <th scope="col">Reasons</th>
                </tr>
              </thead>
              <tbody>
                {atRisk.students.map((s: AtRiskStudent) => (
                  <tr key={s.name}>
                    <th scope="row">{s.name}</th>
                    <td>
                      <ul className="reason-list">
                        {s.reasons.map((r) => (
                          <li key={reasonText(r)}>{reasonText(r)}</li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </section>
  );
}

const largestCount = (items: { count: number }[]) => Math.max(0, ...items.map((i) => i.count));

/**
 * The axes of a horizontal bar chart fitted to the drawing: category labels narrower on a phone,
 * fewer value ticks, and a value axis name that wraps rather than runs off the canvas.
 */
function fittedBarAxes(
  size: ChartSize,
  bars: {
    category: string;
    labels: string[];
    maxWidth: number;
    value: string;
    range?: { min: number; max: number };
  },
) {
  const grid = { ...baseOption.grid, left: 16 };
  const labels = fitBarLabels(bars.labels, size, barPlotHeight(size.height, grid), bars.maxWidth);
  const name = fitAxisName(
    bars.value,
    bottomNameWidth(size.width, grid, labels.width),
    size.measure,
  );
  return {
    grid,
    xAxis: {
      type: "value",
      ...bars.range,
      ...valueTicks(plotWidth(size.width, grid, labels.width)),
      ...axisName(name),
    },
    yAxis: {
      type: "category",
      data: bars.labels,
      ...categoryAxisName(bars.category),
      axisLabel: { color: palette.muted, ...labels.axisLabel },
    },
  };
}

/**
 * Counts per category as bars on a fitted axis (marks bins, behaviour ratings, score bands): in
 * the primary colour, or each bar in its own (`colors`).
 */
function countBars(
  size: ChartSize,
  category: string,
  labels: string[],
  items: { count: number }[],
  options: {
    fit: CategoryFitOptions & { gap?: number };
    unit?: string;
    colors?: string[];
  },
) {
  const { fit, unit = "Reports", colors } = options;
  return {
    ...baseOption,
    xAxis: fittedCategoryAxis(size, category, labels, largestCount(items), fit),
    yAxis: { type: "value", minInterval: 1, ...axisName(unit, 44) },
    series: [
      {
        type: "bar",
        name: unit,
        data: colors
          ? items.map((b, i) => ({ value: b.count, itemStyle: { color: colors[i] } }))
          : items.map((b) => b.count),
        itemStyle: { color: palette.primary },
      },
    ],
  };
}

export function buildCharts(report: StaffReport) {
  const hasReports = report.totals.reports > 0;

  const binLabel = (b: { from: number; to: number }, last: boolean) =>
    `${b.from}–${last ? b.to : b.to - 1}`;
  const marksLabels = report.marks.map((b, i) => binLabel(b, i === report.marks.length - 1));
  const modeIndex = report.marks.reduce(
    (best, b, i) => (b.count > (report.marks[best]?.count ?? -1) ? i : best),
    0,
  );
  const marks = {
    summary: hasReports
      ? `${formatNumber(report.totals.reports)} reports in bins of 10 marks; the most common range is ${marksLabels[modeIndex]}.`
      : "",
    option: hasReports
      ? (size: ChartSize) => ({
          ...countBars(size, "Marks", marksLabels, report.marks, {
            // Bins are ordered: on a phone every other label may go.
            fit: { thin: true },
          }),
        })
      : null,
    table: {
      head: ["Marks", "Reports"],
      rows: report.marks.map((b, i) => [marksLabels[i]!, b.count]),
    },
  };

  const fit = report.attendanceVsMarks.fit;
  const points = report.attendanceVsMarks.points;
  const maxCount = Math.max(1, ...points.map((p) => p.count));
  const fitLine = fit
    ? [
        [0, fit.intercept],
        [100, fit.slope * 100 + fit.intercept],
      ]
    : [];
  const scatter = {
    summary: fit
      ? `Each dot is a group of reports with similar attendance and marks (larger: more reports). Fitted line: marks = ${formatNumber(fit.slope, 2)} × attendance ${fit.intercept < 0 ? "−" : "+"} ${formatNumber(Math.abs(fit.intercept), 1)}${fit.r === null ? "" : `, correlation r = ${formatNumber(fit.r, 2)}`}.`
      : hasReports
        ? "Each dot is a group of reports with similar attendance and marks. A fitted line needs reports with at least two different attendances."
        : "",
    option: hasReports
      ? {
          ...baseOption,
          tooltip: { trigger: "item", confine: true, renderMode: "richText" },
          legend: { bottom: 0, textStyle: { color: palette.muted } },
          grid: { ...baseOption.grid, bottom: 72 },
          xAxis: { type: "value", min: 0, max: 100, ...axisName("Attendance (%)") },
          yAxis: { type: "value", min: 0, max: 100, ...axisName("Marks", 40) },
          series: [
            {
              type: "scatter",
              name: "Reports",
              data: points.map((p) => [p.attendance, p.marks, p.count]),
              symbolSize: (v: number[]) => 6 + 18 * Math.sqrt((v[2] ?? 1) / maxCount),
              itemStyle: { color: palette.primary, opacity: 0.55 },
            },
            ...(fit
              ? [
                  {
                    type: "line",
                    name: "Fitted line",
                    data: fitLine,
                    showSymbol: false,
                    lineStyle: { color: palette.accent, width: 2 },
                    itemStyle: { color: palette.accent },
                  },
                ]
              : []),
          ],
        }
      : null,
    table: {
      head: ["Attendance (mean of group)", "Marks (mean of group)", "Reports"],
      rows: [
        ...points.map((p) => [formatNumber(p.attendance, 1), formatNumber(p.marks, 1), p.count]),
        ...(fit
          ? [
              [
                "Fitted line",
                `slope ${formatNumber(fit.slope, 3)}, intercept ${formatNumber(fit.intercept, 2)}`,
                fit.r === null ? "r undefined" : `r = ${formatNumber(fit.r, 3)}`,
              ],
            ]
          : []),
      ],
    },
  };

  const courseList = [...report.courses].reverse();
  const best = [...report.courses].sort((a, b) => b.averageMarks - a.averageMarks)[0];
  const courses = {
    summary: best
      ? `Mean marks of the ${report.courses.length} most reported courses; the highest is ${best.course} (${formatNumber(best.averageMarks, 1)}).${report.otherCourses > 0 ? ` ${report.otherCourses} other courses are not shown.` : ""}`
      : "",
    option: hasReports
      ? (size: ChartSize) => ({
          ...baseOption,
          ...fittedBarAxes(size, {
            category: "Course",
            labels: courseList.map((c) => c.course),
            maxWidth: 140,
            value: "Average marks",
            range: { min: 0, max: 100 },
          }),
          series: [
            {
              type: "bar",
              name: "Average marks",
              data: courseList.map((c) => c.averageMarks),
              itemStyle: { color: palette.primary },
            },
          ],
        })
      : null,
    table: {
      head: ["Course", "Average marks", "Reports"],
      rows: report.courses.map((c) => [c.course, formatNumber(c.averageMarks, 1), c.reports]),
    },
  };

  const behavior = {
    summary: hasReports
      ? `How teachers rated behavior in ${formatNumber(report.totals.reports)} reports.`
      : "",
    option: hasReports
      ? (size: ChartSize) => ({
          ...countBars(
            size,
            "Behavior",
            report.behavior.map((b) => b.behavior),
            report.behavior,
            { fit: { maxWidth: 90, gap: 48 } },
          ),
        })
      : null,
    table: {
      head: ["Behavior", "Reports"],
      rows: report.behavior.map((b) => [b.behavior, b.count]),
    },
  };

  const students = report.bands.reduce((s, b) => s + b.count, 0);
  const bands = {
    summary:
      students > 0
        ? `The latest prediction of ${formatNumber(students)} students, by the message it shows them.`
        : "",
    option:
      students > 0
        ? (size: ChartSize) => ({
            ...countBars(
              size,
              "Band",
              report.bands.map((b) => bandLabels[b.band]),
              report.bands,
              {
                fit: { maxWidth: 120, short: report.bands.map((b) => bandShortLabels[b.band]) },
                unit: "Students",
                colors: report.bands.map((b) => bandColors[b.band]),
              },
            ),
          })
        : null,
    table: {
      head: ["Band", "Students"],
      rows: report.bands.map((b) => [bandLabels[b.band], b.count]),
    },
  };

  const top = report.importance.factors.slice(0, 10);
  const importance = {
    summary: top[0]
      ? `The ten answers that move the predicted score most on average (mean absolute effect in points out of 20${report.importance.modelVersion ? `, model ${report.importance.modelVersion}` : ""}); ${top[0].label} leads.`
      : "",
    option:
      top.length > 0
        ? (size: ChartSize) => ({
            ...baseOption,
            ...fittedBarAxes(size, {
              category: "Factor",
              labels: [...top].reverse().map((f) => f.label),
              maxWidth: 170,
              value: "Mean effect on the predicted score (points)",
            }),
            series: [
              {
                type: "bar",
                name: "Mean effect (points)",
                data: [...top].reverse().map((f) => f.importance),
                itemStyle: { color: palette.primary },
              },
            ],
          })
        : null,
    table: {
      head: ["Factor", "Mean effect (points)"],
      rows: report.importance.factors.map((f) => [f.label, formatNumber(f.importance, 3)]),
    },
  };

  return { marks, scatter, courses, behavior, bands, importance };
}
