import type { ReactNode } from "react";
import { ChartCanvas } from "../../components/chart-canvas.tsx";
import type { ChartOption } from "../../components/echarts-canvas.ts";
import { TableHead } from "../../components/table-head.tsx";

// A chart card of the prediction page (what moved it, its history): the title, the chart's
// finding in words, the chart when there is one to draw, and the same figures as a table
// behind a disclosure, so nothing depends on seeing the canvas.

export function PredictionFigure({
  name,
  title,
  summary,
  chart,
  tableLabel,
  caption,
  columns,
  children,
  foot,
}: {
  /** Names its classes and its heading's id: prediction-<name>, <name>-title. */
  name: string;
  title: string;
  /** One sentence without its full stop. */
  summary: string;
  /** The chart and what it shows, or null when there is nothing to draw. */
  chart: { option: ChartOption; label: string } | null;
  /** The disclosure's label. */
  tableLabel: string;
  /** The table's caption (for screen readers) and column headings. */
  caption: string;
  columns: readonly string[];
  /** The table's rows. */
  children: ReactNode;
  /** Rows of totals under them, if any. */
  foot?: ReactNode;
}) {
  return (
    <figure className={`card prediction-${name}`} aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`} className="card-title">
        {title}
      </h2>
      <p className="muted">{summary}.</p>
      {chart ? (
        <ChartCanvas
          option={chart.option}
          label={chart.label}
          className={`prediction-chart prediction-chart-${name}`}
        />
      ) : null}
      <details className="prediction-table">
        <summary>{tableLabel}</summary>
        <div className="prediction-table-scroll">
          <table>
            <TableHead caption={caption} columns={columns} />
            <tbody>{children}</tbody>
            {foot ? <tfoot>{foot}</tfoot> : null}
          </table>
        </div>
      </details>
    </figure>
  );
}
