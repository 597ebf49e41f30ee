import { FeaturePage } from "../components/page-header.tsx";
import { ModelView } from "../features/model/model-view.tsx";

// /admin/model (issue 30): the model learns from its school, behind an evaluation gate.
export default function AdminModelPage() {
  return (
    <FeaturePage titleId="admin.model.title" descriptionId="admin.model.description">
      <ModelView />
    </FeaturePage>
  );
}
