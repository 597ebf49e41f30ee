import { lazy, Suspense } from "react";
import { useSession } from "../auth/session.tsx";
import { FeaturePage } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { EvaluationView } from "../features/evaluation/evaluation-view.tsx";
import { useIntl } from "../i18n/intl.tsx";

const FlagSummaryCard = lazy(() => import("../features/notifications/flag-summary.tsx"));

// /evaluation (issue 29): how the model did for this school, for admins (every class) and
// teachers (the classes they teach).
export default function EvaluationPage() {
  const { user } = useSession();
  const intl = useIntl();
  return (
    <FeaturePage titleId="evaluation.page.title" descriptionId="evaluation.page.description">
      <EvaluationView viewer={user?.role === "admin" ? "admin" : "teacher"} />
      <Suspense
        fallback={<Spinner label={intl.formatMessage({ id: "evaluation.page.flagsLoading" })} />}
      >
        <FlagSummaryCard />
      </Suspense>
    </FeaturePage>
  );
}
