import { PageHeader } from "../components/page-header.tsx";
import { DataProtectionView } from "../features/privacy/data-protection.tsx";
import { useIntl } from "../i18n/intl.tsx";

// /admin/data-protection (issue 31): retention, purges, deletions and students to review.
export default function DataProtectionPage() {
  const intl = useIntl();
  return (
    <div className="stack">
      <PageHeader
        title={intl.formatMessage({ id: "privacyPages.dp.title" })}
        description={intl.formatMessage({ id: "privacyPages.dp.description" })}
      />
      <DataProtectionView />
    </div>
  );
}
