import type { ModelState, ModelVersionView } from "@gradecast/contract/model-lifecycle";
import { useState } from "react";
import { formErrors } from "../../api/form-errors.ts";
import { Alert, ErrorAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { QueryView } from "../../components/query-view.tsx";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { TableHead } from "../../components/table-head.tsx";
import { useReauth } from "../account-security/reauth.tsx";
import { downloadOutcomes, useModelState, useSwitchVersion, useTrain } from "./api.ts";
import "./model.css";

// /admin/model (issue 30): the version in use and its card, the outcomes the school has
// recorded per subject and setup, "Train a candidate" with the job's progress, each candidate's
// comparison with the model in use and the gate's reasons, promotion and rollback (both ask to
// confirm the password when the sign-in is older than ten minutes).

const subjectNames: Record<string, string> = { mat: "Mathematics", por: "Portuguese" };
const setupNames: Record<string, string> = {
  A: "A (both term grades known)",
  B: "B (first term grade known)",
  C: "C (no grade known yet)",
};
const f = (v: number | null, digits = 3) => (v === null ? "—" : v.toFixed(digits));
const pct = (v: number | null) => (v === null ? "—" : `${Math.round(100 * v)} %`);
const when = (at: string | null) => (at ? new Date(at).toLocaleString() : "—");

export function ModelView() {
  const state = useModelState();
  return (
    <QueryView query={state} loading="Loading the model's versions…">
      {(data) => <ModelScreen state={data} />}
    </QueryView>
  );
}

function ModelScreen({ state }: { state: ModelState }) {
  const reauth = useReauth();
  const train = useTrain();
  const promote = useSwitchVersion("promote");
  const rollback = useSwitchVersion("rollback");
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [exportError, setExportError] = useState("");

  async function startTraining() {
    setMessage(null);
    try {
      await train.mutateAsync();
      setMessage({ tone: "success", text: "Training started. Its progress shows below." });
    } catch (err) {
      setMessage({ tone: "error", text: formErrors(err, []).message ?? "Training did not start." });
    }
  }

  async function switchTo(v: ModelVersionView, how: "promote" | "rollback") {
    setMessage(null);
    const mutation = how === "promote" ? promote : rollback;
    try {
      await reauth.run(() => mutation.mutateAsync(v.id));
      setMessage({
        tone: "success",
        text: `${v.id} is now in use. Stored predictions are being recomputed with it.`,
      });
    } catch (err) {
      setMessage({ tone: "error", text: formErrors(err, []).message ?? "Nothing changed." });
    }
  }

  const training = state.training;
  const candidates = state.versions.filter((v) => v.state === "candidate" || v.state === "refused");
  const earlier = state.versions.filter(
    (v) => v.state === "retired" && (v.shipped || v.promotedAt !== null),
  );

  return (
    <div className="stack model-screen">
      {reauth.dialog}
      {message ? (
        <Alert tone={message.tone} className="model-message">
          {message.text}
        </Alert>
      ) : null}

      <Card title="In use">
        <p>
          <strong>{state.active.id}</strong>{" "}
          {state.active.shipped
            ? "— the model that came with Gradecast, trained on the UCI Student Performance data."
            : `— trained on this school's outcomes, in use since ${when(state.active.promotedAt)}.`}
        </p>
        <details>
          <summary>The model card's figures (cross-validated on the UCI data)</summary>
          <ScrollRegion className="model-scroll" label="Model card figures">
            <table className="model-table">
              <TableHead
                caption="The model card's figures"
                columns={["Subject", "Setup", "Protocol", "Score RMSE", "Risk Brier", "Coverage"]}
              />
              <tbody>
                {state.card.map((c) => (
                  <tr key={`${c.subject}-${c.setup}-${c.protocol}-${c.rmseSat}`}>
                    <td>{subjectNames[c.subject] ?? c.subject}</td>
                    <td>{c.setup}</td>
                    <td>{c.protocol}</td>
                    <td className="num">{f(c.rmseSat)}</td>
                    <td className="num">{f(c.brier, 4)}</td>
                    <td className="num">{pct(c.coverage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </details>
      </Card>

      <Card title="This school's outcomes">
        <p>
          A candidate learns from the final grades recorded in the gradebooks, each with the answers
          the model saw when it predicted. It can be put in use only with at least{" "}
          {state.minOutcomes} outcomes in each subject the school teaches.
        </p>
        <ScrollRegion className="model-scroll" label="Outcomes per subject and setup">
          <table className="model-table">
            <TableHead
              caption="Outcomes per subject and setup"
              columns={["Subject", "Students", ...["A", "B", "C"].map((s) => `Setup ${s}`)]}
            />
            <tbody>
              {["mat", "por"].map((subject) => (
                <tr key={subject}>
                  <td>{subjectNames[subject]}</td>
                  <td className="num">{state.students[subject] ?? 0}</td>
                  {["A", "B", "C"].map((setup) => (
                    <td key={setup} className="num">
                      {state.outcomes.find((o) => o.subject === subject && o.setup === setup)
                        ?.rows ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
        <div className="model-actions">
          <Button
            onClick={startTraining}
            loading={train.isPending}
            disabled={training !== null}
            aria-describedby="model-train-help"
          >
            Train a candidate
          </Button>
          <Button
            variant="secondary"
            onClick={async () => {
              setExportError("");
              try {
                await downloadOutcomes();
              } catch (err) {
                setExportError(formErrors(err, []).message ?? "");
              }
            }}
          >
            Download the outcomes (CSV)
          </Button>
        </div>
        <p id="model-train-help" className="muted">
          Training runs in the background (a few minutes); the site keeps working meanwhile. The CSV
          has the UCI files' columns, students under pseudonyms, for{" "}
          <code>npm run model:train -- --outcomes</code>.
        </p>
        <ErrorAlert message={exportError} />
        {training ? (
          <div className="model-progress" aria-live="polite">
            <p>
              {training.state === "queued" ? "Waiting to start…" : "Training…"}{" "}
              {training.progress.total
                ? `${training.progress.done} of ${training.progress.total} steps`
                : null}
            </p>
            <progress
              max={training.progress.total ?? 1}
              value={training.progress.total ? training.progress.done : undefined}
              aria-label="Training progress"
            />
          </div>
        ) : null}
      </Card>

      <Card title="Candidates">
        {candidates.length === 0 ? (
          <p>No candidate yet. Train one once outcomes are recorded.</p>
        ) : (
          candidates.map((v) => (
            <Candidate
              key={v.id}
              version={v}
              busy={promote.isPending}
              onPromote={() => switchTo(v, "promote")}
            />
          ))
        )}
      </Card>

      <Card title="Earlier versions">
        {earlier.length === 0 ? (
          <p>None: the version in use is the only one that was ever in use.</p>
        ) : (
          <ul className="model-versions">
            {earlier.map((v) => (
              <li key={v.id}>
                <span>
                  <strong>{v.id}</strong>
                  {v.shipped ? " (came with Gradecast)" : ` (in use from ${when(v.promotedAt)})`}
                </span>
                <Button
                  variant="secondary"
                  loading={rollback.isPending && rollback.variables === v.id}
                  onClick={() => switchTo(v, "rollback")}
                >
                  Roll back to this version
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function Candidate({
  version,
  busy,
  onPromote,
}: {
  version: ModelVersionView;
  busy: boolean;
  onPromote: () => void;
}) {
  const gate = version.gate;
  return (
    <section className="model-candidate" aria-label={`Candidate ${version.id}`}>
      <h3>{version.id}</h3>
      <p className="muted">
        Trained {when(version.createdAt)} on {version.outcomes} outcome rows;{" "}
        {version.weights.map((w) => `setup ${w.setup} weight ${w.weight}`).join(", ")}.
      </p>
      {gate ? (
        <>
          <ScrollRegion className="model-scroll" label={`Comparison for ${version.id}`}>
            <table className="model-table">
              <TableHead
                caption="The candidate against the model in use on held-out school rows"
                columns={[
                  "Setup",
                  "Measure",
                  "Rows",
                  "In use",
                  "Candidate",
                  "95 % bounds",
                  "Verdict",
                ]}
              />
              <tbody>
                {gate.comparison.map((c) => (
                  <tr key={`${c.setup}-${c.measure}`}>
                    <td>{setupNames[c.setup] ?? c.setup}</td>
                    <td>{c.measure}</td>
                    <td className="num">{c.rows}</td>
                    <td className="num">{f(c.current, 4)}</td>
                    <td className="num">{f(c.candidate, 4)}</td>
                    <td className="num">
                      {c.lower === null ? "—" : `${f(c.lower, 4)} to ${f(c.upper, 4)}`}
                    </td>
                    <td className={c.verdict === "worse" ? "model-worse" : undefined}>
                      {c.verdict}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {gate.promotable ? (
            <Alert tone="success" title="The gate passes this candidate" />
          ) : (
            <Alert tone="warning" title="The gate refuses this candidate">
              <ul>
                {gate.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </Alert>
          )}
        </>
      ) : null}
      {version.state === "candidate" ? (
        <Button onClick={onPromote} loading={busy}>
          Put this candidate in use
        </Button>
      ) : null}
    </section>
  );
}
