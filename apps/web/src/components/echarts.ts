// The only module that imports ECharts: the parts the charts draw with (bars, lines, scatter;
// grid, tooltip, legend, mark lines; titles are the page's own headings) and the canvas
// renderer. Imported lazily by echarts-canvas.ts, so ECharts loads only with a chart.
import { BarChart, LineChart, ScatterChart } from "echarts/charts";
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([
  BarChart,
  LineChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export { echarts };
