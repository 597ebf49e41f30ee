// The only module of the prediction screen that imports ECharts: bars (the factors), a line (the
// history) on a grid, drawn on a canvas. Imported lazily by chart-canvas.tsx, so ECharts loads
// only when /prediction draws.
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
