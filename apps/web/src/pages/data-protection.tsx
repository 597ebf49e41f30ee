import { PageHeader } from "../components/page-header.tsx";
import { DataProtectionView } from "../features/privacy/data-protection.tsx";

// /admin/data-protection (issue 31): retention, purges, deletions and students to review.
export default function DataProtectionPage() {
  return (
    <div className="stack">
      <PageHeader
        title="Data protection"
        description="How long each kind of personal data is kept, what is due for deletion, accounts waiting to be deleted and students to review. The privacy notice follows these settings."
      />
      <DataProtectionView />
    </div>
  );
}
