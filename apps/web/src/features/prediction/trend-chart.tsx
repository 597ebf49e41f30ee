import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { useCallback, useMemo } from "react";
import type { ChartSize } from "../../components/echarts-canvas.ts";
import { ChartCanvas } from "./chart-canvas.tsx";
import { dateTime, score } from "./format.ts";
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
      ? `${ordered.length} predictions, from ${score(first.prediction)} on ${dateTime(first.createdAt)} to ${score(last.prediction)} on ${dateTime(last.createdAt)}`
      : first
        ? `1 prediction so far: ${score(first.prediction)} on ${dateTime(first.createdAt)}`
        : "No predictions yet";

  return (
    <figure className="card prediction-history" aria-labelledby="history-title">
      <h2 id="history-title" className="card-title">
        Your predictions over time
      </h2>
      <p className="muted">{summary}.</p>
      {ordered.length > 1 ? (
        <ChartCanvas
          option={option}
          label={`Line chart of your predictions over time: ${summary}.`}
          className="prediction-chart-history"
        />
      ) : null}
      <details className="prediction-table">
        <summary>Show your predictions as a table</summary>
        <div className="prediction-table-scroll">
          <table>
            <caption className="visually-hidden">Your past predictions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Prediction (out of 20)</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{dateTime(i.createdAt)}</th>
                  <td className="prediction-number">{score(i.prediction)}</td>
                  <td>{i.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
