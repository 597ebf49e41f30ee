import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { type ChartSize, colors, type Measure } from "./chart-canvas.tsx";
import { dateTime } from "./format.ts";

// The history chart's option for the width it is drawn at. Full date-times ("Aug 13, 2026, 09:33
// AM") are too long for the axis: ECharts' hideOverlap then drops all but the first, leaving the
// line without dates. The axis gets short dates, as many as fit, always the newest; the tooltip
// and the table keep the full date-time.

const grid = { left: 8, right: 16, top: 16, bottom: 8 };
/** ECharts' gap between an axis line and its labels, and the least space between two labels. */
const labelMargin = 8;
const labelGap = 8;

/**
 * Dates short enough for the axis: "Aug 13"; with the year when they span years; with the time
 * when two fall on one day; the time alone when all do.
 */
export function axisDates(isos: string[]): string[] {
  const dates = isos.map((iso) => new Date(iso));
  const days = new Set(dates.map((d) => d.toDateString()));
  const years = new Set(dates.map((d) => d.getFullYear()));
  const time = { hour: "2-digit", minute: "2-digit" } as const;
  const options: Intl.DateTimeFormatOptions =
    days.size === 1 && dates.length > 1
      ? time
      : {
          month: "short",
          day: "numeric",
          ...(years.size > 1 ? { year: "numeric" } : {}),
          ...(days.size < dates.length ? time : {}),
        };
  const format = new Intl.DateTimeFormat(undefined, options);
  return dates.map((d) => format.format(d));
}

/** Every how many points a label fits along `plot` pixels (1: every point). */
export function labelStep(labels: string[], plot: number, measure: Measure): number {
  const slot = plot / Math.max(1, labels.length);
  const widest = Math.max(0, ...labels.map(measure));
  return Math.max(1, Math.ceil((widest + labelGap) / slot));
}

/** The plot's width: the drawing less the grid's margins and the 0–20 labels beside it. */
export function trendPlotWidth(size: ChartSize): number {
  return Math.max(0, size.width - grid.left - grid.right - size.measure("20") - labelMargin);
}

/** The line of predictions, oldest first, fitted to `size`. */
export function trendOption(ordered: PredictionHistoryItem[], size: ChartSize) {
  const labels = axisDates(ordered.map((i) => i.createdAt));
  const step = labelStep(labels, trendPlotWidth(size), size.measure);
  const last = labels.length - 1;
  return {
    animation: false,
    textStyle: { fontFamily: "system-ui, sans-serif", color: colors.text },
    grid: { ...grid, containLabel: true },
    tooltip: { trigger: "axis", confine: true },
    xAxis: {
      type: "category",
      // The categories are the full date-times, which the tooltip shows.
      data: ordered.map((i) => dateTime(i.createdAt)),
      axisLabel: {
        color: colors.muted,
        // Counted back from the newest, so that the latest prediction always has its date.
        interval: (index: number) => (last - index) % step === 0,
        formatter: (_: string, index: number) => labels[index] ?? "",
        hideOverlap: true,
      },
    },
    yAxis: {
      type: "value",
      min: 0,
      max: 20,
      interval: 5,
      axisLabel: { color: colors.muted },
      splitLine: { lineStyle: { color: colors.grid } },
    },
    series: [
      {
        type: "line",
        data: ordered.map((i) => Number(i.prediction.toFixed(1))),
        lineStyle: { color: colors.line, width: 2 },
        itemStyle: { color: colors.line },
        symbolSize: 7,
      },
    ],
  };
}
