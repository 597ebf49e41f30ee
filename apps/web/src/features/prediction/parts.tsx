import {
  highNoFinalScoreRisk,
  type ModelSetup,
  modelSetupText,
} from "@gradecast/contract/prediction";
import { formatScore } from "@gradecast/contract/score";
import { useSiteInfo } from "../../api/site.ts";
import { Alert } from "../../components/alert.tsx";

// Which model answered and how sure it is, and the two parts behind the headline: the score if
// the student sits the final and the risk of not sitting it. When that risk is high the screen
// says so plainly and where to get help (the school's contact address, GET /api/site).

const percent = (p: number) => `${p < 0.01 ? "under 1" : Math.round(p * 100)}%`;

/** How sure, in words, from the width of the likely range. */
function sureness(low: number, high: number): string {
  const width = high - low;
  if (width <= 3) return "fairly sure";
  if (width <= 7) return "only roughly sure";
  return "not very sure";
}

export function ModelParts({
  setup,
  scoreIfSits,
  risk,
  low,
  high,
}: {
  setup: ModelSetup;
  scoreIfSits: number;
  risk: number;
  low: number;
  high: number;
}) {
  return (
    <section className="card prediction-parts" aria-labelledby="parts-title">
      <h2 id="parts-title" className="card-title">
        How this prediction was made
      </h2>
      <p data-testid="model-setup">
        This prediction is {modelSetupText[setup]}. The model is {sureness(low, high)}: the likely
        range is {formatScore(low)} to {formatScore(high)}.
        {setup === "A" ? "" : " Predict again when you know your term grades for a narrower range."}
      </p>
      <dl className="prediction-parts-list">
        <div>
          <dt>If you sit the final exam</dt>
          <dd data-testid="score-if-sits">
            {formatScore(scoreIfSits)} <span className="muted">out of 20</span>
          </dd>
        </div>
        <div>
          <dt>Chance of not sitting the final exam</dt>
          <dd data-testid="no-final-risk">{percent(risk)}</dd>
        </div>
      </dl>
      <p className="muted">
        The score above counts a final exam not sat as 0: it is the score if you sit it, lowered by
        the chance that you do not.
      </p>
    </section>
  );
}

export function HighRiskNotice({ risk }: { risk: number }) {
  const site = useSiteInfo();
  if (risk < highNoFinalScoreRisk) return null;
  const email = site.state.status === "ready" ? site.state.info.contactEmail : null;
  return (
    <Alert tone="warning" title="You may be at risk of not sitting the final exam">
      <p data-testid="high-risk-message">
        Students with answers like yours often did not sit the final exam (a chance of about{" "}
        {percent(risk)}). It is not too late: talk to your class teacher or your school's student
        support soon.{" "}
        {email ? (
          <>
            You can also write to your school at <a href={`mailto:${email}`}>{email}</a>.
          </>
        ) : (
          "Your school's contact address is on the Contact page."
        )}
      </p>
    </Alert>
  );
}
