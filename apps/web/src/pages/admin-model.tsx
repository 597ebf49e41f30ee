import { PageHeader } from "../components/page-header.tsx";
import { ModelView } from "../features/model/model-view.tsx";
import { useIntl } from "../i18n/intl.tsx";

// /admin/model (issue 30): the model learns from its school, behind an evaluation gate.
export default function AdminModelPage() {
  const intl = useIntl();
  return (
    <div className="stack">
      <PageHeader
        title={intl.formatMessage({ id: "admin.model.title" })}
        description={intl.formatMessage({ id: "admin.model.description" })}
      />
      <ModelView />
    </div>
  );
}
