import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { shownScore } from "@gradecast/contract/score";
import type { ChartSize } from "../../components/echarts-canvas.ts";
import { palette } from "../../components/palette.ts";
import { dateAxisLabel } from "../analytics/chart-fit.ts";
import { dateTime, scoreTooltip } from "./format.ts";

// The history chart's option for the width it is drawn at. Full date-times ("Aug 13, 2026, 09:33
// AM") are too long for the axis: ECharts' hideOverlap then drops all but the first, leaving the
// line without dates. The axis gets short dates, as many as fit, always the newest; the tooltip
// and the table keep the full date-time (the date labels are shared with the analytics report:
// ../analytics/chart-fit.ts).

const grid = { left: 8, right: 16, top: 16, bottom: 8 };
/** ECharts' gap between an axis line and its labels. */
const labelMargin = 8;

/** The plot's width: the drawing less the grid's margins and the 0–20 labels beside it. */
export function trendPlotWidth(size: ChartSize): number {
  return Math.max(0, size.width - grid.left - grid.right - size.measure("20") - labelMargin);
}

/** How the chart writes a score and a date-time: the page's language (English by default). */
export interface TrendWriting {
  score: (value: unknown) => string;
  dayTime: (iso: string) => string;
}

const english: TrendWriting = { score: scoreTooltip, dayTime: dateTime };

/** The line of predictions, oldest first, fitted to `size`. */
export function trendOption(
  ordered: PredictionHistoryItem[],
  size: ChartSize,
  writing: TrendWriting = english,
) {
  return {
    animation: false,
    textStyle: { fontFamily: "system-ui, sans-serif", color: palette.text },
    grid: { ...grid, containLabel: true },
    // On the canvas: the CSP refuses the inline styles of an HTML tooltip.
    tooltip: {
      trigger: "axis",
      confine: true,
      renderMode: "richText",
      valueFormatter: writing.score,
    },
    xAxis: {
      type: "category",
      // The categories are the full date-times, which the tooltip shows.
      data: ordered.map((i) => writing.dayTime(i.createdAt)),
      axisLabel: {
        color: palette.muted,
        // Short dates, counted back from the newest, so that the latest prediction always has its date.
        ...dateAxisLabel(
          ordered.map((i) => i.createdAt),
          trendPlotWidth(size),
          size.measure,
        ),
      },
    },
    yAxis: {
      type: "value",
      min: 0,
      max: 20,
      interval: 5,
      axisLabel: { color: palette.muted },
      splitLine: { lineStyle: { color: palette.grid } },
    },
    series: [
      {
        type: "line",
        data: ordered.map((i) => shownScore(i.prediction)),
        lineStyle: { color: palette.primary, width: 2 },
        itemStyle: { color: palette.primary },
        symbolSize: 7,
      },
    ],
  };
}
