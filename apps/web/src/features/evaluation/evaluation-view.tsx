import {
  type CalibrationBin,
  type Evaluation,
  evaluationMeasures,
  type SetupEvaluation,
} from "@gradecast/contract/evaluation";
import { useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { palette } from "../../components/palette.ts";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollTable } from "../../components/scroll-table.tsx";
import { Select } from "../../components/select.tsx";
import { useDownload } from "../../components/use-download.ts";
import { axisName, baseOption, Chart, localNumbers } from "../analytics/chart.tsx";
import { downloadEvaluation, useEvaluation } from "./api.ts";
import { useEvaluationText } from "./evaluation-text.ts";
import "../analytics/analytics.css";
import "./evaluation.css";

// /evaluation (issue 29): how the model's predictions did against the outcomes recorded in the
// gradebooks, per setup at the time, each figure beside what the model card expects with a 95 %
// interval and a plain sentence where this school's figure is worse beyond noise; calibration
// plots, per-group figures (groups under five not shown), the CSV, and what each measure means.
// In English or Portuguese (evaluation-text.ts).

export function EvaluationView({ viewer }: { viewer: "teacher" | "admin" }) {
  const [classId, setClassId] = useState("");
  const evaluation = useEvaluation(classId);
  const text = useEvaluationText();
  const { t } = text;

  const {
    running: exporting,
    error: exportError,
    start: exportCsv,
  } = useDownload(() => downloadEvaluation(classId));

  const classes = evaluation.data?.classes ?? [];
  const options = [
    {
      value: "",
      label: viewer === "admin" ? t("evaluation.classes.school") : t("evaluation.classes.mine"),
    },
    ...classes.map((c) => ({
      value: c.id,
      label: t("evaluation.classes.option", { name: c.name, subject: text.subject(c.subject) }),
    })),
  ];

  return (
    <div className="stack">
      <Card>
        <Select
          label={t("evaluation.classes.label")}
          hint={
            viewer === "admin"
              ? t("evaluation.classes.hintAdmin")
              : t("evaluation.classes.hintTeacher")
          }
          options={options}
          value={classId}
          onChange={(e) => setClassId(e.target.value)}
        />
      </Card>
      <QueryView query={evaluation} loading={t("evaluation.loading")}>
        {(data) =>
          data.setups.length === 0 ? (
            <EmptyState title={t("evaluation.empty.title")}>{text.empty()}</EmptyState>
          ) : (
            <>
              <Card
                title={t("evaluation.outcomes.title")}
                actions={
                  <Button type="button" onClick={exportCsv} disabled={exporting}>
                    {exporting
                      ? t("evaluation.outcomes.preparing")
                      : t("evaluation.outcomes.download")}
                  </Button>
                }
              >
                <p>
                  {t("evaluation.outcomes.text", {
                    count: data.outcomes,
                    students: text.count(data.outcomes),
                    resamples: text.count(data.resamples),
                  })}
                </p>
                {exportError ? <Alert tone="error">{exportError}</Alert> : null}
              </Card>
              <div className="evaluation-setups">
                {data.setups.map((s) => (
                  <SetupCard key={s.setup} setup={s} />
                ))}
              </div>
            </>
          )
        }
      </QueryView>
      <Measures />
    </div>
  );
}

function SetupCard({ setup }: { setup: SetupEvaluation }) {
  const text = useEvaluationText();
  const { t, show } = text;
  const worse = setup.figures.filter((f) => f.note);
  const name = text.setup(setup.setup);
  return (
    <Card title={name}>
      <p>
        {t("evaluation.setup.counts", {
          count: setup.n,
          students: text.count(setup.n),
          sat: text.count(setup.sat),
        })}
      </p>
      {worse.length > 0 ? (
        <ul className="evaluation-notes">
          {worse.map((f) => (
            <li key={f.measure} className="evaluation-worse">
              {text.note(f)}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("evaluation.setup.noneWorse")}</p>
      )}
      <ScrollTable
        className="table-scroll"
        label={t("evaluation.figures.label", { setup: name })}
        tableClassName="evaluation-table"
        columns={[
          t("evaluation.figures.measure"),
          t("evaluation.figures.here"),
          t("evaluation.figures.expected"),
          t("evaluation.figures.interval"),
          t("evaluation.figures.note"),
        ]}
      >
        {setup.figures.map((f) => (
          <tr key={f.measure}>
            <th scope="row">{text.label(f.measure)}</th>
            <td className="num">{show(f.measure, f.value)}</td>
            <td className="num">{show(f.measure, f.expected)}</td>
            <td className="num">
              {f.interval
                ? t("evaluation.figures.range", {
                    low: show(f.measure, f.interval.low),
                    high: show(f.measure, f.interval.high),
                  })
                : "—"}
            </td>
            <td className={f.worse ? "evaluation-worse" : undefined}>
              {f.worse ? t("evaluation.figures.worse") : ""}
            </td>
          </tr>
        ))}
      </ScrollTable>
      <div className="evaluation-charts">
        <CalibrationChart
          title={t("evaluation.chart.risk.title")}
          xName={t("evaluation.chart.risk.x")}
          yName={t("evaluation.chart.risk.y")}
          bins={setup.calibration.risk}
          scale={100}
          max={100}
        />
        <CalibrationChart
          title={t("evaluation.chart.score.title")}
          xName={t("evaluation.chart.score.x")}
          yName={t("evaluation.chart.score.y")}
          bins={setup.calibration.score}
          scale={1}
          max={20}
        />
      </div>
      <Groups setup={setup} />
    </Card>
  );
}

function CalibrationChart({
  title,
  xName,
  yName,
  bins,
  scale,
  max,
}: {
  title: string;
  xName: string;
  yName: string;
  bins: CalibrationBin[];
  scale: number;
  max: number;
}) {
  const text = useEvaluationText();
  const { t } = text;
  const f = (v: number) => (scale === 100 ? text.percent(v) : text.fixed(v, 1));
  const local = localNumbers(text.intl);
  return (
    <Chart
      title={title}
      summary={t("evaluation.chart.summary")}
      option={
        bins.length
          ? {
              ...baseOption,
              tooltip: { trigger: "item", confine: true, renderMode: "richText" },
              xAxis: { type: "value", min: 0, max, ...axisName(xName), ...local.axis },
              yAxis: { type: "value", min: 0, max, ...axisName(yName, 40), ...local.axis },
              series: [
                {
                  type: "line",
                  name: t("evaluation.chart.perfect"),
                  data: [
                    [0, 0],
                    [max, max],
                  ],
                  showSymbol: false,
                  lineStyle: { color: palette.muted, type: "dashed" },
                },
                {
                  type: "scatter",
                  name: t("evaluation.chart.students"),
                  data: bins.map((b) => [b.predicted * scale, b.observed * scale, b.n]),
                  symbolSize: (v: number[]) => 6 + 4 * Math.sqrt(v[2] ?? 1),
                  itemStyle: { color: palette.primary },
                },
              ],
            }
          : null
      }
      table={{
        head: [
          t("evaluation.chart.predicted"),
          t("evaluation.chart.observed"),
          t("evaluation.chart.students"),
        ],
        rows: bins.map((b) => [f(b.predicted), f(b.observed), text.count(b.n)]),
      }}
      empty={{ title: t("evaluation.chart.empty.title"), body: t("evaluation.chart.empty.body") }}
    />
  );
}

function Groups({ setup }: { setup: SetupEvaluation }) {
  const text = useEvaluationText();
  const { t } = text;
  const pct = (v: number | null) => (v === null ? "—" : text.percent(v));
  const name = text.setup(setup.setup);
  return (
    <>
      <h3>{t("evaluation.groups.title")}</h3>
      {setup.groups.length ? (
        <ScrollTable
          className="table-scroll"
          label={t("evaluation.groups.label", { setup: name })}
          tableClassName="evaluation-table"
          caption={t("evaluation.groups.caption", { setup: name })}
          columns={[
            t("evaluation.groups.group"),
            t("evaluation.groups.students"),
            t("evaluation.groups.sat"),
            t("evaluation.groups.rmse"),
            t("evaluation.groups.accuracy"),
            t("evaluation.groups.coverage"),
          ]}
        >
          {setup.groups.map((g) => (
            <tr key={`${g.kind}:${g.label}`}>
              <th scope="row">
                {t("evaluation.groups.row", {
                  kind: text.groupKind(g.kind),
                  label: text.groupLabel(g.label),
                })}
              </th>
              <td className="num">{text.count(g.n)}</td>
              <td className="num">{text.count(g.sat)}</td>
              <td className="num">{g.rmse === null ? "—" : text.fixed(g.rmse, 2)}</td>
              <td className="num">{pct(g.accuracy)}</td>
              <td className="num">{pct(g.coverage)}</td>
            </tr>
          ))}
        </ScrollTable>
      ) : null}
      {setup.hiddenGroups > 0 ? <p>{text.groupsHidden(setup.hiddenGroups)}</p> : null}
    </>
  );
}

function Measures() {
  const text = useEvaluationText();
  const { t } = text;
  return (
    <Card title={t("evaluation.measures.title")}>
      <dl className="evaluation-measures">
        {evaluationMeasures.map((m) => (
          <div key={m}>
            <dt>{text.label(m)}</dt>
            <dd>{text.explain(m)}</dd>
          </div>
        ))}
        <div>
          <dt>{t("evaluation.measures.expected.term")}</dt>
          <dd>{t("evaluation.measures.expected.text")}</dd>
        </div>
      </dl>
    </Card>
  );
}

export type { Evaluation };
