import { type PredictionResult, type WhatIfKey, whatIfKeys } from "@gradecast/contract/prediction";
import { questionByKey } from "@gradecast/contract/questionnaire";
import { bandMessages, bandOf } from "@gradecast/contract/score";
import { useEffect, useMemo, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { answersOf, requestWhatIf } from "./api.ts";
import { score, signed } from "./format.ts";

// What if: the student changes a few answers they can act on and sees at once what the model
// would predict and by how much it differs. These calls are not stored.

type Changes = Record<WhatIfKey, string>;

function initial(result: PredictionResult): Changes {
  return Object.fromEntries(whatIfKeys.map((k) => [k, String(result.inputs[k])])) as Changes;
}

const optionText = (value: string | number, label: string) =>
  label === String(value) ? String(value) : `${value} — ${label}`;

type State =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "done"; result: PredictionResult }
  | { status: "error"; message: string };

export function WhatIf({ base }: { base: PredictionResult }) {
  const [changes, setChanges] = useState<Changes>(() => initial(base));
  const [state, setState] = useState<State>({ status: "idle" });
  const changed = useMemo(
    () => whatIfKeys.filter((k) => changes[k] !== String(base.inputs[k])),
    [changes, base],
  );

  useEffect(() => {
    if (changed.length === 0) {
      setState({ status: "idle" });
      return;
    }
    const controller = new AbortController();
    setState({ status: "loading" });
    requestWhatIf({ ...answersOf(base), ...changes }, controller.signal)
      .then((result) => setState({ status: "done", result }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          status: "error",
          message: err instanceof ApiError || err instanceof Error ? err.message : String(err),
        });
      });
    return () => controller.abort();
  }, [base, changes, changed.length]);

  return (
    <section className="card prediction-whatif" aria-labelledby="whatif-title">
      <h2 id="whatif-title" className="card-title">
        What if?
      </h2>
      <p className="muted">
        Change the answers you can act on and see what the model would predict. These tries are not
        saved.
      </p>
      <div className="prediction-whatif-grid">
        {whatIfKeys.map((key) => {
          const q = questionByKey[key];
          return (
            <Select
              key={key}
              id={`whatif-${key}`}
              name={key}
              label={q.label}
              options={q.options.map((o) => ({
                value: String(o.value),
                label: optionText(o.value, o.label),
              }))}
              value={changes[key]}
              onChange={(e) => setChanges((c) => ({ ...c, [key]: e.target.value }))}
              className={changes[key] !== String(base.inputs[key]) ? "whatif-changed" : undefined}
            />
          );
        })}
      </div>
      <div className="prediction-whatif-result" aria-live="polite">
        {state.status === "idle" ? (
          <p>Change an answer above to see how your prediction would move.</p>
        ) : state.status === "loading" ? (
          <Spinner label="Predicting..." />
        ) : state.status === "error" ? (
          <p className="field-error" role="alert">
            {state.message}
          </p>
        ) : (
          <WhatIfOutcome base={base} result={state.result} />
        )}
      </div>
      {changed.length > 0 ? (
        <div className="actions">
          <Button variant="ghost" onClick={() => setChanges(initial(base))}>
            Back to my answers
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function WhatIfOutcome({ base, result }: { base: PredictionResult; result: PredictionResult }) {
  const diff = result.prediction - base.prediction;
  const direction = Math.abs(diff) < 0.005 ? "same" : diff > 0 ? "up" : "down";
  return (
    <div className={`whatif-outcome whatif-${direction}`}>
      <p>
        With these answers:{" "}
        <strong data-testid="whatif-prediction">{result.prediction.toFixed(2)}</strong> out of 20{" "}
        <span data-testid="whatif-difference">
          ({signed(diff)} {Math.abs(diff) === 1 ? "point" : "points"}
          {direction === "same" ? ", no change" : direction === "up" ? ", higher" : ", lower"})
        </span>
      </p>
      <p className="muted">
        Your prediction: {score(base.prediction)}. {bandMessages[bandOf(result.prediction)]}
      </p>
    </div>
  );
}
