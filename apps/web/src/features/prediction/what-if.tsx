import { type PredictionResult, type WhatIfKey, whatIfKeys } from "@gradecast/contract/prediction";
import { optionText, questionByKey } from "@gradecast/contract/questionnaire";
import { bandMessages, bandOf, formatScore, shownScore } from "@gradecast/contract/score";
import { useMemo, useState } from "react";
import { Button } from "../../components/button.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { answersOf, useWhatIf } from "./api.ts";
import { answerText, signed } from "./format.ts";
import { fromSchool, SchoolMark } from "./school-record.tsx";

// What if: the student changes a few answers they can act on and sees at once what the model
// would predict and by how much it differs. These calls are not stored. A value the school
// record holds (absences, issue 29) is the school's, not the student's to try: it is shown, not
// offered for change.

type Changes = Record<WhatIfKey, string>;

function initial(result: PredictionResult): Changes {
  return Object.fromEntries(whatIfKeys.map((k) => [k, String(result.inputs[k])])) as Changes;
}

export function WhatIf({ base }: { base: PredictionResult }) {
  const [changes, setChanges] = useState<Changes>(() => initial(base));
  const changed = useMemo(
    () => whatIfKeys.filter((k) => changes[k] !== String(base.inputs[k])),
    [changes, base],
  );
  const whatIf = useWhatIf(changed.length > 0 ? { ...answersOf(base), ...changes } : null);

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
          if (fromSchool(base, key)) {
            return (
              <div key={key} className="field whatif-school" data-testid={`whatif-school-${key}`}>
                <span className="field-label">{q.label}</span>
                <p>
                  {answerText(key, base.inputs[key] as string | number | null)} <SchoolMark />
                </p>
              </div>
            );
          }
          return (
            <Select
              key={key}
              id={`whatif-${key}`}
              name={key}
              label={q.label}
              options={q.options.map((o) => ({
                value: String(o.value),
                label: optionText(o),
              }))}
              value={changes[key]}
              onChange={(e) => setChanges((c) => ({ ...c, [key]: e.target.value }))}
              className={changes[key] !== String(base.inputs[key]) ? "whatif-changed" : undefined}
            />
          );
        })}
      </div>
      <div className="prediction-whatif-result" aria-live="polite">
        {changed.length === 0 ? (
          <p>Change an answer above to see how your prediction would move.</p>
        ) : whatIf.isPending ? (
          <Spinner label="Predicting..." />
        ) : whatIf.isError ? (
          <p className="field-error" role="alert">
            {whatIf.error.message}
          </p>
        ) : (
          <WhatIfOutcome base={base} result={whatIf.data} changed={changed} />
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

/**
 * Why a change moved nothing: the model's trees give it no weight for students like this one.
 * With term grades known (setups A and B) they carry the prediction, so it is said of the grades.
 */
function noEffectText(
  base: PredictionResult,
  result: PredictionResult,
  changed: readonly WhatIfKey[],
): string {
  const names = changed.map((k) => questionByKey[k].label.toLowerCase()).join(" or ");
  const who =
    base.modelSetup === "C" ? "students with answers like yours" : "students with these grades";
  const none = Math.abs(result.prediction - base.prediction) < 0.005;
  return none
    ? `The model finds no effect of ${names} for ${who}.`
    : `The model finds almost no effect of ${names} for ${who} (under 0.05 points).`;
}

export function WhatIfOutcome({
  base,
  result,
  changed,
}: {
  base: PredictionResult;
  result: PredictionResult;
  changed: readonly WhatIfKey[];
}) {
  // From the scores as shown (one decimal), so that 11.2 and 11.4 read "+0.2", never "+0.12".
  const diff = shownScore(result.prediction) - shownScore(base.prediction);
  const direction = Math.abs(diff) < 0.05 ? "same" : diff > 0 ? "up" : "down";
  const points = Math.abs(shownScore(diff)) === 1 ? "point" : "points";
  return (
    <div className={`whatif-outcome whatif-${direction}`}>
      <p>
        With these answers:{" "}
        <strong data-testid="whatif-prediction">{formatScore(result.prediction)}</strong> out of 20{" "}
        <span data-testid="whatif-difference">
          ({signed(diff, 1)} {points}
          {direction === "same" ? ", no change" : direction === "up" ? ", higher" : ", lower"})
        </span>
      </p>
      {direction === "same" ? (
        <p data-testid="whatif-no-effect">{noEffectText(base, result, changed)}</p>
      ) : null}
      <p className="muted">
        Your prediction: {formatScore(base.prediction)}. {bandMessages[bandOf(result.prediction)]}
      </p>
    </div>
  );
}
