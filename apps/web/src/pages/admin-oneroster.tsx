import { PageHeader } from "../components/page-header.tsx";
import { OneRosterImport } from "../features/oneroster/oneroster-import.tsx";

// /admin/oneroster (issue 34): rosters from the school's information system.
export default function AdminOneRosterPage() {
  return (
    <div className="stack">
      <PageHeader
        title="OneRoster import"
        description="Classes, teachers and enrolments from the school's information system, as a OneRoster 1.2 CSV bundle. Preview first; nothing changes until you import."
      />
      <OneRosterImport />
    </div>
  );
}
