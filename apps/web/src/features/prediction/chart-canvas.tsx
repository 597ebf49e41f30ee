import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { useEffect, useRef, useState } from "react";

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

export function ChartCanvas({
  option,
  label,
  className,
}: {
  option: EChartsCoreOption;
  label: string;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    import("./echarts.ts")
      .then(({ echarts }) => {
        if (cancelled || !ref.current) return;
        chart.current = echarts.init(ref.current, undefined, { renderer: "canvas" });
        chart.current.setOption(option);
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(ref.current);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [option]);

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
