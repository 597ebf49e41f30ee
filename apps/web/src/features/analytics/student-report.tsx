import type { CohortDistribution, StudentReport } from "@gradecast/contract/analytics";
import { formatScore } from "@gradecast/contract/score";
import { useMemo } from "react";
import { Facts } from "../../components/facts.tsx";
import { palette } from "../../components/palette.ts";
import { scoreTooltip } from "../prediction/format.ts";
import { axisName, baseOption, Chart, fittedCategoryAxis } from "./chart.tsx";
import {
  bottomAboveLegend,
  type ChartSize,
  dateAxisLabel,
  legendHeight,
  plotWidth,
  valueLabelWidth,
} from "./chart-fit.ts";
import { formatDate, formatDateTime } from "./format.ts";
import { ReportPages } from "./report-pages.tsx";
import { bandRanges } from "./staff-report.tsx";

// The report for a student: their latest prediction beside the answers it was made from (with
// its date; earlier ones in the history below), and where their grades stand among other students. Other students only ever appear as groups of at least 5 (the server withholds
// smaller ones), never as names or single values.

const binLabel = (b: { from: number; to: number }, last: boolean) =>
  `${b.from}–${last ? b.to : b.to - 1}`;

export function StudentReportView({ report }: { report: StudentReport }) {
  const { latest } = report;
  const history = useMemo(() => historyChart(report), [report]);
  const g1 = useMemo(
    () => cohortChart(report.cohort.g1, latest.g1, "First period grade G1 (out of 20)"),
    [report, latest.g1],
  );
  const g2 = useMemo(
    () => cohortChart(report.cohort.g2, latest.g2, "Second period grade G2 (out of 20)"),
    [report, latest.g2],
  );
  const prediction = useMemo(
    () => cohortChart(report.cohort.prediction, latest.prediction, "Predicted score (out of 20)"),
    [report, latest.prediction],
  );
  return (
    <ReportPages>
      <section className="card report-wide report-latest" aria-labelledby="latest-title">
        <h3 id="latest-title" className="chart-title">
          Where you stand, {report.name}
        </h3>
        {latest.prediction === null ? (
          <p>
            <strong>{latest.message}</strong> Fill in Student Input and ask for a prediction to see
            your predicted final score here.
            {latest.at ? ` Your answers saved on ${formatDateTime(latest.at)} are below.` : null}
          </p>
        ) : (
          <p>
            {latest.at ? `On ${formatDateTime(latest.at)}, your` : "Your"} latest predicted final
            score was <strong>{formatScore(latest.prediction)} out of 20</strong>:{" "}
            <span className={`band band-${latest.band}`}>{latest.message}</span>{" "}
            {latest.band ? <span className="muted">({bandRanges[latest.band]})</span> : null}
          </p>
        )}
        <Facts
          className="report-facts"
          label="The answers it was made from"
          facts={[
            ["G1", latest.g1 === null ? "not given yet" : `${latest.g1} out of 20`],
            ["G2", latest.g2 === null ? "not given yet" : `${latest.g2} out of 20`],
            [
              "Predictions",
              `${report.predictions.length}${report.predictions.length > 1 ? " (earlier ones below)" : ""}`,
            ],
          ]}
        />
      </section>

      <Chart
        title="Your predictions over time"
        {...history}
        empty={{
          title: "No predictions yet",
          body: "Each prediction you ask for on Student Input adds a point here, with the range the score is likely to fall in.",
        }}
        className="report-wide"
      />
      <Chart title="Your G1 among other students" {...g1} />
      <Chart title="Your G2 among other students" {...g2} />
      <Chart title="Your prediction among other students" {...prediction} />
    </ReportPages>
  );
}

const seriesNames = ["Predicted score", "Likely range (low)", "Likely range (high)"] as const;

export function historyChart(report: StudentReport) {
  const points = report.predictions;
  const first = points[0];
  const last = points.at(-1);
  return {
    summary:
      first && last
        ? points.length === 1
          ? `One prediction, on ${formatDate(last.at)}: ${formatScore(last.score)} out of 20, likely between ${formatScore(last.low)} and ${formatScore(last.high)}.`
          : `${points.length} predictions from ${formatDate(first.at)} to ${formatDate(last.at)}: from ${formatScore(first.score)} to ${formatScore(last.score)} out of 20.`
        : "",
    option:
      points.length > 0
        ? (size: ChartSize) => ({
            ...baseOption,
            tooltip: { ...baseOption.tooltip, valueFormatter: scoreTooltip },
            legend: { bottom: 0, textStyle: { color: palette.muted } },
            // On a phone the legend wraps onto two rows: the axis and its name stay above them.
            grid: {
              ...baseOption.grid,
              bottom: bottomAboveLegend(legendHeight(seriesNames, size.width, size.measure)),
            },
            // One step per prediction: short dates, as many as fit (the tooltip has the date-time).
            xAxis: {
              type: "category",
              data: points.map((p) => formatDateTime(p.at)),
              ...axisName("Date of the prediction"),
              axisLabel: {
                color: palette.muted,
                ...dateAxisLabel(
                  points.map((p) => p.at),
                  plotWidth(size.width, baseOption.grid, valueLabelWidth(20, size.measure)),
                  size.measure,
                ),
              },
            },
            yAxis: {
              type: "value",
              min: 0,
              max: 20,
              ...axisName("Predicted score (out of 20)", 36),
            },
            series: [
              {
                type: "line",
                name: seriesNames[0],
                data: points.map((p) => p.score),
                itemStyle: { color: palette.primary },
                lineStyle: { color: palette.primary, width: 2 },
                symbolSize: 8,
              },
              // The likely range: its low and its high edge, dashed.
              ...(["low", "high"] as const).map((edge, i) => ({
                type: "line",
                name: seriesNames[i + 1],
                data: points.map((p) => p[edge]),
                lineStyle: { color: palette.soft, type: "dashed" },
                itemStyle: { color: palette.soft },
                showSymbol: false,
              })),
            ],
          })
        : null,
    table: {
      head: ["Date", "G1", "G2", "Predicted score", "Likely range"],
      // Newest first: the latest is the one at the top of the report.
      rows: [...points]
        .reverse()
        .map((p) => [
          formatDateTime(p.at),
          p.g1 ?? "not given",
          p.g2 ?? "not given",
          formatScore(p.score),
          `${formatScore(p.low)} to ${formatScore(p.high)}`,
        ]),
    },
  };
}

export function cohortChart(cohort: CohortDistribution, mine: number | null, measure: string) {
  const bins = cohort.bins;
  const labels = (bins ?? []).map((b, i, all) => binLabel(b, i === all.length - 1));
  const myIndex =
    mine === null || !bins
      ? -1
      : bins.findIndex((b, i) => mine >= b.from && (mine < b.to || i === bins.length - 1));
  const withheld = (bins ?? []).filter((b) => b.count === null).length;
  const largest = Math.max(0, ...(bins ?? []).map((b) => b.count ?? 0));
  const empty = {
    title: "Not enough students yet",
    body:
      cohort.note ??
      "Other students' answers and predictions fill this chart once at least 5 of them have some.",
  };
  if (!bins) return { summary: "", option: null, table: { head: [], rows: [] }, empty };
  return {
    summary: `Other students in bins of 2 points${myIndex >= 0 ? `; you are in ${labels[myIndex]}` : ""}.${cohort.note ? ` ${cohort.note}` : ""}${withheld > 0 ? ` ${withheld} bin${withheld === 1 ? " is" : "s are"} left blank.` : ""}`,
    option: (size: ChartSize) => ({
      ...baseOption,
      // Bins are ordered: on a phone every other label may go, as on the staff report.
      xAxis: fittedCategoryAxis(size, measure, labels, largest, { thin: true }),
      yAxis: { type: "value", minInterval: 1, ...axisName("Other students", 44) },
      series: [
        {
          type: "bar",
          name: "Other students",
          data: bins.map((b, i) => ({
            value: b.count,
            itemStyle: { color: i === myIndex ? palette.accent : palette.primary },
          })),
          ...(myIndex >= 0
            ? {
                markLine: {
                  symbol: "none",
                  silent: true,
                  label: { formatter: "You", color: palette.accent },
                  lineStyle: { color: palette.accent, type: "dashed" },
                  data: [{ xAxis: labels[myIndex] }],
                },
              }
            : {}),
        },
      ],
    }),
    table: {
      head: [measure, "Other students"],
      rows: bins.map((b, i) => [
        `${labels[i]}${i === myIndex ? " (you)" : ""}`,
        b.count === null ? "fewer than 5 (not shown)" : b.count,
      ]),
    },
    empty,
  };
}
