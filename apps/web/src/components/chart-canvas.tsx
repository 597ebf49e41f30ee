import { useRef } from "react";
import { useIntlOrNull } from "../i18n/intl.tsx";
import { type ChartOption, useEChartsCanvas } from "./echarts-canvas.ts";

/**
 * A chart drawn by ECharts on a canvas, loaded on first use. The canvas is one image for
 * assistive technology (its label says what it shows); every chart also has a table with the
 * same figures, which stays when the chart cannot be drawn.
 */
export function ChartCanvas({
  option,
  label,
  className,
}: {
  option: ChartOption;
  label: string;
  /** Its size (the canvas fills the element). */
  className: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const failed = useEChartsCanvas(ref, option);
  // The page's language; a chart drawn on its own, outside the page's provider, speaks English.
  const intl = useIntlOrNull();
  if (failed) {
    return (
      <p className="field-error" role="alert">
        {intl
          ? intl.formatMessage({ id: "analytics.report.chart.failed" })
          : "The chart could not be drawn; the table below has the same figures."}
      </p>
    );
  }
  return <div ref={ref} className={className} role="img" aria-label={label} />;
}
