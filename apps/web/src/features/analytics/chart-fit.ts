// Fitting a chart's labels to the width it is drawn at. ECharts lays labels out but does not
// choose how to: left alone, a phone gets desktop labels run together. Pure functions of the
// drawing's size and a text measure, so that the fit can be tested without a canvas.

import type { ChartSize, Measure } from "../../components/echarts-canvas.ts";

export {
  type ChartSize,
  estimateTextWidth,
  type Measure,
} from "../../components/echarts-canvas.ts";

/** ECharts' default gap between an axis line and its labels. */
const labelMargin = 8;
/** The least space between two neighbouring labels. */
const labelGap = 4;
/** measureText counts the side bearings of the outer glyphs: the ink is about 2 px narrower. */
const bearing = 2;
export const labelLineHeight = 14;
/** Rotated labels at 45° are readable this far apart along the axis (13 px across the line). */
const rotatedSpacing = 13 / Math.SQRT1_2;
/** Rotated labels longer than this are truncated, so that the plot keeps most of the height. */
const rotatedMaxWidth = 128;
const maxLines = 3;

/** Greedy word wrap at `width`; a word wider than `width` stays whole on its own line. */
export function wrapWords(text: string, width: number, measure: Measure): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && measure(`${last} ${word}`) <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Roughly the top tick of a value axis from 0 to `max` (ECharts' nice steps of 1, 2, 3, 5). */
function niceTop(max: number): number {
  if (max <= 0) return 1;
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 3 ? 3 : f <= 5 ? 5 : 10) * power;
  return Math.ceil(max / step) * step;
}

/** The width of a vertical value axis's widest label, for counts up to `max`. */
export function valueLabelWidth(max: number, measure: Measure): number {
  return measure(niceTop(max).toLocaleString("en"));
}

/** The plot's width in a grid with `containLabel`: the canvas less the margins and the labels beside it. */
export function plotWidth(
  width: number,
  grid: { left: number; right: number },
  sideLabels: number,
): number {
  return Math.max(0, width - grid.left - grid.right - sideLabels - labelMargin);
}

export interface CategoryLabels {
  axisLabel: {
    interval: number;
    rotate: number;
    width?: number;
    overflow?: "break" | "truncate";
    lineHeight?: number;
    formatter?: (value: string, index: number) => string;
  };
  /** How far below the axis line the labels reach. */
  depth: number;
  /** Horizontal space each shown label takes along the axis (its ink, or its line across when rotated). */
  footprint: number;
  /** How many labels are drawn. */
  shown: number;
}

export interface CategoryFitOptions {
  /** Shorter labels to draw when the full ones do not fit (the tooltip keeps the full ones). */
  short?: string[];
  /** The widest a label may be drawn, even with room to spare. */
  maxWidth?: number;
  /** Whether labels may be skipped (an ordered axis such as bins; never named categories). */
  thin?: boolean;
}

/**
 * Labels of a horizontal category axis under `plot` pixels: on one line if neighbours stay apart,
 * else wrapped at words into the space per category, else rotated 45° (every nth when `thin`),
 * else upright. Tried with the full labels, then the short ones.
 */
export function fitCategoryLabels(
  labels: string[],
  plot: number,
  measure: Measure,
  options: CategoryFitOptions = {},
): CategoryLabels {
  const n = Math.max(1, labels.length);
  const slot = plot / n;
  const maxWidth = options.maxWidth ?? Number.POSITIVE_INFINITY;
  const ink = (text: string) => Math.max(0, measure(text) - bearing);
  const candidates = options.short ? [labels, options.short] : [labels];
  const formatterFor = (shown: string[]) =>
    shown === labels ? {} : { formatter: (_: string, i: number) => shown[i] ?? "" };

  for (const shown of candidates) {
    const inks = shown.map(ink);
    const apart = inks.every((w, i) => i === 0 || (w + inks[i - 1]!) / 2 + labelGap <= slot);
    if (apart && inks.every((w) => w <= maxWidth)) {
      return {
        axisLabel: { interval: 0, rotate: 0, ...formatterFor(shown) },
        depth: labelLineHeight,
        footprint: Math.max(...inks),
        shown: n,
      };
    }
    const width = Math.floor(Math.min(maxWidth, slot - labelGap));
    const wrapped = shown.map((l) => wrapWords(l, width, measure));
    const fits = wrapped.every(
      (lines) => lines.length <= maxLines && lines.every((line) => ink(line) <= width),
    );
    if (fits) {
      const lines = Math.max(...wrapped.map((l) => l.length));
      return {
        axisLabel: {
          interval: 0,
          rotate: 0,
          width,
          overflow: "break",
          lineHeight: labelLineHeight,
          ...formatterFor(shown),
        },
        depth: lines * labelLineHeight,
        footprint: Math.max(...wrapped.flat().map(ink)),
        shown: n,
      };
    }
  }

  const shown = candidates.at(-1)!;
  const longest = Math.min(rotatedMaxWidth, Math.max(...shown.map(measure)));
  const truncate = { width: rotatedMaxWidth, overflow: "truncate" as const };
  if (slot >= rotatedSpacing || options.thin) {
    const step = Math.max(1, Math.ceil(rotatedSpacing / slot));
    return {
      axisLabel: { interval: step - 1, rotate: 45, ...truncate, ...formatterFor(shown) },
      depth: Math.ceil((longest + labelLineHeight) * Math.SQRT1_2),
      footprint: rotatedSpacing,
      shown: Math.ceil(n / step),
    };
  }
  // Named categories that cannot be skipped: upright labels take the least room along the axis.
  return {
    axisLabel: { interval: 0, rotate: 90, ...truncate, ...formatterFor(shown) },
    depth: Math.ceil(longest),
    footprint: labelLineHeight,
    shown: n,
  };
}

/** The gap from a bottom axis line to its name: below labels that reach `depth`, never closer than `gap`. */
export function nameGapBelow(depth: number, gap = 32): number {
  return Math.max(gap, labelMargin + depth + 10);
}

/** `text` cut to `width` with an ellipsis. */
export function truncate(text: string, width: number, measure: Measure): string {
  if (measure(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && measure(`${cut.trimEnd()}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** `text` wrapped at words onto at most `lines` lines of `width`, the last cut with an ellipsis. */
export function clampLines(text: string, width: number, lines: number, measure: Measure): string {
  const wrapped = wrapWords(text, width, measure);
  const kept = wrapped.slice(0, lines - 1);
  const rest = wrapped.slice(lines - 1).join(" ");
  return [...kept, rest]
    .filter(Boolean)
    .map((line) => truncate(line, width, measure))
    .join("\n");
}

export interface BarLabels {
  axisLabel: {
    width: number;
    overflow: "truncate";
    lineHeight?: number;
    formatter?: (value: string, index: number) => string;
  };
  /** The width the labels take beside the plot. */
  width: number;
}

const barLineHeight = 13;

/**
 * Labels of a vertical category axis (horizontal bars): at most `maxWidth` and 40 % of the drawing
 * wide, wrapped onto two lines when each category's height allows, the rest cut with an ellipsis.
 */
export function fitBarLabels(
  labels: string[],
  size: ChartSize,
  plotHeight: number,
  maxWidth = 170,
): BarLabels {
  const { measure } = size;
  const width = Math.floor(Math.min(maxWidth, size.width * 0.4));
  const lines = plotHeight / Math.max(1, labels.length) >= 2 * barLineHeight ? 2 : 1;
  // 2 px to spare: ECharts truncates a line that measures a hair over its width.
  const shown = labels.map((l) => clampLines(l, width - 2, lines, measure));
  const widest = Math.min(width, Math.max(0, ...shown.flatMap((l) => l.split("\n")).map(measure)));
  if (shown.every((l, i) => l === labels[i])) {
    return { axisLabel: { width, overflow: "truncate" }, width: widest };
  }
  return {
    axisLabel: {
      width,
      overflow: "truncate",
      lineHeight: barLineHeight,
      formatter: (_: string, i: number) => shown[i] ?? "",
    },
    width: widest,
  };
}

/** A value axis across `plot` pixels: ECharts' 5 intervals, fewer when ticks would crowd. */
export function valueTicks(plot: number): { splitNumber?: number } {
  const fit = Math.max(2, Math.floor(plot / 56));
  return fit < 5 ? { splitNumber: fit } : {};
}

/** How wide a bottom axis's name may be: centred under the plot, it must stay on the canvas. */
export function bottomNameWidth(
  width: number,
  grid: { left: number; right: number },
  sideLabels: number,
): number {
  const centre = grid.left + sideLabels + labelMargin + plotWidth(width, grid, sideLabels) / 2;
  return 2 * Math.min(centre, width - centre) - 2 * labelGap;
}

/** An axis name wrapped onto lines no wider than `width`. */
export function fitAxisName(name: string, width: number, measure: Measure): string {
  return measure(name) <= width ? name : wrapWords(name, width, measure).join("\n");
}

/** The height of a horizontal bar chart's plot: the drawing less the grid's margins and the value labels under it. */
export function barPlotHeight(height: number, grid: { top: number; bottom: number }): number {
  return Math.max(0, height - grid.top - grid.bottom - labelMargin - labelLineHeight);
}

/**
 * Dates short enough for an axis: "Aug 13"; with the year when they span years; with the time
 * when two fall on one day; the time alone when all do. Full date-times ("Aug 13, 2026, 09:33
 * AM") are too long: ECharts' hideOverlap then drops all but a few, or all of them on a phone.
 */
export function axisDates(isos: string[], locale?: string): string[] {
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
  // No locale: the platform's (English pages); a Portuguese page gives "13/08" and "13 de ago.".
  const format = new Intl.DateTimeFormat(locale, options);
  return dates.map((d) => format.format(d));
}

/** The least space between two date labels. */
const dateLabelGap = 8;

/** Every how many points a label fits along `plot` pixels (1: every point). */
export function labelStep(labels: string[], plot: number, measure: Measure): number {
  const slot = plot / Math.max(1, labels.length);
  const widest = Math.max(0, ...labels.map(measure));
  return Math.max(1, Math.ceil((widest + dateLabelGap) / slot));
}

/**
 * The labels of a category axis of moments (ISO date-times, oldest first) along `plot` pixels:
 * short dates, as many as fit, counted back from the newest so that it always has its date. The
 * categories themselves stay the full date-times, for the tooltip.
 */
export function dateAxisLabel(isos: string[], plot: number, measure: Measure, locale?: string) {
  const labels = axisDates(isos, locale);
  const step = labelStep(labels, plot, measure);
  const last = labels.length - 1;
  return {
    interval: (index: number) => (last - index) % step === 0,
    formatter: (_: string, index: number) => labels[index] ?? "",
    hideOverlap: true,
  };
}

/** ECharts' default legend: 25 px icons 5 px from their text, 10 px between items and rows, 5 px padding. */
const legend = { icon: 25, textGap: 5, itemGap: 10, itemHeight: 14, padding: 5 };

/** The height of ECharts' default horizontal legend of `names` across `width` pixels, its items wrapped onto rows. */
export function legendHeight(names: readonly string[], width: number, measure: Measure): number {
  const room = width - 2 * legend.padding;
  let rows = 1;
  let used = 0;
  for (const name of names) {
    const item = legend.icon + legend.textGap + measure(name);
    if (used > 0 && used + legend.itemGap + item > room) {
      rows += 1;
      used = item;
    } else used += (used > 0 ? legend.itemGap : 0) + item;
  }
  return rows * legend.itemHeight + (rows - 1) * legend.itemGap + 2 * legend.padding;
}

/**
 * The bottom margin of a grid with a legend at its foot, under a bottom axis with one line of
 * labels and its name: clear of the legend however many rows it wraps onto, never less than `least`.
 */
export function bottomAboveLegend(legendHeight: number, least = 72): number {
  return Math.max(least, legendHeight + 40);
}
