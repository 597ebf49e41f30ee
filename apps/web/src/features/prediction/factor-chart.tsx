import type { PredictionResult } from "@gradecast/contract/prediction";
import { useMemo } from "react";
import { palette } from "../../components/palette.ts";
import { PredictionFigure } from "./prediction-figure.tsx";
import { fromSchool, SchoolMark } from "./school-record.tsx";
import { usePredictionText } from "./text.ts";

// The factors that pushed the prediction up or down: the largest effects of the model's
// explanation as bars (green up, red down) from the model's average, with the same figures,
// and every other answer, in a table.

const shown = 10;

export function FactorChart({ result }: { result: PredictionResult }) {
  const { intl, t, score, signed, label, answer, list } = usePredictionText();
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
        data: bars.map((c) => label(c.feature)),
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
  }, [top, label, signed]);

  const ups = top.filter((c) => c.effect > 0).slice(0, 2);
  const downs = top.filter((c) => c.effect < 0).slice(0, 2);
  const names = (cs: typeof top) =>
    list(
      cs.map((c) => label(c.feature)),
      "and",
    );
  const summary = intl.formatMessage(
    { id: "prediction.factors.summary" },
    {
      average: score(result.baseValue),
      ups: names(ups),
      downs: names(downs),
      moved:
        ups.length && downs.length ? "both" : ups.length ? "up" : downs.length ? "down" : "none",
    },
  );

  return (
    <PredictionFigure
      name="factors"
      title={t("prediction.factors.title")}
      summary={summary}
      chart={{
        option,
        label: intl.formatMessage(
          { id: "prediction.factors.chartLabel" },
          { count: top.length, summary },
        ),
      }}
      tableLabel={t("prediction.factors.tableLabel")}
      caption={t("prediction.factors.caption")}
      columns={[
        t("prediction.factors.question"),
        t("prediction.factors.answer"),
        t("prediction.factors.effect"),
      ]}
      foot={
        <>
          <tr>
            <th scope="row">{t("prediction.factors.average")}</th>
            <td />
            <td className="prediction-number">{score(result.baseValue)}</td>
          </tr>
          <tr>
            <th scope="row">{t("prediction.factors.prediction")}</th>
            <td />
            <td className="prediction-number">{score(result.prediction)}</td>
          </tr>
        </>
      }
    >
      {result.contributions.map((c) => (
        <tr key={c.feature}>
          <th scope="row">{label(c.feature)}</th>
          <td>
            {answer(c.feature, c.value)}
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
    </PredictionFigure>
  );
}
