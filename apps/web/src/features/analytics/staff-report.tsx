import {
  type AtRiskStudent,
  type RiskReason,
  riskRules,
  type StaffReport,
} from "@gradecast/contract/analytics";
import { type QuestionKey, questionByKey } from "@gradecast/contract/questionnaire";
import type { Behavior } from "@gradecast/contract/reports";
import { type Band, bandMessages, formatScore } from "@gradecast/contract/score";
import { useMemo } from "react";
import { EmptyState } from "../../components/empty-state.tsx";
import { bandColors, palette } from "../../components/palette.ts";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { questionLabel } from "../questionnaire/text.ts";
import {
  axisName,
  baseOption,
  Chart,
  type ChartProps,
  categoryAxisName,
  fittedCategoryAxis,
  localNumbers,
} from "./chart.tsx";
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
import { ReportPages } from "./report-pages.tsx";
import { type ReportText, reportText, useReportText } from "./report-text.ts";

// The report for teachers and admins: totals, then one chart per question a teacher asks of the
// reports and predictions, then the students at risk and the model's factors. In the page's
// language (report-text.ts); the constants below are the English words.

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

const bandKeys: Record<Band, { range: string; short: string; message: string }> = {
  improve: {
    range: "analytics.report.band.range.improve",
    short: "analytics.report.band.short.improve",
    message: "prediction.band.improve",
  },
  good: {
    range: "analytics.report.band.range.good",
    short: "analytics.report.band.short.good",
    message: "prediction.band.good",
  },
  congratulations: {
    range: "analytics.report.band.range.congratulations",
    short: "analytics.report.band.short.congratulations",
    message: "prediction.band.congratulations",
  },
};

/** A band's range of scores: "below 7". */
export function bandRange(band: Band, text: ReportText = reportText()): string {
  return text.english ? bandRanges[band] : text.t(bandKeys[band].range);
}

/** The message a band's students see: "Good effort!". */
export function bandMessage(band: Band, text: ReportText = reportText()): string {
  return text.english ? bandMessages[band] : text.t(bandKeys[band].message);
}

function bandLabel(band: Band, text: ReportText): string {
  return text.english
    ? bandLabels[band]
    : text.t("analytics.report.band.label", {
        message: bandMessage(band, text),
        range: bandRange(band, text),
      });
}

const behaviorKeys: Record<Behavior, string> = {
  Excellent: "analytics.report.behavior.excellent",
  Good: "analytics.report.behavior.good",
  Average: "analytics.report.behavior.average",
  "Needs Improvement": "analytics.report.behavior.needsImprovement",
  Poor: "analytics.report.behavior.poor",
};

function behaviorLabel(behavior: string, text: ReportText): string {
  const key = behaviorKeys[behavior as Behavior];
  return text.english || !key ? behavior : text.t(key);
}

/** A factor of the model by the questionnaire's words for its question. */
function factorLabel(
  factor: StaffReport["importance"]["factors"][number],
  text: ReportText,
): string {
  if (text.english || !(factor.feature in questionByKey)) return factor.label;
  return questionLabel(text.intl, { key: factor.feature as QuestionKey });
}

export function reasonText(reason: RiskReason, text: ReportText = reportText()): string {
  if (!text.english) {
    switch (reason.kind) {
      case "marks":
        return text.t("analytics.report.reason.marks", {
          value: text.number(reason.value, 3),
          course: reason.course,
          limit: riskRules.marksBelow,
        });
      case "attendance":
        return text.t("analytics.report.reason.attendance", {
          value: text.number(reason.value, 3),
          course: reason.course,
          limit: riskRules.attendanceBelow,
        });
      case "predicted":
        return text.t("analytics.report.reason.predicted", {
          value: text.score(reason.value),
          limit: riskRules.predictedBelow,
        });
    }
  }
  switch (reason.kind) {
    case "marks":
      return `Marks ${reason.value} in ${reason.course} (under ${riskRules.marksBelow})`;
    case "attendance":
      return `Attendance ${reason.value} % in ${reason.course} (under ${riskRules.attendanceBelow} %)`;
    case "predicted":
      return `Predicted score ${formatScore(reason.value)} (under ${riskRules.predictedBelow})`;
  }
}

export function StaffReportView({ report }: { report: StaffReport }) {
  const text = useReportText();
  const { t } = text;
  const charts = useMemo(() => buildCharts(report, text), [report, text]);
  const { totals } = report;
  const noReports = {
    title: t("analytics.report.staff.noReports.title"),
    body: t("analytics.report.staff.noReports.body"),
  };
  const noPredictions = {
    title: t("analytics.report.staff.noPredictions.title"),
    body: t("analytics.report.staff.noPredictions.body"),
  };
  const noModel = {
    title: t("analytics.report.staff.noModel.title"),
    body: t("analytics.report.staff.noModel.body"),
  };
  const shown: ChartProps[] = [
    { title: t("analytics.report.staff.marks.title"), ...charts.marks, empty: noReports },
    { title: t("analytics.report.staff.scatter.title"), ...charts.scatter, empty: noReports },
    {
      title: t("analytics.report.staff.courses.title"),
      ...charts.courses,
      empty: noReports,
      tall: report.courses.length > 8,
    },
    { title: t("analytics.report.staff.behavior.title"), ...charts.behavior, empty: noReports },
    { title: t("analytics.report.staff.bands.title"), ...charts.bands, empty: noPredictions },
    {
      title: t("analytics.report.staff.importance.title"),
      ...charts.importance,
      empty: noModel,
      tall: true,
    },
  ];
  return (
    <ReportPages
      lead={
        <section className="report-totals" aria-label={t("analytics.report.staff.totals")}>
          <Stat label={t("analytics.report.staff.reports")} value={totals.reports} text={text} />
          <Stat
            label={t("analytics.report.staff.studentsReported")}
            value={totals.students}
            text={text}
          />
          <Stat
            label={t("analytics.report.staff.predictions")}
            value={totals.predictions}
            text={text}
          />
        </section>
      }
    >
      {shown.map((chart) => (
        <Chart key={chart.title} {...chart} />
      ))}
      <AtRiskList atRisk={report.atRisk} text={text} />
    </ReportPages>
  );
}

function Stat({ label, value, text }: { label: string; value: number; text: ReportText }) {
  return (
    <div className="report-stat">
      <span className="report-stat-value">{text.number(value)}</span>
      <span className="report-stat-label">{label}</span>
    </div>
  );
}

function AtRiskList({ atRisk, text }: { atRisk: StaffReport["atRisk"]; text: ReportText }) {
  const { t } = text;
  return (
    <section className="card report-wide at-risk-section" aria-labelledby="at-risk-title">
      <h3 id="at-risk-title" className="chart-title">
        {t("analytics.report.atRisk.title")}
      </h3>
      {atRisk.total === 0 ? (
        <EmptyState title={t("analytics.report.atRisk.none.title")}>
          {t("analytics.report.atRisk.none.body", {
            marks: riskRules.marksBelow,
            attendance: riskRules.attendanceBelow,
            predicted: riskRules.predictedBelow,
          })}
        </EmptyState>
      ) : (
        <>
          <p className="chart-summary">
            {t("analytics.report.atRisk.summary", {
              total: atRisk.total,
              count: text.number(atRisk.total),
              listed: atRisk.total > atRisk.students.length ? "some" : "all",
              shown: text.number(atRisk.students.length),
            })}
          </p>
          <ScrollRegion className="table-scroll" label={t("analytics.report.atRisk.table")}>
            <table className="at-risk-table">
              <thead>
                <tr>
                  <th scope="col">{t("analytics.report.atRisk.student")}</th>
                  <th scope="col">{t("analytics.report.atRisk.reasons")}</th>
                </tr>
              </thead>
              <tbody>
                {atRisk.students.map((s: AtRiskStudent) => (
                  <tr key={s.name}>
                    <th scope="row">{s.name}</th>
                    <td>
                      <ul className="reason-list">
                        {s.reasons.map((r) => (
                          <li key={reasonText(r, text)}>{reasonText(r, text)}</li>
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
  text: ReportText,
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
      ...localNumbers(text.intl).axis,
    },
    yAxis: {
      type: "category",
      data: bars.labels,
      ...categoryAxisName(bars.category),
      axisLabel: { color: palette.muted, ...labels.axisLabel },
    },
  };
}

interface CountOptions {
  fit: CategoryFitOptions & { gap?: number };
  /** What is counted (reports unless said). */
  unit?: string;
  colors?: string[];
}

const countUnit = (text: ReportText, options: CountOptions) =>
  options.unit ?? text.t("analytics.report.staff.reports");

/**
 * Counts per category as bars on a fitted axis (marks bins, behaviour ratings, score bands): in
 * the primary colour, or each bar in its own (`colors`).
 */
function countBars(
  size: ChartSize,
  text: ReportText,
  category: string,
  labels: string[],
  items: { count: number }[],
  options: CountOptions,
) {
  const { fit, colors } = options;
  const unit = countUnit(text, options);
  const local = localNumbers(text.intl);
  return {
    ...baseOption,
    tooltip: { ...baseOption.tooltip, ...local.tooltip },
    xAxis: fittedCategoryAxis(size, category, labels, largestCount(items), fit),
    yAxis: { type: "value", minInterval: 1, ...axisName(unit, 44), ...local.axis },
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

/**
 * A figure of counts per category: its summary, its bars (none when there is no summary, as
 * there is nothing to count) and the table of the same counts, headed like the chart's axes.
 */
function countFigure(
  text: ReportText,
  summary: string | null,
  category: string,
  labels: string[],
  items: { count: number }[],
  options: CountOptions,
) {
  return {
    summary: summary ?? "",
    option:
      summary === null
        ? null
        : (size: ChartSize) => countBars(size, text, category, labels, items, options),
    table: {
      head: [category, countUnit(text, options)],
      rows: items.map((item, i) => [labels[i]!, item.count]),
    },
  };
}

export function buildCharts(report: StaffReport, text: ReportText = reportText()) {
  const { t } = text;
  const num = text.number;
  const local = localNumbers(text.intl);
  const hasReports = report.totals.reports > 0;

  const binLabel = (b: { from: number; to: number }, last: boolean) =>
    `${b.from}–${last ? b.to : b.to - 1}`;
  const marksLabels = report.marks.map((b, i) => binLabel(b, i === report.marks.length - 1));
  const modeIndex = report.marks.reduce(
    (best, b, i) => (b.count > (report.marks[best]?.count ?? -1) ? i : best),
    0,
  );
  const marks = countFigure(
    text,
    hasReports
      ? t("analytics.report.staff.marks.summary", {
          count: report.totals.reports,
          reports: num(report.totals.reports),
          mode: marksLabels[modeIndex] ?? "",
        })
      : null,
    t("analytics.report.staff.marks"),
    marksLabels,
    report.marks,
    // Bins are ordered: on a phone every other label may go.
    { fit: { thin: true } },
  );

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
      ? t("analytics.report.staff.scatter.summary", {
          slope: num(fit.slope, 2),
          sign: fit.intercept < 0 ? "−" : "+",
          intercept: num(Math.abs(fit.intercept), 1),
          hasR: fit.r === null ? "no" : "yes",
          r: fit.r === null ? "" : num(fit.r, 2),
        })
      : hasReports
        ? t("analytics.report.staff.scatter.noFit")
        : "",
    option: hasReports
      ? {
          ...baseOption,
          tooltip: { trigger: "item", confine: true, renderMode: "richText" },
          legend: { bottom: 0, textStyle: { color: palette.muted } },
          grid: { ...baseOption.grid, bottom: 72 },
          xAxis: {
            type: "value",
            min: 0,
            max: 100,
            ...axisName(t("analytics.report.staff.attendance")),
            ...local.axis,
          },
          yAxis: {
            type: "value",
            min: 0,
            max: 100,
            ...axisName(t("analytics.report.staff.marks"), 40),
            ...local.axis,
          },
          series: [
            {
              type: "scatter",
              name: t("analytics.report.staff.reports"),
              data: points.map((p) => [p.attendance, p.marks, p.count]),
              symbolSize: (v: number[]) => 6 + 18 * Math.sqrt((v[2] ?? 1) / maxCount),
              itemStyle: { color: palette.primary, opacity: 0.55 },
            },
            ...(fit
              ? [
                  {
                    type: "line",
                    name: t("analytics.report.staff.fittedLine"),
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
      head: [
        t("analytics.report.staff.attendanceMean"),
        t("analytics.report.staff.marksMean"),
        t("analytics.report.staff.reports"),
      ],
      rows: [
        ...points.map((p) => [num(p.attendance, 1), num(p.marks, 1), p.count]),
        ...(fit
          ? [
              [
                t("analytics.report.staff.fittedLine"),
                t("analytics.report.staff.fit", {
                  slope: num(fit.slope, 3),
                  intercept: num(fit.intercept, 2),
                }),
                fit.r === null
                  ? t("analytics.report.staff.rUndefined")
                  : t("analytics.report.staff.r", { r: num(fit.r, 3) }),
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
      ? t("analytics.report.staff.courses.summary", {
          count: report.courses.length,
          best: best.course,
          marks: num(best.averageMarks, 1),
        }) +
        (report.otherCourses > 0
          ? ` ${t("analytics.report.staff.courses.others", { count: report.otherCourses })}`
          : "")
      : "",
    option: hasReports
      ? (size: ChartSize) => ({
          ...baseOption,
          tooltip: { ...baseOption.tooltip, ...local.tooltip },
          ...fittedBarAxes(size, text, {
            category: t("analytics.report.staff.course"),
            labels: courseList.map((c) => c.course),
            maxWidth: 140,
            value: t("analytics.report.staff.averageMarks"),
            range: { min: 0, max: 100 },
          }),
          series: [
            {
              type: "bar",
              name: t("analytics.report.staff.averageMarks"),
              data: courseList.map((c) => c.averageMarks),
              itemStyle: { color: palette.primary },
            },
          ],
        })
      : null,
    table: {
      head: [
        t("analytics.report.staff.course"),
        t("analytics.report.staff.averageMarks"),
        t("analytics.report.staff.reports"),
      ],
      rows: report.courses.map((c) => [c.course, num(c.averageMarks, 1), c.reports]),
    },
  };

  const behavior = countFigure(
    text,
    hasReports
      ? t("analytics.report.staff.behavior.summary", {
          count: report.totals.reports,
          reports: num(report.totals.reports),
        })
      : null,
    t("analytics.report.staff.behavior"),
    report.behavior.map((b) => behaviorLabel(b.behavior, text)),
    report.behavior,
    { fit: { maxWidth: 90, gap: 48 } },
  );

  const students = report.bands.reduce((s, b) => s + b.count, 0);
  const bands = countFigure(
    text,
    students > 0
      ? t("analytics.report.staff.bands.summary", { count: students, students: num(students) })
      : null,
    t("analytics.report.staff.band"),
    report.bands.map((b) => bandLabel(b.band, text)),
    report.bands,
    {
      fit: {
        maxWidth: 120,
        short: report.bands.map((b) =>
          text.english ? bandShortLabels[b.band] : t(bandKeys[b.band].short),
        ),
      },
      unit: t("analytics.report.staff.students"),
      colors: report.bands.map((b) => bandColors[b.band]),
    },
  );

  const top = report.importance.factors.slice(0, 10);
  const importance = {
    summary: top[0]
      ? t("analytics.report.staff.importance.summary", {
          hasModel: report.importance.modelVersion ? "yes" : "no",
          model: report.importance.modelVersion ?? "",
          leader: factorLabel(top[0], text),
        })
      : "",
    option:
      top.length > 0
        ? (size: ChartSize) => ({
            ...baseOption,
            tooltip: { ...baseOption.tooltip, ...local.tooltip },
            ...fittedBarAxes(size, text, {
              category: t("analytics.report.staff.factor"),
              labels: [...top].reverse().map((f) => factorLabel(f, text)),
              maxWidth: 170,
              value: t("analytics.report.staff.importance.axis"),
            }),
            series: [
              {
                type: "bar",
                name: t("analytics.report.staff.meanEffect"),
                data: [...top].reverse().map((f) => f.importance),
                itemStyle: { color: palette.primary },
              },
            ],
          })
        : null,
    table: {
      head: [t("analytics.report.staff.factor"), t("analytics.report.staff.meanEffect")],
      rows: report.importance.factors.map((f) => [factorLabel(f, text), num(f.importance, 3)]),
    },
  };

  return { marks, scatter, courses, behavior, bands, importance };
}
