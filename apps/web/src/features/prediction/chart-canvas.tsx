import { useRef } from "react";
import { type ChartOption, useEChartsCanvas } from "../../components/echarts-canvas.ts";

// A chart drawn by ECharts on a canvas, loaded on first use. The canvas is one image for
// assistive technology (its label says what it shows); every chart on this screen also has a
// table with the same figures.

export const colors = {
  up: "#146c43",
  down: "#b42318",
  line: "#1d4ed8",
  text: "#1b2430",
  muted: "#4b5563",
  grid: "#d5dae1",
};

const loadECharts = () => import("./echarts.ts");

export function ChartCanvas({
  option,
  label,
  className,
}: {
  option: ChartOption;
  label: string;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const failed = useEChartsCanvas(ref, option, loadECharts);

  if (failed) {
    return (
      <p className="field-error" role="alert">
        The chart could not be drawn; the table has the same figures.
      </p>
    );
  }
  return (
    <div
      ref={ref}
      className={["prediction-chart", className].filter(Boolean).join(" ")}
      role="img"
      aria-label={label}
      data-chart="ready"
    />
  );
}
