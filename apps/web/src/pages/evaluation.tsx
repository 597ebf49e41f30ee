import { useSession } from "../auth/session.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { EvaluationView } from "../features/evaluation/evaluation-view.tsx";

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
    </div>
  );
}
