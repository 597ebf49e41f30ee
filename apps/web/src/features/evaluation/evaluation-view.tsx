import { subjectLabels } from "@gradecast/contract/classes";
import {
  type CalibrationBin,
  type Evaluation,
  type EvaluationFigure,
  evaluationMeasures,
  evaluationMessages,
  formatEvaluationFigure,
  groupKindLabels,
  measureInfo,
  type SetupEvaluation,
  setupLabels,
} from "@gradecast/contract/evaluation";
import { useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { palette } from "../../components/palette.ts";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { axisName, baseOption, Chart } from "../analytics/chart.tsx";
import { downloadEvaluation, useEvaluation } from "./api.ts";
import "../analytics/analytics.css";
import "./evaluation.css";

// /evaluation (issue 29): how the model's predictions did against the outcomes recorded in the
// gradebooks, per setup at the time, each figure beside what the model card expects with a 95 %
// interval and a plain sentence where this school's figure is worse beyond noise; calibration
// plots, per-group figures (groups under five not shown), the CSV, and what each measure means.

const show = (m: EvaluationFigure["measure"], v: number | null) =>
  v === null ? "—" : formatEvaluationFigure(m, v);

export function EvaluationView({ viewer }: { viewer: "teacher" | "admin" }) {
  const [classId, setClassId] = useState("");
  const evaluation = useEvaluation(classId);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState("");

  async function exportCsv() {
    setExporting(true);
    setExportError("");
    try {
      await downloadEvaluation(classId);
    } catch (err) {
      setExportError(formErrors(err, []).message ?? "");
    } finally {
      setExporting(false);
    }
  }

  const classes = evaluation.data?.classes ?? [];
  const options = [
    { value: "", label: viewer === "admin" ? "The whole school" : "All my classes" },
    ...classes.map((c) => ({ value: c.id, label: `${c.name} (${subjectLabels[c.subject]})` })),
  ];

  return (
    <div className="stack">
      <Card>
        <Select
          label="Classes"
          hint={
            viewer === "admin"
              ? "The school, or one class."
              : "All the classes you teach, or one of them."
          }
          options={options}
          value={classId}
          onChange={(e) => setClassId(e.target.value)}
        />
      </Card>
      {evaluation.isPending ? (
        <Spinner label="Scoring the predictions..." />
      ) : evaluation.isError ? (
        <ErrorState query={evaluation} />
      ) : evaluation.data.setups.length === 0 ? (
        <EmptyState title="No outcomes yet">{evaluationMessages.empty}</EmptyState>
      ) : (
        <>
          <Card
            title="Outcomes"
            actions={
              <Button type="button" onClick={exportCsv} disabled={exporting}>
                {exporting ? "Preparing..." : "Download CSV"}
              </Button>
            }
          >
            <p>
              {students(evaluation.data.outcomes)} with a final grade or "did not sit" recorded.
              Each figure scores the predictions made before the outcome was known; the 95 %
              interval comes from {evaluation.data.resamples} bootstrap resamples. The CSV names
              students by a pseudonym only.
            </p>
            {exportError ? <Alert tone="error">{exportError}</Alert> : null}
          </Card>
          <div className="evaluation-setups">
            {evaluation.data.setups.map((s) => (
              <SetupCard key={s.setup} setup={s} />
            ))}
          </div>
        </>
      )}
      <Measures />
    </div>
  );
}

const students = (n: number) => `${n} student${n === 1 ? "" : "s"}`;

function SetupCard({ setup }: { setup: SetupEvaluation }) {
  const worse = setup.figures.filter((f) => f.note);
  return (
    <Card title={setupLabels[setup.setup]}>
      <p>
        {students(setup.n)} ({setup.sat} sat the final).
      </p>
      {worse.length > 0 ? (
        <ul className="evaluation-notes">
          {worse.map((f) => (
            <li key={f.measure} className="evaluation-worse">
              {f.note}
            </li>
          ))}
        </ul>
      ) : (
        <p>No figure is worse than the model card expects beyond what chance explains.</p>
      )}
      <ScrollRegion className="table-scroll" label={`${setupLabels[setup.setup]}: figures`}>
        <table className="evaluation-table">
          <TableHead
            caption={`${setupLabels[setup.setup]}: figures`}
            columns={["Measure", "Here", "Expected", "95 % interval", "Note"]}
          />
          <tbody>
            {setup.figures.map((f) => (
              <tr key={f.measure}>
                <th scope="row">{measureInfo[f.measure].label}</th>
                <td className="num">{show(f.measure, f.value)}</td>
                <td className="num">{show(f.measure, f.expected)}</td>
                <td className="num">
                  {f.interval
                    ? `${show(f.measure, f.interval.low)} to ${show(f.measure, f.interval.high)}`
                    : "—"}
                </td>
                <td className={f.worse ? "evaluation-worse" : undefined}>
                  {f.worse ? "Worse than expected" : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="evaluation-charts">
        <CalibrationChart
          title="Risk of not sitting: predicted against what happened"
          xName="Predicted risk (%)"
          yName="Did not sit (%)"
          bins={setup.calibration.risk}
          scale={100}
          max={100}
        />
        <CalibrationChart
          title="Score if sitting: predicted against the final grade"
          xName="Predicted score"
          yName="Mean final grade"
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
  const f = (v: number) => (scale === 100 ? `${Math.round(v * 100)} %` : v.toFixed(1));
  return (
    <Chart
      title={title}
      summary="Each dot is a group of students with similar predictions (larger: more students); on the diagonal, the prediction matched what happened."
      option={
        bins.length
          ? {
              ...baseOption,
              tooltip: { trigger: "item", confine: true, renderMode: "richText" },
              xAxis: { type: "value", min: 0, max, ...axisName(xName) },
              yAxis: { type: "value", min: 0, max, ...axisName(yName, 40) },
              series: [
                {
                  type: "line",
                  name: "Perfect",
                  data: [
                    [0, 0],
                    [max, max],
                  ],
                  showSymbol: false,
                  lineStyle: { color: palette.muted, type: "dashed" },
                },
                {
                  type: "scatter",
                  name: "Students",
                  data: bins.map((b) => [b.predicted * scale, b.observed * scale, b.n]),
                  symbolSize: (v: number[]) => 6 + 4 * Math.sqrt(v[2] ?? 1),
                  itemStyle: { color: palette.primary },
                },
              ],
            }
          : null
      }
      table={{
        head: ["Predicted (mean)", "Observed", "Students"],
        rows: bins.map((b) => [f(b.predicted), f(b.observed), b.n]),
      }}
      empty={{ title: "Nothing to plot", body: "No student in this part yet." }}
    />
  );
}

function Groups({ setup }: { setup: SetupEvaluation }) {
  const pct = (v: number | null) => (v === null ? "—" : `${Math.round(v * 100)} %`);
  return (
    <>
      <h3>By group</h3>
      {setup.groups.length ? (
        <ScrollRegion className="table-scroll" label={`${setupLabels[setup.setup]}: groups`}>
          <table className="evaluation-table">
            <TableHead
              caption={`${setupLabels[setup.setup]}: by group`}
              columns={[
                "Group",
                "Students",
                "Sat",
                "Typical error",
                "Pass or fail right",
                "Range held",
              ]}
            />
            <tbody>
              {setup.groups.map((g) => (
                <tr key={`${g.kind}:${g.label}`}>
                  <th scope="row">
                    {groupKindLabels[g.kind]}: {g.label}
                  </th>
                  <td className="num">{g.n}</td>
                  <td className="num">{g.sat}</td>
                  <td className="num">{g.rmse === null ? "—" : g.rmse.toFixed(2)}</td>
                  <td className="num">{pct(g.accuracy)}</td>
                  <td className="num">{pct(g.coverage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
      {setup.hiddenGroups > 0 ? <p>{evaluationMessages.groupsHidden(setup.hiddenGroups)}</p> : null}
    </>
  );
}

function Measures() {
  return (
    <Card title="What the measures mean">
      <dl className="evaluation-measures">
        {evaluationMeasures.map((m) => (
          <div key={m}>
            <dt>{measureInfo[m].label}</dt>
            <dd>{measureInfo[m].explain}</dd>
          </div>
        ))}
        <div>
          <dt>Expected and 95 % interval</dt>
          <dd>
            "Expected" is what the model card measured by cross-validation on its training data for
            the same subjects and setup. The interval is where this school's figure could plausibly
            lie by chance; only when the expected value falls outside it, on the bad side, does the
            page call the figure worse.
          </dd>
        </div>
      </dl>
    </Card>
  );
}

export type { Evaluation };
