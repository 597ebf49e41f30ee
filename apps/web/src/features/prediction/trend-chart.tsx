import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { formatScore } from "@gradecast/contract/score";
import { useCallback, useMemo } from "react";
import type { ChartSize } from "../../components/echarts-canvas.ts";
import { TableHead } from "../../components/table-head.tsx";
import { dateTime } from "./format.ts";
import { PredictionFigure } from "./prediction-figure.tsx";
import { trendOption } from "./trend-fit.ts";

// The student's past predictions: a small line from the oldest to the newest, with the same
// figures in a table.

export function TrendChart({ items }: { items: PredictionHistoryItem[] }) {
  const ordered = useMemo(() => [...items].reverse(), [items]);
  const option = useCallback((size: ChartSize) => trendOption(ordered, size), [ordered]);
  const first = ordered[0];
  const last = ordered[ordered.length - 1];
  const summary =
    first && last && ordered.length > 1
      ? `${ordered.length} predictions, from ${formatScore(first.prediction)} on ${dateTime(first.createdAt)} to ${formatScore(last.prediction)} on ${dateTime(last.createdAt)}`
      : first
        ? `1 prediction so far: ${formatScore(first.prediction)} on ${dateTime(first.createdAt)}`
        : "No predictions yet";

  return (
    <PredictionFigure
      name="history"
      title="Your predictions over time"
      summary={summary}
      chart={
        ordered.length > 1
          ? { option, label: `Line chart of your predictions over time: ${summary}.` }
          : null
      }
      tableLabel="Show your predictions as a table"
    >
      <TableHead
        caption="Your past predictions, newest first"
        columns={["When", "Prediction (out of 20)", "Message"]}
      />
      <tbody>
        {items.map((i) => (
          <tr key={i.id}>
            <th scope="row">{dateTime(i.createdAt)}</th>
            <td className="prediction-number">{formatScore(i.prediction)}</td>
            <td>{i.message}</td>
          </tr>
        ))}
      </tbody>
    </PredictionFigure>
  );
}
