import { highNoFinalScoreRisk, type ModelSetup } from "@gradecast/contract/prediction";
import { useSiteInfo } from "../../api/site.ts";
import { Alert } from "../../components/alert.tsx";
import { LabelledCard } from "../../components/card.tsx";
import type { PageIntl } from "../../i18n/intl.tsx";
import { usePredictionText } from "./text.ts";

// Which model answered and how sure it is, and the two parts behind the headline: the score if
// the student sits the final and the risk of not sitting it. When that risk is high the screen
// says so plainly and where to get help (the school's contact address, GET /api/site).

const percent = (intl: PageIntl, p: number) =>
  p < 0.01
    ? intl.formatMessage({ id: "prediction.parts.percentUnderOne" })
    : intl.formatMessage({ id: "prediction.parts.percent" }, { percent: Math.round(p * 100) });

/** How sure, in words, from the width of the likely range. */
function sureness(intl: PageIntl, low: number, high: number): string {
  const width = high - low;
  if (width <= 3) return intl.formatMessage({ id: "prediction.parts.fairlySure" });
  if (width <= 7) return intl.formatMessage({ id: "prediction.parts.roughlySure" });
  return intl.formatMessage({ id: "prediction.parts.notVerySure" });
}

const setupKeys: Record<ModelSetup, string> = {
  A: "prediction.parts.setupA",
  B: "prediction.parts.setupB",
  C: "prediction.parts.setupC",
};

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
  const { intl, t, score } = usePredictionText();
  return (
    <LabelledCard id="parts-title" title={t("prediction.parts.title")} className="prediction-parts">
      <p data-testid="model-setup">
        {intl.formatMessage(
          { id: "prediction.parts.setup" },
          {
            setup: t(setupKeys[setup]),
            sureness: sureness(intl, low, high),
            low: score(low),
            high: score(high),
          },
        )}
        {setup === "A" ? "" : ` ${t("prediction.parts.predictAgain")}`}
      </p>
      <dl className="prediction-parts-list">
        <div>
          <dt>{t("prediction.parts.ifSits")}</dt>
          <dd data-testid="score-if-sits">
            {score(scoreIfSits)} <span className="muted">{t("prediction.outOf20")}</span>
          </dd>
        </div>
        <div>
          <dt>{t("prediction.parts.noFinalChance")}</dt>
          <dd data-testid="no-final-risk">{percent(intl, risk)}</dd>
        </div>
      </dl>
      <p className="muted">{t("prediction.parts.notSatAsZero")}</p>
    </LabelledCard>
  );
}

export function HighRiskNotice({ risk }: { risk: number }) {
  const site = useSiteInfo();
  const { intl } = usePredictionText();
  if (risk < highNoFinalScoreRisk) return null;
  const email = site.state.status === "ready" ? site.state.info.contactEmail : null;
  return (
    <Alert tone="warning" title={intl.formatMessage({ id: "prediction.risk.title" })}>
      <p data-testid="high-risk-message">
        {intl.formatMessage({ id: "prediction.risk.text" }, { chance: percent(intl, risk) })}{" "}
        {email
          ? intl.formatMessage(
              { id: "prediction.risk.writeTo" },
              { email, link: (chunks) => <a href={`mailto:${email}`}>{chunks}</a> },
            )
          : intl.formatMessage({ id: "prediction.risk.contactPage" })}
      </p>
    </Alert>
  );
}
