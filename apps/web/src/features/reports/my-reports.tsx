import { formatDay } from "@gradecast/contract/dates";
import { useSession } from "../../auth/session.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { Facts } from "../../components/facts.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useMyReports } from "./students-api.ts";
import "./reports.css";

// The student dashboard's "Reports about you": what the teachers of the student's classes wrote,
// newest first, read-only, with the teacher's name and the date. Shown to students only.

export function MyReports() {
  const { user } = useSession();
  if (user?.role !== "student") return null;
  return <MyReportList />;
}

function MyReportList() {
  const reports = useMyReports();
  const items = reports.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card title="Reports about you" aria-busy={reports.isFetching || undefined}>
      <p className="field-hint">
        What your teachers wrote about you in your classes. Only you, your class's teachers and the
        school's admins can read them.
      </p>
      {reports.isPending ? (
        <Spinner label="Loading your reports..." />
      ) : reports.isError ? (
        <ErrorState title="Your reports could not be loaded." query={reports} />
      ) : items.length === 0 ? (
        <EmptyState title="No reports about you yet.">
          When a teacher of one of your classes files a report about you, it appears here.
        </EmptyState>
      ) : (
        <>
          <ul className="my-reports-list">
            {items.map((r) => (
              <li key={r.id} className="my-report">
                <h3 className="card-title">{r.course}</h3>
                <p className="my-report-meta">
                  By {r.teacherName}
                  {r.className ? `, ${r.className}` : ""} on{" "}
                  <time dateTime={r.createdAt}>{formatDay(r.createdAt)}</time>
                </p>
                <Facts
                  className="my-report-figures"
                  facts={[
                    ["Marks", `${r.marks} out of 100`],
                    ["Attendance", `${r.attendance} %`],
                    ["Assignments", `${r.assignments} out of 6`],
                    ["Behavior", r.behavior],
                  ]}
                />
                <p className="my-report-feedback">{r.feedback}</p>
              </li>
            ))}
          </ul>
          {reports.hasNextPage ? (
            <Button
              variant="secondary"
              onClick={() => void reports.fetchNextPage()}
              loading={reports.isFetchingNextPage}
            >
              Show older reports
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
