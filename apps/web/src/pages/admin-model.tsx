import { PageHeader } from "../components/page-header.tsx";
import { ModelView } from "../features/model/model-view.tsx";

// /admin/model (issue 30): the model learns from its school, behind an evaluation gate.
export default function AdminModelPage() {
  return (
    <div className="stack">
      <PageHeader
        title="Model"
        description="The grade model in use, candidates trained on this school's recorded outcomes, and the gate each must pass before it replaces the model in use. Every version is kept for a one-click rollback."
      />
      <ModelView />
    </div>
  );
}
