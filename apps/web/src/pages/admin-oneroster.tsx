import { FeaturePage } from "../components/page-header.tsx";
import { OneRosterImport } from "../features/oneroster/oneroster-import.tsx";

// /admin/oneroster (issue 34): rosters from the school's information system.
export default function AdminOneRosterPage() {
  return (
    <FeaturePage
      titleId="imports.oneroster.page.title"
      descriptionId="imports.oneroster.page.description"
    >
      <OneRosterImport />
    </FeaturePage>
  );
}
