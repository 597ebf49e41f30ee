import { PageHeader } from "../components/page-header.tsx";
import { OneRosterImport } from "../features/oneroster/oneroster-import.tsx";
import { useIntl } from "../i18n/intl.tsx";

// /admin/oneroster (issue 34): rosters from the school's information system.
export default function AdminOneRosterPage() {
  const intl = useIntl();
  return (
    <div className="stack">
      <PageHeader
        title={intl.formatMessage({ id: "imports.oneroster.page.title" })}
        description={intl.formatMessage({ id: "imports.oneroster.page.description" })}
      />
      <OneRosterImport />
    </div>
  );
}
