import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { describe, expect, it } from "vitest";
import { estimateTextWidth } from "../../components/echarts-canvas.ts";
import { axisDates } from "../analytics/chart-fit.ts";
import { dateTime } from "./format.ts";
import { trendOption, trendPlotWidth } from "./trend-fit.ts";

const measure = estimateTextWidth;
const local = (y: number, m: number, d: number, h = 9, min = 33) =>
  new Date(y, m - 1, d, h, min).toISOString();

const item = (createdAt: string, prediction = 10): PredictionHistoryItem =>
  ({ id: createdAt, createdAt, prediction }) as PredictionHistoryItem;

/** The labels the axis draws: the formatter's text at the indices the interval keeps. */
function drawnLabels(items: PredictionHistoryItem[], width: number) {
  const { xAxis } = trendOption(items, { width, height: 224, measure });
  const { interval, formatter } = xAxis.axisLabel;
  return xAxis.data
    .map((value, i) => (interval(i) ? formatter(value, i) : null))
    .filter((l): l is string => l !== null);
}

describe("trendOption", () => {
  const four = [local(2026, 8, 13), local(2026, 8, 29), local(2026, 9, 11), local(2026, 9, 26)].map(
    (at) => item(at),
  );
  const many = Array.from({ length: 30 }, (_, i) => item(local(2026, 1, 1 + 3 * i)));

  it.each([254, 309, 354, 942])("labels a %i px wide chart with dates that fit", (width) => {
    for (const items of [four, many]) {
      const drawn = drawnLabels(items, width);
      expect(drawn.length).toBeGreaterThanOrEqual(2);
      // Side by side, the drawn labels fit the plot.
      const widest = Math.max(...drawn.map(measure));
      expect(drawn.length * widest).toBeLessThanOrEqual(
        trendPlotWidth({ width, height: 224, measure }),
      );
    }
  });

  it("always labels the newest prediction", () => {
    const labels = axisDates(many.map((i) => i.createdAt));
    expect(drawnLabels(many, 309).at(-1)).toBe(labels.at(-1));
  });

  it("labels every point of a short history on a phone, the tooltip keeping the date-time", () => {
    expect(drawnLabels(four, 309)).toEqual(axisDates(four.map((i) => i.createdAt)));
    const { xAxis } = trendOption(four, { width: 309, height: 224, measure });
    expect(xAxis.data).toEqual(four.map((i) => dateTime(i.createdAt)));
  });
});

describe("the history's tooltip", () => {
  it("writes the history's tooltip scores with one decimal, as the page does", () => {
    const { tooltip } = trendOption([item(local(2026, 8, 13), 12)], {
      width: 309,
      height: 224,
      measure,
    });
    expect([12, 7.349].map((v) => tooltip.valueFormatter(v))).toEqual(["12.0", "7.3"]);
  });
});
