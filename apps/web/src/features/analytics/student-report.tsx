import {
  analyticsMessages,
  type CohortDistribution,
  minGroupSize,
  type StudentReport,
} from "@gradecast/contract/analytics";
import { noPredictionMessage } from "@gradecast/contract/score";
import { useMemo } from "react";
import { Facts } from "../../components/facts.tsx";
import { palette } from "../../components/palette.ts";
import { scoreTooltip } from "../prediction/format.ts";
import { axisName, baseOption, Chart, fittedCategoryAxis, localNumbers } from "./chart.tsx";
import {
  bottomAboveLegend,
  type ChartSize,
  dateAxisLabel,
  legendHeight,
  plotWidth,
  valueLabelWidth,
} from "./chart-fit.ts";
import { ReportPages } from "./report-pages.tsx";
import { type ReportText, reportText, useReportText } from "./report-text.ts";
import { bandMessage, bandRange } from "./staff-report.tsx";

// The report for a student: their latest prediction beside the answers it was made from (with
// its date; earlier ones in the history below), and where their grades stand among other students. Other students only ever appear as groups of at least 5 (the server withholds
// smaller ones), never as names or single values. In the page's language (report-text.ts).

const binLabel = (b: { from: number; to: number }, last: boolean) =>
  `${b.from}–${last ? b.to : b.to - 1}`;

export function StudentReportView({ report }: { report: StudentReport }) {
  const text = useReportText();
  const { t } = text;
  const { latest } = report;
  const history = useMemo(() => historyChart(report, text), [report, text]);
  const g1 = useMemo(
    () => cohortChart(report.cohort.g1, latest.g1, text.t("analytics.report.student.g1"), text),
    [report, latest.g1, text],
  );
  const g2 = useMemo(
    () => cohortChart(report.cohort.g2, latest.g2, text.t("analytics.report.student.g2"), text),
    [report, latest.g2, text],
  );
  const prediction = useMemo(
    () =>
      cohortChart(
        report.cohort.prediction,
        latest.prediction,
        text.t("analytics.report.student.predicted"),
        text,
      ),
    [report, latest.prediction, text],
  );
  // The message the student saw: the server's in English, the catalogue's otherwise.
  const message = text.english
    ? latest.message
    : latest.band
      ? bandMessage(latest.band, text)
      : latest.message === noPredictionMessage
        ? t("messages.noPrediction")
        : latest.message;
  const outOf20 = (v: number) => t("analytics.report.student.outOf20", { value: text.number(v) });
  return (
    <ReportPages>
      <section className="card report-wide report-latest" aria-labelledby="latest-title">
        <h3 id="latest-title" className="chart-title">
          {t("analytics.report.student.title", { name: report.name })}
        </h3>
        {latest.prediction === null ? (
          <p>
            {text.rich("analytics.report.student.noPrediction", {
              message,
              b: (chunks) => <strong>{chunks}</strong>,
            })}
            {latest.at
              ? ` ${t("analytics.report.student.saved", { at: text.dateTime(latest.at) })}`
              : null}
          </p>
        ) : (
          <p>
            {text.rich("analytics.report.student.latest", {
              dated: latest.at ? "yes" : "no",
              at: latest.at ? text.dateTime(latest.at) : "",
              score: text.score(latest.prediction),
              b: (chunks) => <strong>{chunks}</strong>,
            })}{" "}
            <span className={`band band-${latest.band}`}>{message}</span>{" "}
            {latest.band ? (
              <span className="muted">
                {t("analytics.report.student.range", { range: bandRange(latest.band, text) })}
              </span>
            ) : null}
          </p>
        )}
        <Facts
          className="report-facts"
          label={t("analytics.report.student.answers")}
          facts={[
            [
              "G1",
              latest.g1 === null ? t("analytics.report.student.notGivenYet") : outOf20(latest.g1),
            ],
            [
              "G2",
              latest.g2 === null ? t("analytics.report.student.notGivenYet") : outOf20(latest.g2),
            ],
            [
              t("analytics.report.student.predictions"),
              t("analytics.report.student.predictionCount", {
                count: report.predictions.length,
                n: text.number(report.predictions.length),
              }),
            ],
          ]}
        />
      </section>

      <Chart
        title={t("analytics.report.student.history.title")}
        {...history}
        empty={{
          title: t("analytics.report.student.history.empty.title"),
          body: t("analytics.report.student.history.empty.body"),
        }}
        className="report-wide"
      />
      <Chart title={t("analytics.report.student.g1.title")} {...g1} />
      <Chart title={t("analytics.report.student.g2.title")} {...g2} />
      <Chart title={t("analytics.report.student.predicted.title")} {...prediction} />
    </ReportPages>
  );
}

export function historyChart(report: StudentReport, text: ReportText = reportText()) {
  const { t } = text;
  const points = report.predictions;
  const first = points[0];
  const last = points.at(-1);
  const seriesNames = [
    t("analytics.report.student.series.score"),
    t("analytics.report.student.series.low"),
    t("analytics.report.student.series.high"),
  ] as const;
  const local = localNumbers(text.intl);
  return {
    summary:
      first && last
        ? points.length === 1
          ? t("analytics.report.student.history.one", {
              date: text.date(last.at),
              score: text.score(last.score),
              low: text.score(last.low),
              high: text.score(last.high),
            })
          : t("analytics.report.student.history.many", {
              count: text.number(points.length),
              from: text.date(first.at),
              to: text.date(last.at),
              first: text.score(first.score),
              last: text.score(last.score),
            })
        : "",
    option:
      points.length > 0
        ? (size: ChartSize) => ({
            ...baseOption,
            tooltip: {
              ...baseOption.tooltip,
              valueFormatter: text.english
                ? scoreTooltip
                : (value: unknown) =>
                    typeof value === "number" ? text.score(value) : String(value ?? ""),
            },
            legend: { bottom: 0, textStyle: { color: palette.muted } },
            // On a phone the legend wraps onto two rows: the axis and its name stay above them.
            grid: {
              ...baseOption.grid,
              bottom: bottomAboveLegend(legendHeight(seriesNames, size.width, size.measure)),
            },
            // One step per prediction: short dates, as many as fit (the tooltip has the date-time).
            xAxis: {
              type: "category",
              data: points.map((p) => text.dateTime(p.at)),
              ...axisName(t("analytics.report.student.date")),
              axisLabel: {
                color: palette.muted,
                ...dateAxisLabel(
                  points.map((p) => p.at),
                  plotWidth(size.width, baseOption.grid, valueLabelWidth(20, size.measure)),
                  size.measure,
                  text.english ? undefined : text.locale,
                ),
              },
            },
            yAxis: {
              type: "value",
              min: 0,
              max: 20,
              ...axisName(t("analytics.report.student.predicted"), 36),
              ...local.axis,
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
      head: [
        t("analytics.report.student.table.date"),
        "G1",
        "G2",
        t("analytics.report.student.series.score"),
        t("analytics.report.student.table.range"),
      ],
      // Newest first: the latest is the one at the top of the report.
      rows: [...points].reverse().map((p) => [
        text.dateTime(p.at),
        p.g1 ?? t("analytics.report.student.notGiven"),
        p.g2 ?? t("analytics.report.student.notGiven"),
        text.score(p.score),
        t("analytics.report.student.table.between", {
          low: text.score(p.low),
          high: text.score(p.high),
        }),
      ]),
    },
  };
}

/** The server's note on a cohort, in the page's language. */
function cohortNote(note: string | null, text: ReportText): string | null {
  if (text.english || note === null) return note;
  if (note === analyticsMessages.smallCohort)
    return text.t("analytics.report.cohort.smallCohort", { min: minGroupSize });
  if (note === analyticsMessages.smallGroup)
    return text.t("analytics.report.cohort.smallGroup", { min: minGroupSize });
  return note;
}

export function cohortChart(
  cohort: CohortDistribution,
  mine: number | null,
  measure: string,
  text: ReportText = reportText(),
) {
  const { t } = text;
  const note = cohortNote(cohort.note, text);
  const bins = cohort.bins;
  const labels = (bins ?? []).map((b, i, all) => binLabel(b, i === all.length - 1));
  const myIndex =
    mine === null || !bins
      ? -1
      : bins.findIndex((b, i) => mine >= b.from && (mine < b.to || i === bins.length - 1));
  const withheld = (bins ?? []).filter((b) => b.count === null).length;
  const largest = Math.max(0, ...(bins ?? []).map((b) => b.count ?? 0));
  const empty = {
    title: t("analytics.report.cohort.empty.title"),
    body: note ?? t("analytics.report.cohort.empty.body", { min: minGroupSize }),
  };
  if (!bins) return { summary: "", option: null, table: { head: [], rows: [] }, empty };
  const local = localNumbers(text.intl);
  const others = t("analytics.report.cohort.others");
  return {
    summary: [
      t("analytics.report.cohort.summary", {
        mine: myIndex >= 0 ? "yes" : "no",
        bin: labels[myIndex] ?? "",
      }),
      note,
      withheld > 0 ? t("analytics.report.cohort.blank", { count: withheld }) : null,
    ]
      .filter(Boolean)
      .join(" "),
    option: (size: ChartSize) => ({
      ...baseOption,
      tooltip: { ...baseOption.tooltip, ...local.tooltip },
      // Bins are ordered: on a phone every other label may go, as on the staff report.
      xAxis: fittedCategoryAxis(size, measure, labels, largest, { thin: true }),
      yAxis: { type: "value", minInterval: 1, ...axisName(others, 44), ...local.axis },
      series: [
        {
          type: "bar",
          name: others,
          data: bins.map((b, i) => ({
            value: b.count,
            itemStyle: { color: i === myIndex ? palette.accent : palette.primary },
          })),
          ...(myIndex >= 0
            ? {
                markLine: {
                  symbol: "none",
                  silent: true,
                  label: { formatter: t("analytics.report.cohort.you"), color: palette.accent },
                  lineStyle: { color: palette.accent, type: "dashed" },
                  data: [{ xAxis: labels[myIndex] }],
                },
              }
            : {}),
        },
      ],
    }),
    table: {
      head: [measure, others],
      rows: bins.map((b, i) => [
        i === myIndex
          ? t("analytics.report.cohort.yourBin", { bin: labels[i] ?? "" })
          : (labels[i] ?? ""),
        b.count === null ? t("analytics.report.cohort.withheld", { min: minGroupSize }) : b.count,
      ]),
    },
    empty,
  };
}
