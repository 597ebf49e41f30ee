import type { PredictionResult } from "@gradecast/contract/prediction";
import { formatScore } from "@gradecast/contract/score";
import { useMemo } from "react";
import { palette } from "../../components/palette.ts";
import { TableHead } from "../../components/table-head.tsx";
import { answerText, signed } from "./format.ts";
import { PredictionFigure } from "./prediction-figure.tsx";
import { fromSchool, SchoolMark } from "./school-record.tsx";

// The factors that pushed the prediction up or down: the largest effects of the model's
// explanation as bars (green up, red down) from the model's average, with the same figures,
// and every other answer, in a table.

const shown = 10;

export function FactorChart({ result }: { result: PredictionResult }) {
  const top = useMemo(() => result.contributions.slice(0, shown), [result]);
  const option = useMemo(() => {
    const bars = [...top].reverse(); // ECharts draws the first category at the bottom
    return {
      animation: false,
      textStyle: { fontFamily: "system-ui, sans-serif", color: palette.text },
      grid: { left: 8, right: 56, top: 8, bottom: 8, containLabel: true },
      // Each bar carries its value, so the value axis needs no labels (they crowd a phone).
      xAxis: {
        type: "value",
        axisLabel: { show: false },
        splitLine: { lineStyle: { color: palette.grid } },
      },
      yAxis: {
        type: "category",
        data: bars.map((c) => c.label),
        axisLabel: { color: palette.text, width: 150, overflow: "break", lineHeight: 14 },
        axisTick: { show: false },
      },
      series: [
        {
          type: "bar",
          data: bars.map((c) => ({
            value: Number(c.effect.toFixed(3)),
            itemStyle: { color: c.effect >= 0 ? palette.success : palette.danger },
          })),
          label: {
            show: true,
            position: "right",
            color: palette.text,
            formatter: (p: { value: number }) => signed(p.value),
          },
          barMaxWidth: 22,
        },
      ],
    };
  }, [top]);

  const ups = top.filter((c) => c.effect > 0).slice(0, 2);
  const downs = top.filter((c) => c.effect < 0).slice(0, 2);
  const summary = [
    `Starting from the model's average of ${formatScore(result.baseValue)}`,
    ups.length ? `${ups.map((c) => c.label).join(" and ")} raised the prediction most` : "",
    downs.length ? `${downs.map((c) => c.label).join(" and ")} lowered it most` : "",
  ]
    .filter(Boolean)
    .join("; ");

  return (
    <PredictionFigure
      name="factors"
      title="What moved your prediction"
      summary={summary}
      chart={{
        option,
        label: `Bar chart of the ${top.length} answers that moved the prediction most. ${summary}.`,
      }}
      tableLabel="Show every answer and its effect as a table"
    >
      <TableHead
        caption="Effect of each answer on the prediction, in points out of 20"
        columns={["Question", "Your answer", "Effect (points)"]}
      />
      <tbody>
        {result.contributions.map((c) => (
          <tr key={c.feature}>
            <th scope="row">{c.label}</th>
            <td>
              {answerText(c.feature, c.value)}
              {fromSchool(result, c.feature) ? (
                <>
                  {" "}
                  <SchoolMark />
                </>
              ) : null}
            </td>
            <td className="prediction-number">{signed(c.effect)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Model average</th>
          <td />
          <td className="prediction-number">{formatScore(result.baseValue)}</td>
        </tr>
        <tr>
          <th scope="row">Prediction</th>
          <td />
          <td className="prediction-number">{formatScore(result.prediction)}</td>
        </tr>
      </tfoot>
    </PredictionFigure>
  );
}
