import type { EChartsCoreOption, EChartsType } from "echarts/core";
import { type RefObject, useEffect, useState } from "react";

// Drawing an ECharts option into an element, for every chart: ECharts is loaded on first use
// (echarts.ts, imported lazily), and an option built for the drawing's size is rebuilt when the
// width changes, because resizing alone keeps labels laid out for the old width.

/** The width in pixels of a text in the charts' 12 px label font. */
export type Measure = (text: string) => number;

/** What a chart's option is fitted to: the drawing's size in CSS pixels and a text measure. */
export interface ChartSize {
  width: number;
  height: number;
  measure: Measure;
}

/** An option, or one built for the drawing's size (labels fitted to a phone or a desktop). */
export type ChartOption = EChartsCoreOption | ((size: ChartSize) => EChartsCoreOption);

/**
 * About 0.62 em a character, the width of the wide fallback sans (DejaVu) rounded up: an
 * estimate for where no canvas can measure (tests), erring towards labels that fit.
 */
export const estimateTextWidth: Measure = (text) => text.length * 7.5;

export const chartFont = "system-ui, sans-serif";

let measureContext: CanvasRenderingContext2D | null | undefined;

/** Labels' width as the canvas will draw them (ECharts' default 12 px in the charts' font). */
const measureLabel: Measure = (text) => {
  measureContext ??= document.createElement("canvas").getContext("2d");
  if (!measureContext) return estimateTextWidth(text);
  measureContext.font = `12px ${chartFont}`;
  return measureContext.measureText(text).width;
};

const load = () => import("./echarts.ts");

/** Draws `option` into the element of `ref`; true when ECharts could not be loaded. */
export function useEChartsCanvas(
  ref: RefObject<HTMLDivElement | null>,
  option: ChartOption,
): boolean {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    let instance: EChartsType | undefined;
    load()
      .then(({ echarts }) => {
        const element = ref.current;
        if (cancelled || !element) return;
        const chart = echarts.init(element, undefined, { renderer: "canvas" });
        instance = chart;
        let drawnWidth = -1;
        const draw = () => {
          const { clientWidth: width, clientHeight: height } = element;
          if (width === drawnWidth) return;
          drawnWidth = width;
          chart.setOption(
            typeof option === "function"
              ? option({ width, height, measure: measureLabel })
              : option,
            { notMerge: true },
          );
        };
        draw();
        observer = new ResizeObserver(() => {
          chart.resize();
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
      instance?.dispose();
    };
  }, [ref, option]);
  return failed;
}
