import { binEdges } from "@gradecast/contract/analytics";
import { behaviors } from "@gradecast/contract/reports";
import { describe, expect, it } from "vitest";
import { baseOption } from "./chart.tsx";
import {
  axisDates,
  bottomAboveLegend,
  type CategoryLabels,
  type ChartSize,
  clampLines,
  dateAxisLabel,
  estimateTextWidth,
  fitAxisName,
  fitBarLabels,
  fitCategoryLabels,
  legendHeight,
  plotWidth,
  valueLabelWidth,
  valueTicks,
  wrapWords,
} from "./chart-fit.ts";
import { formatDateTime } from "./format.ts";
import { staffReport } from "./staff-report.fixture.ts";
import { bandLabels, buildCharts } from "./staff-report.tsx";

const measure = estimateTextWidth;
// The drawing's width in a report card at a 320, 375 and 420 px wide phone, and on a 1280 px desktop.
const phones = [254, 309, 354];
const desktop = 551;
const size = (width: number, height = 300): ChartSize => ({ width, height, measure });
const plot = (width: number, maxValue: number) =>
  plotWidth(width, baseOption.grid, valueLabelWidth(maxValue, measure));

const marks = binEdges(100, 10).map((b, i) => `${b.from}–${i === 9 ? b.to : b.to - 1}`);
const bandNames = Object.values(bandLabels);
const shortBands = ["Below 7", "7 to under 14", "14 and above"];

/** The drawn labels' footprints side by side must fit the plot. */
const fitsAlong = (fit: CategoryLabels, width: number) =>
  fit.footprint * fit.shown <= width && fit.axisLabel.rotate !== undefined;

describe("fitCategoryLabels", () => {
  it.each(phones)("fits the marks bins along a %i px drawing, rotated or thinned", (width) => {
    const fit = fitCategoryLabels(marks, plot(width, 250), measure, { thin: true });
    expect(fitsAlong(fit, plot(width, 250))).toBe(true);
    expect(fit.axisLabel.rotate).toBeGreaterThan(0);
  });

  it("keeps every bin on one line at 1280 px, as before", () => {
    const fit = fitCategoryLabels(marks, plot(desktop, 250), measure, { thin: true });
    expect(fit.axisLabel).toEqual({ interval: 0, rotate: 0 });
    expect(fit.footprint * marks.length).toBeLessThanOrEqual(plot(desktop, 250));
  });

  it.each(phones)("names every behaviour at %i px without overlap", (width) => {
    const fit = fitCategoryLabels([...behaviors], plot(width, 340), measure, { maxWidth: 90 });
    expect(fit.axisLabel.interval).toBe(0);
    expect(fit.shown).toBe(behaviors.length);
    expect(fitsAlong(fit, plot(width, 340))).toBe(true);
  });

  it("wraps the behaviours at 1280 px as before (width 90, broken at words)", () => {
    const fit = fitCategoryLabels([...behaviors], plot(desktop, 340), measure, { maxWidth: 90 });
    expect(fit.axisLabel).toMatchObject({ interval: 0, rotate: 0, overflow: "break" });
    for (const b of behaviors) {
      expect(wrapWords(b, fit.axisLabel.width!, measure)).toEqual(wrapWords(b, 90, measure));
    }
  });

  it.each(phones)("shortens the band names at %i px and wraps them into their space", (width) => {
    const fit = fitCategoryLabels(bandNames, plot(width, 150), measure, {
      maxWidth: 120,
      short: shortBands,
    });
    expect(fit.axisLabel.rotate).toBe(0);
    expect(bandNames.map((name, i) => fit.axisLabel.formatter?.(name, i))).toEqual(shortBands);
    expect(fit.footprint * bandNames.length).toBeLessThanOrEqual(plot(width, 150));
    expect(fit.depth).toBeLessThanOrEqual(3 * 14);
  });

  it("keeps the full band names at 1280 px, broken at 120 px", () => {
    const fit = fitCategoryLabels(bandNames, plot(desktop, 150), measure, {
      maxWidth: 120,
      short: shortBands,
    });
    expect(fit.axisLabel).toMatchObject({ interval: 0, rotate: 0, width: 120, overflow: "break" });
    expect(fit.axisLabel.formatter).toBeUndefined();
  });

  it("skips labels only on an axis that may be thinned", () => {
    const many = Array.from({ length: 40 }, (_, i) => `Label ${i}`);
    expect(
      fitCategoryLabels(many, 200, measure, { thin: true }).axisLabel.interval,
    ).toBeGreaterThan(0);
    expect(fitCategoryLabels(many, 200, measure).axisLabel.interval).toBe(0);
  });
});

describe("fitBarLabels and the value axis of horizontal bars", () => {
  const factors = [
    "Second period grade (G2)",
    "School absences",
    "Reason for choosing this school",
    "Extra-curricular activities",
    "Family relationships",
  ];

  it.each(phones)("keeps factor labels within two fifths of a %i px drawing", (width) => {
    const fit = fitBarLabels(factors, size(width, 380), 278, 170);
    expect(fit.axisLabel.width).toBeLessThanOrEqual(width * 0.4);
    const shown = factors.map((f, i) => fit.axisLabel.formatter?.(f, i) ?? f);
    for (const line of shown.flatMap((l) => l.split("\n"))) {
      expect(measure(line)).toBeLessThanOrEqual(fit.axisLabel.width);
    }
    expect(shown.every((l) => l.split("\n").length <= 2)).toBe(true);
  });

  it("keeps the 170 px labels at 1280 px", () => {
    const fit = fitBarLabels(factors, size(desktop, 380), 278, 170);
    expect(fit.axisLabel.width).toBe(170);
  });

  it("clamps a label to its lines with an ellipsis", () => {
    expect(clampLines("Reason for choosing this school", 80, 2, measure)).toBe(
      "Reason for\nchoosing…",
    );
    expect(clampLines("Age", 80, 2, measure)).toBe("Age");
  });

  it("thins value ticks and wraps the axis name on a phone only", () => {
    expect(valueTicks(130)).toEqual({ splitNumber: 2 });
    expect(valueTicks(333)).toEqual({});
    const name = "Mean effect on the predicted score (points)";
    const wrapped = fitAxisName(name, 180, measure).split("\n");
    expect(wrapped.length).toBeGreaterThan(1);
    for (const line of wrapped) expect(measure(line)).toBeLessThanOrEqual(180);
    expect(fitAxisName(name, 400, measure)).toBe(name);
  });
});

describe("buildCharts", () => {
  const report = staffReport({
    totals: { reports: 1000, students: 300, predictions: 258 },
    marks: binEdges(100, 10).map((b, i) => ({ ...b, count: 20 * i + 5 })),
    courses: [{ course: "Computer Science", averageMarks: 62, reports: 100 }],
    behavior: behaviors.map((behavior, i) => ({ behavior, count: 300 - 60 * i })),
    bands: [
      { band: "improve", count: 44 },
      { band: "good", count: 145 },
      { band: "congratulations", count: 69 },
    ],
  });
  type Built = { xAxis: { axisLabel: Record<string, unknown>; name: string; nameGap: number } };
  const draw = (option: unknown, width: number) =>
    (option as (s: ChartSize) => Built)(size(width, 380));

  it("refits the marks and band axes to the width", () => {
    const charts = buildCharts(report);
    expect(draw(charts.marks.option, 309).xAxis.axisLabel).toMatchObject({ rotate: 45 });
    expect(draw(charts.marks.option, desktop).xAxis.axisLabel).toMatchObject({
      interval: 0,
      rotate: 0,
    });
    const phoneBands = draw(charts.bands.option, 309).xAxis;
    expect(phoneBands.axisLabel.formatter).toBeTypeOf("function");
    // The name goes under labels wrapped onto two lines, not through them.
    expect(phoneBands.nameGap).toBeGreaterThanOrEqual(8 + 2 * 14);
  });

  it("wraps the importance axis name on a phone and keeps it whole on a desktop", () => {
    const charts = buildCharts(report);
    expect(draw(charts.importance.option, 309).xAxis.name).toContain("\n");
    expect(draw(charts.importance.option, desktop).xAxis.name).toBe(
      "Mean effect on the predicted score (points)",
    );
  });
});

const local = (y: number, m: number, d: number, h = 9, min = 33) =>
  new Date(y, m - 1, d, h, min).toISOString();

describe("axisDates", () => {
  it("writes days without the year or time when they need neither", () => {
    const labels = axisDates([local(2026, 8, 13), local(2026, 9, 26)]);
    expect(labels.every((l) => !l.includes("2026") && !l.includes("33"))).toBe(true);
    expect(labels[0]!.length).toBeLessThan(formatDateTime(local(2026, 8, 13)).length);
  });

  it("adds the year when the dates span years", () => {
    const labels = axisDates([local(2025, 12, 30), local(2026, 1, 2)]);
    expect(labels[0]).toContain("2025");
    expect(labels[1]).toContain("2026");
  });

  it("adds the time when two fall on one day, and shows the time alone when all do", () => {
    const twoOnOneDay = axisDates([
      local(2026, 8, 13, 9),
      local(2026, 8, 13, 15),
      local(2026, 9, 1),
    ]);
    expect(new Set(twoOnOneDay).size).toBe(3);
    const oneDay = axisDates([local(2026, 8, 13, 9, 5), local(2026, 8, 13, 15, 45)]);
    expect(oneDay.every((l) => l.includes("05") || l.includes("45"))).toBe(true);
    expect(oneDay.some((l) => l.includes("13"))).toBe(false);
  });
});

describe("dateAxisLabel", () => {
  const isos = Array.from({ length: 30 }, (_, i) => local(2026, 1, 1 + 3 * i));
  const drawn = (plot: number) => {
    const label = dateAxisLabel(isos, plot, measure);
    return isos.map((iso, i) => (label.interval(i) ? label.formatter(iso, i) : null));
  };

  it("draws short dates that fit side by side, always the newest", () => {
    for (const plot of [160, 230, 1000]) {
      const shown = drawn(plot).filter((l): l is string => l !== null);
      expect(shown.length).toBeGreaterThanOrEqual(2);
      expect(shown.length * Math.max(...shown.map(measure))).toBeLessThanOrEqual(plot);
      expect(drawn(plot).at(-1)).toBe(axisDates(isos).at(-1));
    }
  });

  it("draws every date of a short history", () => {
    const four = isos.slice(0, 4);
    const label = dateAxisLabel(four, 230, measure);
    expect(four.map((_, i) => label.interval(i))).toEqual([true, true, true, true]);
  });
});

describe("legendHeight", () => {
  const names = ["Predicted score", "Likely range (low)", "Likely range (high)"];

  it("is one row on a desktop and wraps onto more on a phone", () => {
    // About the width of the 12 px system sans in Chromium.
    const browser: typeof measure = (text) => text.length * 6;
    expect(legendHeight(names, 1160, browser)).toBe(24);
    expect(legendHeight(names, 309, browser)).toBe(48);
    expect(legendHeight(names, 254, browser)).toBe(72);
  });

  it("keeps a grid's bottom as it was over one row, and lifts it over more", () => {
    expect(bottomAboveLegend(24)).toBe(72);
    expect(bottomAboveLegend(48)).toBe(88);
  });
});
