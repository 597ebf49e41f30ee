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

/** The width in pixels of a text in the charts' 12 px label font. */
export type Measure = (text: string) => number;

/** What an option is fitted to: the drawing's size in CSS pixels and a text measure. */
export interface ChartSize {
  width: number;
  height: number;
  measure: Measure;
}

/** About 0.62 em a character (the wide fallback sans, rounded up), where no canvas can measure. */
export const estimateTextWidth: Measure = (text) => text.length * 7.5;

let measureContext: CanvasRenderingContext2D | null | undefined;

const measureLabel: Measure = (text) => {
  measureContext ??= document.createElement("canvas").getContext("2d");
  if (!measureContext) return estimateTextWidth(text);
  measureContext.font = "12px system-ui, sans-serif";
  return measureContext.measureText(text).width;
};

export function ChartCanvas({
  option,
  label,
  className,
}: {
  /** An option, or one built for the drawing's size (axis labels fitted to a phone or a desktop). */
  option: EChartsCoreOption | ((size: ChartSize) => EChartsCoreOption);
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
        const element = ref.current;
        if (cancelled || !element) return;
        const instance = echarts.init(element, undefined, { renderer: "canvas" });
        chart.current = instance;
        // A fitted option is rebuilt when the width changes: resizing alone keeps the labels
        // laid out for the old width.
        let drawnWidth = -1;
        const draw = () => {
          const { clientWidth: width, clientHeight: height } = element;
          if (width === drawnWidth) return;
          drawnWidth = width;
          instance.setOption(
            typeof option === "function"
              ? option({ width, height, measure: measureLabel })
              : option,
            { notMerge: true },
          );
        };
        draw();
        observer = new ResizeObserver(() => {
          instance.resize();
          if (typeof option === "function") draw();
        });
        observer.observe(element);
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
