import { lazy, Suspense } from "react";
import { useSession } from "../auth/session.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { EvaluationView } from "../features/evaluation/evaluation-view.tsx";

const FlagSummaryCard = lazy(() => import("../features/notifications/flag-summary.tsx"));

// /evaluation (issue 29): how the model did for this school, for admins (every class) and
// teachers (the classes they teach).
export default function EvaluationPage() {
  const { user } = useSession();
  return (
    <div className="stack">
      <PageHeader
        title="How the model did"
        description="Once final grades are recorded, the predictions made before them are scored here, beside what the model card promised."
      />
      <EvaluationView viewer={user?.role === "admin" ? "admin" : "teacher"} />
      <Suspense fallback={<Spinner label="Loading the teachers' judgements..." />}>
        <FlagSummaryCard />
      </Suspense>
    </div>
  );
}
