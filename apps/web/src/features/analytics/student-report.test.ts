import type { CohortBin, StudentReport } from "@gradecast/contract/analytics";
import { describe, expect, it } from "vitest";
import { baseOption } from "./chart.tsx";
import {
  axisDates,
  type ChartSize,
  estimateTextWidth,
  legendHeight,
  plotWidth,
  valueLabelWidth,
} from "./chart-fit.ts";
import { formatDateTime } from "./format.ts";
import { cohortChart, historyChart } from "./student-report.tsx";

const measure = estimateTextWidth;
// The drawing's width at a 320 and 375 px wide phone, and on a 1280 px desktop (a wide card, and
// one of two cards side by side).
const phones = [254, 309];
const wide = 1160;
const half = 551;
const size = (width: number): ChartSize => ({ width, height: 300, measure });

const local = (m: number, d: number) => new Date(2026, m - 1, d, 9, 46).toISOString();
const points = [local(8, 13), local(8, 29), local(9, 11), local(9, 26)].map((at, i) => ({
  at,
  g1: 9,
  g2: 9,
  score: 6 + i,
  low: 5 + i,
  high: 8 + i,
}));
const cohort = (counts: (number | null)[]) => ({
  bins: counts.map((count, i): CohortBin => ({ from: 2 * i, to: 2 * i + 2, count })),
  note: null,
});
const report: StudentReport = {
  scope: "student",
  generatedAt: "2026-11-23T15:42:00.000Z",
  name: "Test Student",
  predictions: points,
  latest: {
    at: "2026-11-23T15:00:00.000Z",
    g1: 9,
    g2: 9,
    prediction: 9.3,
    band: "good",
    message: "Good effort!",
  },
  cohort: {
    g1: cohort([null, null, 14, 31, 47, 48, 63, 30, 12, 8]),
    g2: cohort([null, 5, 13, 31, 49, 38, 48, 46, 14, 11]),
    prediction: cohort([null, null, 22, 34, 50, 38, 44, 50, 15, null]),
  },
} as StudentReport;

interface Drawn {
  grid: { bottom: number };
  xAxis: {
    data: string[];
    nameGap: number;
    axisLabel: {
      interval: number | ((i: number) => boolean);
      rotate?: number;
      formatter?: (value: string, i: number) => string;
    };
  };
}
const draw = (option: unknown, width: number) => (option as (s: ChartSize) => Drawn)(size(width));

describe("the history chart", () => {
  const labelsAt = (width: number) => {
    const { xAxis } = draw(historyChart(report).option, width);
    const { interval, formatter } = xAxis.axisLabel;
    return xAxis.data
      .map((value, i) =>
        typeof interval === "function" && interval(i) ? (formatter?.(value, i) ?? value) : null,
      )
      .filter((l): l is string => l !== null);
  };

  const dates = axisDates(points.map((p) => p.at));

  it.each(phones)("labels the predictions with short dates that fit at %i px", (width) => {
    const shown = labelsAt(width);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(shown.at(-1)).toBe(dates.at(-1));
    const plot = plotWidth(width, baseOption.grid, valueLabelWidth(20, measure));
    expect(shown.length * Math.max(...shown.map(measure))).toBeLessThanOrEqual(plot);
    // "Aug 13": no year (one year) and no time (one a day).
    for (const label of shown) expect(label).not.toMatch(/2026|46/);
  });

  it("labels every prediction with a short date on a desktop", () => {
    expect(labelsAt(wide)).toEqual(dates);
  });

  it("keeps the full date-time for the tooltip", () => {
    expect(draw(historyChart(report).option, 309).xAxis.data).toEqual(
      points.map((p) => formatDateTime(p.at)),
    );
  });

  it.each(phones)("keeps the axis name clear of the legend's wrapped rows at %i px", (width) => {
    const { grid, xAxis } = draw(historyChart(report).option, width);
    const legend = legendHeight(
      ["Predicted score", "Likely range (low)", "Likely range (high)"],
      width,
      measure,
    );
    expect(legend).toBeGreaterThan(24);
    // The axis line is at least a line of labels (8 + 14 px) above the grid's bottom; the name's
    // 16 px line is centred nameGap below it.
    const nameBottom = grid.bottom + 8 + 14 - (xAxis.nameGap + 8);
    expect(nameBottom).toBeGreaterThanOrEqual(legend + 8);
  });

  it("keeps the desktop's margin", () => {
    expect(draw(historyChart(report).option, wide).grid.bottom).toBe(72);
  });

  it("writes the scores in its tooltip with one decimal, as the page does", () => {
    const { tooltip } = draw(historyChart(report).option, wide) as unknown as {
      tooltip: { valueFormatter: (value: unknown) => string };
    };
    expect([12, 7.349, 14.96].map(tooltip.valueFormatter)).toEqual(["12.0", "7.3", "15.0"]);
  });
});

describe("the cohort charts", () => {
  const chart = () => cohortChart(report.cohort.g1, 9, "First period grade G1 (out of 20)");

  it.each(phones)("turns the bins' labels, thinned as needed, at %i px", (width) => {
    const { axisLabel, nameGap } = draw(chart().option, width).xAxis;
    expect(axisLabel.rotate).toBe(45);
    // Turned labels 13 px apart across their lines.
    const slot = plotWidth(width, baseOption.grid, valueLabelWidth(63, measure)) / 10;
    expect((Number(axisLabel.interval) + 1) * slot).toBeGreaterThanOrEqual(13 / Math.SQRT1_2);
    // The axis name goes below the turned labels.
    expect(nameGap).toBeGreaterThan(32);
  });

  it("labels every bin upright on a desktop", () => {
    expect(draw(chart().option, half).xAxis.axisLabel).toMatchObject({ interval: 0, rotate: 0 });
  });
});
