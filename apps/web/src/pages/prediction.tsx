import type { PredictionHistoryItem, PredictionResult } from "@gradecast/contract/prediction";
import { bandOf } from "@gradecast/contract/score";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { usePredictionHistory } from "../features/prediction/api.ts";
import { bandMessage } from "../features/prediction/band.ts";
import { ContestForm, OversightNotice } from "../features/prediction/contest-form.tsx";
import { FactorChart } from "../features/prediction/factor-chart.tsx";
import { HighRiskNotice, ModelParts } from "../features/prediction/parts.tsx";
import { PredictionSource } from "../features/prediction/school-record.tsx";
import { ShareExplanation } from "../features/prediction/share-explanation.tsx";
import { usePredictionText } from "../features/prediction/text.ts";
import { TrendChart } from "../features/prediction/trend-chart.tsx";
import { WhatIf } from "../features/prediction/what-if.tsx";
import { useT } from "../i18n/intl.tsx";
import "../features/prediction/prediction.css";

// The prediction (issue 6): the score out of 20, its message, the
// model's 80 % interval, which model answered and its two parts (issue 19), a plain warning
// with where to get help when the risk of not sitting the final is high, what moved it, a
// what-if panel and the history. It arrives with the
// result from /student-input (router state); after a reload it shows the latest stored one.
// Issue 29: the values the school record supplied are marked, and a student in classes of both
// subjects is told which class the prediction is for.

function carried(state: unknown): PredictionResult | null {
  const result = (state as { result?: PredictionResult } | null)?.result;
  return result && typeof result.prediction === "number" ? result : null;
}

export default function Prediction() {
  const location = useLocation();
  const navigate = useNavigate();
  // The result carried from the questionnaire is shown once; the history entry then forgets it,
  // so a reload shows the latest prediction from the server.
  const [arrived] = useState(() => carried(location.state));
  useEffect(() => {
    if (carried(location.state)) {
      navigate(location.pathname + location.search + location.hash, {
        replace: true,
        state: null,
      });
    }
  }, [location, navigate]);
  const history = usePredictionHistory();
  const { user } = useSession();
  const { t } = useT();

  const result = arrived ?? history.data?.latest ?? null;
  const summary: PredictionHistoryItem | undefined = result ? undefined : history.data?.items[0];

  return (
    <div className="stack prediction">
      <PageHeader
        title={t("prediction.title")}
        description={t("prediction.description")}
        link={{ to: "/student-input", label: t("prediction.changeAnswers") }}
      />
      {result ? (
        <>
          <ScoreCard
            prediction={result.prediction}
            message={result.message}
            low={result.interval.low}
            high={result.interval.high}
            level={result.interval.level}
            when={result.createdAt}
          />
          <PredictionSource result={result} />
          <OversightNotice />
          <HighRiskNotice risk={result.noFinalScoreRisk} />
          {result.extrapolation ? (
            <ExtrapolationNotice features={result.extrapolationFeatures} />
          ) : null}
          <ModelParts
            setup={result.modelSetup}
            scoreIfSits={result.scoreIfSits}
            risk={result.noFinalScoreRisk}
            low={result.interval.low}
            high={result.interval.high}
          />
          <FactorChart result={result} />
          <WhatIf key={`${result.id ?? ""}${result.createdAt ?? ""}`} base={result} />
          {user?.role === "student" && result.id ? (
            <ContestForm key={result.id} predictionId={result.id} />
          ) : null}
        </>
      ) : summary ? (
        <>
          <ScoreCard
            prediction={summary.prediction}
            message={summary.message}
            low={summary.interval.low}
            high={summary.interval.high}
            level={null}
            when={summary.createdAt}
          />
          <PredictionSource result={summary} />
          <OversightNotice />
          {user?.role === "student" ? (
            <ContestForm key={summary.id} predictionId={summary.id} />
          ) : null}
          <Alert tone="info">
            <p>{t("prediction.earlierModel")}</p>
          </Alert>
        </>
      ) : history.isPending ? (
        <Spinner label={t("prediction.loading")} />
      ) : history.isError ? (
        <ErrorState query={history} />
      ) : (
        <EmptyState
          title={t("messages.noPrediction")}
          action={<ButtonLink to="/student-input">{t("prediction.goToInput")}</ButtonLink>}
        >
          <p>{t("prediction.emptyHelp")}</p>
        </EmptyState>
      )}
      {history.data && history.data.items.length > 0 ? (
        <TrendChart items={history.data.items} />
      ) : null}
      {user?.role === "student" ? <ShareExplanation /> : null}
    </div>
  );
}

function ScoreCard({
  prediction,
  message,
  low,
  high,
  level,
  when,
}: {
  prediction: number;
  message: string;
  low: number;
  high: number;
  level: number | null;
  when: string | null;
}) {
  const band = bandOf(prediction);
  const { intl, score, dayTime } = usePredictionText();
  const range = {
    low: score(low),
    high: score(high),
    b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
  };
  return (
    <Card className={`prediction-score prediction-${band}`} aria-labelledby="score-title">
      <h2 id="score-title" className="visually-hidden">
        {intl.formatMessage({ id: "prediction.score.title" })}
      </h2>
      <p className="prediction-value">
        <span data-testid="prediction-score">{score(prediction)}</span>
        <span className="prediction-outof"> / 20</span>
      </p>
      <p className="prediction-message" data-testid="prediction-message">
        {bandMessage(intl, band, message)}
      </p>
      <p className="muted">
        {level === null
          ? intl.formatMessage({ id: "prediction.score.range" }, range)
          : intl.formatMessage(
              { id: "prediction.score.rangeLevel" },
              { ...range, percent: Math.round(level * 100) },
            )}
      </p>
      {when ? (
        <p className="muted">
          {intl.formatMessage({ id: "prediction.score.when" }, { when: dayTime(when) })}
        </p>
      ) : null}
    </Card>
  );
}

function ExtrapolationNotice({
  features,
}: {
  features: PredictionResult["extrapolationFeatures"];
}) {
  const { intl, label, list } = usePredictionText();
  const names = features.map((f) => label(f));
  return (
    <Alert tone="warning" title={intl.formatMessage({ id: "prediction.extrapolation.title" })}>
      <p>
        {intl.formatMessage(
          { id: "prediction.extrapolation.text" },
          { count: names.length, names: list(names, "comma") },
        )}
      </p>
    </Alert>
  );
}
