import { type PredictionResult, type WhatIfKey, whatIfKeys } from "@gradecast/contract/prediction";
import { questionByKey } from "@gradecast/contract/questionnaire";
import { bandOf, shownScore } from "@gradecast/contract/score";
import type { ReactNode } from "react";
import { useMemo, useState } from "react";
import { Button } from "../../components/button.tsx";
import { LabelledCard } from "../../components/card.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { answersOf, useWhatIf } from "./api.ts";
import { bandKeys } from "./band.ts";
import { fromSchool, SchoolMark } from "./school-record.tsx";
import { type PredictionText, usePredictionText } from "./text.ts";

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
  const { t, label, answer } = usePredictionText();

  return (
    <LabelledCard
      id="whatif-title"
      title={t("prediction.whatIf.title")}
      className="prediction-whatif"
    >
      <p className="muted">{t("prediction.whatIf.intro")}</p>
      <div className="prediction-whatif-grid">
        {whatIfKeys.map((key) => {
          const q = questionByKey[key];
          if (fromSchool(base, key)) {
            return (
              <div key={key} className="field whatif-school" data-testid={`whatif-school-${key}`}>
                <span className="field-label">{label(key)}</span>
                <p>
                  {answer(key, base.inputs[key] as string | number | null)} <SchoolMark />
                </p>
              </div>
            );
          }
          return (
            <Select
              key={key}
              id={`whatif-${key}`}
              name={key}
              label={label(key)}
              options={q.options.map((o) => ({
                value: String(o.value),
                label: answer(key, o.value),
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
          <p>{t("prediction.whatIf.changeOne")}</p>
        ) : whatIf.isPending ? (
          <Spinner label={t("prediction.whatIf.predicting")} />
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
            {t("prediction.whatIf.back")}
          </Button>
        </div>
      ) : null}
    </LabelledCard>
  );
}

/**
 * Why a change moved nothing: the model's trees give it no weight for students like this one.
 * With term grades known (setups A and B) they carry the prediction, so it is said of the grades.
 */
function noEffectText(
  text: PredictionText,
  base: PredictionResult,
  result: PredictionResult,
  changed: readonly WhatIfKey[],
): string {
  const values = {
    names: text.list(
      changed.map((k) => text.label(k).toLowerCase()),
      "or",
    ),
    who: base.modelSetup === "C" ? "answers" : "grades",
  };
  const none = Math.abs(result.prediction - base.prediction) < 0.005;
  return none
    ? text.intl.formatMessage({ id: "prediction.whatIf.noEffect" }, values)
    : text.intl.formatMessage(
        { id: "prediction.whatIf.almostNoEffect" },
        { ...values, threshold: text.intl.formatNumber(0.05) },
      );
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
  const text = usePredictionText();
  const { intl } = text;
  return (
    <div className={`whatif-outcome whatif-${direction}`}>
      <p>
        {intl.formatMessage(
          { id: "prediction.whatIf.outcome" },
          {
            score: text.score(result.prediction),
            prediction: (chunks: ReactNode[]) => (
              <strong data-testid="whatif-prediction">{chunks}</strong>
            ),
            difference: (chunks: ReactNode[]) => (
              <span data-testid="whatif-difference">{chunks}</span>
            ),
            diff: text.signed(diff, 1),
            count: Math.abs(shownScore(diff)),
            direction,
          },
        )}
      </p>
      {direction === "same" ? (
        <p data-testid="whatif-no-effect">{noEffectText(text, base, result, changed)}</p>
      ) : null}
      <p className="muted">
        {intl.formatMessage(
          { id: "prediction.whatIf.yours" },
          {
            score: text.score(base.prediction),
            band: intl.formatMessage({ id: bandKeys[bandOf(result.prediction)] }),
          },
        )}
      </p>
    </div>
  );
}
