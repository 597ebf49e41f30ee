import { messages } from "@gradecast/contract/messages";
import type { PredictionHistoryItem, PredictionResult } from "@gradecast/contract/prediction";
import { questionByKey } from "@gradecast/contract/questionnaire";
import { bandOf, formatScore } from "@gradecast/contract/score";
import { useEffect, useState } from "react";
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
import { ContestForm, OversightNotice } from "../features/prediction/contest-form.tsx";
import { FactorChart } from "../features/prediction/factor-chart.tsx";
import { dateTime } from "../features/prediction/format.ts";
import { HighRiskNotice, ModelParts } from "../features/prediction/parts.tsx";
import { PredictionSource } from "../features/prediction/school-record.tsx";
import { ShareExplanation } from "../features/prediction/share-explanation.tsx";
import { TrendChart } from "../features/prediction/trend-chart.tsx";
import { WhatIf } from "../features/prediction/what-if.tsx";
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

  const result = arrived ?? history.data?.latest ?? null;
  const summary: PredictionHistoryItem | undefined = result ? undefined : history.data?.items[0];

  return (
    <div className="stack prediction">
      <PageHeader
        title="Prediction"
        description="Your predicted final score out of 20, its likely range, and what raised or lowered it."
        link={{ to: "/student-input", label: "Change answers" }}
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
            <p>
              This prediction was made by an earlier version of the model, so its explanation is not
              available. Predict again from Student Input to see what moves it.
            </p>
          </Alert>
        </>
      ) : history.isPending ? (
        <Spinner label="Loading your latest prediction..." />
      ) : history.isError ? (
        <ErrorState query={history} />
      ) : (
        <EmptyState
          title={messages.noPrediction}
          action={<ButtonLink to="/student-input">Go to Student Input</ButtonLink>}
        >
          <p>Answer the questionnaire and choose Predict to see your predicted final score.</p>
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
  return (
    <Card className={`prediction-score prediction-${band}`} aria-labelledby="score-title">
      <h2 id="score-title" className="visually-hidden">
        Your predicted score
      </h2>
      <p className="prediction-value">
        <span data-testid="prediction-score">{formatScore(prediction)}</span>
        <span className="prediction-outof"> / 20</span>
      </p>
      <p className="prediction-message" data-testid="prediction-message">
        {message}
      </p>
      <p className="muted">
        {level === null ? "Likely range" : `${Math.round(level * 100)}% likely range`}:{" "}
        <strong>
          {formatScore(low)} to {formatScore(high)}
        </strong>
        {level === null
          ? ""
          : ` (in testing, the real final score fell within such a range for about ${Math.round(level * 100)} in 100 students)`}
        .
      </p>
      {when ? <p className="muted">Predicted {dateTime(when)}.</p> : null}
    </Card>
  );
}

function ExtrapolationNotice({
  features,
}: {
  features: PredictionResult["extrapolationFeatures"];
}) {
  const names = features.map((f) => questionByKey[f]?.label ?? f);
  return (
    <Alert tone="warning" title="Treat this prediction with care">
      <p>
        {names.length > 0 ? `${names.join(", ")}: ` : ""}
        {names.length === 1 ? "this answer lies" : "these answers lie"} outside what the model saw
        in the students it learned from, so the prediction is less certain than usual and the likely
        range shown may be too narrow.
      </p>
    </Alert>
  );
}
