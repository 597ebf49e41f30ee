import type { PredictionHistoryItem } from "@gradecast/contract/prediction";
import { useCallback, useMemo } from "react";
import type { ChartSize } from "../../components/echarts-canvas.ts";
import { bandMessage } from "./band.ts";
import { PredictionFigure } from "./prediction-figure.tsx";
import { usePredictionText } from "./text.ts";
import { trendOption } from "./trend-fit.ts";

// The student's past predictions: a small line from the oldest to the newest, with the same
// figures in a table.

export function TrendChart({ items }: { items: PredictionHistoryItem[] }) {
  const { intl, t, score, dayTime } = usePredictionText();
  const ordered = useMemo(() => [...items].reverse(), [items]);
  const option = useCallback(
    (size: ChartSize) =>
      trendOption(ordered, size, {
        score: (v) => (typeof v === "number" ? score(v) : String(v ?? "")),
        dayTime,
      }),
    [ordered, score, dayTime],
  );
  const first = ordered[0];
  const last = ordered[ordered.length - 1];
  const summary =
    first && last
      ? intl.formatMessage(
          { id: "prediction.history.summary" },
          {
            count: ordered.length,
            first: score(first.prediction),
            firstWhen: dayTime(first.createdAt),
            last: score(last.prediction),
            lastWhen: dayTime(last.createdAt),
          },
        )
      : t("prediction.history.none");

  return (
    <PredictionFigure
      name="history"
      title={t("prediction.history.title")}
      summary={summary}
      chart={
        ordered.length > 1
          ? {
              option,
              label: intl.formatMessage({ id: "prediction.history.chartLabel" }, { summary }),
            }
          : null
      }
      tableLabel={t("prediction.history.tableLabel")}
      caption={t("prediction.history.caption")}
      columns={[
        t("prediction.history.when"),
        t("prediction.history.prediction"),
        t("prediction.history.message"),
      ]}
    >
      {items.map((i) => (
        <tr key={i.id}>
          <th scope="row">{dayTime(i.createdAt)}</th>
          <td className="prediction-number">{score(i.prediction)}</td>
          <td>{bandMessage(intl, i.band, i.message)}</td>
        </tr>
      ))}
    </PredictionFigure>
  );
}
