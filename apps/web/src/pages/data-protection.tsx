import { FeaturePage } from "../components/page-header.tsx";
import { DataProtectionView } from "../features/privacy/data-protection.tsx";

// /admin/data-protection (issue 31): retention, purges, deletions and students to review.
export default function DataProtectionPage() {
  return (
    <FeaturePage titleId="privacyPages.dp.title" descriptionId="privacyPages.dp.description">
      <DataProtectionView />
    </FeaturePage>
  );
}
