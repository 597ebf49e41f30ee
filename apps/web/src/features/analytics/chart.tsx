import { useId } from "react";
import { ChartCanvas } from "../../components/chart-canvas.tsx";
import { type ChartOption, type ChartSize, chartFont } from "../../components/echarts-canvas.ts";
import { EmptyState } from "../../components/empty-state.tsx";
import { palette } from "../../components/palette.ts";
import { ScrollTable } from "../../components/scroll-table.tsx";
import type { PageIntl } from "../../i18n/intl.tsx";
import {
  type CategoryFitOptions,
  fitCategoryLabels,
  nameGapBelow,
  plotWidth,
  valueLabelWidth,
} from "./chart-fit.ts";
import { useReportText } from "./report-text.ts";

// One chart of the report: a titled figure with a one-sentence summary, the drawing (ECharts on
// a canvas, loaded on first use), and the same figures as a table for screen readers and anyone
// who prefers numbers. With no data it says what data would fill it instead.

export interface ChartTable {
  head: string[];
  rows: (string | number)[][];
}

export interface ChartProps {
  title: string;
  /** One sentence that says what the chart shows; the canvas's accessible name. */
  summary: string;
  /** Null draws the empty state. */
  option: ChartOption | null;
  table: ChartTable;
  empty: { title: string; body: string };
  /** Taller drawing for charts with many categories. */
  tall?: boolean;
  className?: string;
}

const fontFamily = chartFont;

/** Shared look of every chart: readable type, axis names in the tokens' colours. */
export const baseOption = {
  animation: false,
  textStyle: { fontFamily, color: palette.text },
  grid: { left: 56, right: 24, top: 24, bottom: 56, containLabel: true },
  // Drawn on the canvas: an HTML tooltip is styled inline, which the CSP (style-src 'self') refuses.
  tooltip: { trigger: "axis", confine: true, renderMode: "richText" },
};

export function axisName(name: string, gap = 32) {
  return {
    name,
    nameLocation: "middle" as const,
    nameGap: gap,
    // Line height for names fitted onto two lines on a phone.
    nameTextStyle: { color: palette.muted, fontSize: 12, lineHeight: 16 },
    axisLabel: { color: palette.muted },
    splitLine: { lineStyle: { color: palette.grid } },
  };
}

/**
 * Figures on a value axis and in the tooltip in the page's language: nothing to add in English
 * (ECharts writes 12.5); 12,5 in Portuguese. Spread `axis` after `axisName` on a value axis.
 */
export function localNumbers(intl: PageIntl) {
  if (intl.locale === "en") return { axis: {}, tooltip: {} };
  const format = (value: unknown) =>
    typeof value === "number" ? intl.formatNumber(value) : String(value ?? "");
  return {
    axis: { axisLabel: { color: palette.muted, formatter: (value: number) => format(value) } },
    tooltip: { valueFormatter: format },
  };
}

/** The name of a vertical category axis, above it (its labels take the space beside it). */
export function categoryAxisName(name: string) {
  return {
    name,
    nameLocation: "end" as const,
    nameTextStyle: { color: palette.muted, fontSize: 12, align: "right" as const },
  };
}

/**
 * A bottom category axis of a bar chart whose labels fit the space per category at this size;
 * `maxValue` is the largest bar, whose labels on the value axis take room beside the plot.
 */
export function fittedCategoryAxis(
  size: ChartSize,
  name: string,
  data: string[],
  maxValue: number,
  options: CategoryFitOptions & { gap?: number } = {},
) {
  const plot = plotWidth(size.width, baseOption.grid, valueLabelWidth(maxValue, size.measure));
  const fit = fitCategoryLabels(data, plot, size.measure, options);
  return {
    type: "category",
    data,
    ...axisName(name, nameGapBelow(fit.depth, options.gap)),
    axisLabel: { color: palette.muted, ...fit.axisLabel },
  };
}

export function Chart({ title, summary, option, table, empty, tall, className }: ChartProps) {
  const headingId = useId();
  const { t } = useReportText();
  return (
    <figure
      className={["card", "chart-card", className].filter(Boolean).join(" ")}
      aria-labelledby={headingId}
    >
      <h3 id={headingId} className="chart-title">
        {title}
      </h3>
      {option ? (
        <>
          <p className="chart-summary">{summary}</p>
          <ChartCanvas
            option={option}
            label={t("analytics.report.chart.label", { title, summary })}
            className={tall ? "chart-canvas chart-canvas-tall" : "chart-canvas"}
          />
          <details className="chart-table">
            <summary>{t("analytics.report.chart.showTable")}</summary>
            <ScrollTable
              className="table-scroll"
              label={t("analytics.report.chart.tableLabel", { title })}
              caption={title}
              columns={table.head}
            >
              {table.rows.map((row) => (
                <tr key={row.join("|")}>
                  {row.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells of a fixed row
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </ScrollTable>
          </details>
        </>
      ) : (
        <EmptyState title={empty.title}>{empty.body}</EmptyState>
      )}
    </figure>
  );
}
