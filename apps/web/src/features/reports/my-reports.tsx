import type { ReactNode } from "react";
import { useSession } from "../../auth/session.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { Facts } from "../../components/facts.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useFormats } from "../../components/use-formats.ts";
import { reportFigures } from "./report-dialogs.tsx";
import { useMyReports } from "./students-api.ts";
import { useReportText } from "./text.ts";
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
  const { t, rich, behavior } = useReportText();
  const { day } = useFormats();
  return (
    <Card title={t("reports.mine.title")} aria-busy={reports.isFetching || undefined}>
      <p className="field-hint">{t("reports.mine.intro")}</p>
      {reports.isPending ? (
        <Spinner label={t("reports.mine.loading")} />
      ) : reports.isError ? (
        <ErrorState title={t("reports.mine.failed")} query={reports} />
      ) : items.length === 0 ? (
        <EmptyState title={t("reports.mine.empty")}>{t("reports.mine.emptyText")}</EmptyState>
      ) : (
        <>
          <ul className="my-reports-list">
            {items.map((r) => (
              <li key={r.id} className="my-report">
                <h3 className="card-title">{r.course}</h3>
                <p className="my-report-meta">
                  {rich(r.className ? "reports.mine.byInClass" : "reports.mine.by", {
                    teacher: r.teacherName,
                    className: r.className ?? "",
                    date: day(r.createdAt),
                    time: (chunks: ReactNode[]) => <time dateTime={r.createdAt}>{chunks}</time>,
                  })}
                </p>
                <Facts
                  className="my-report-figures"
                  facts={[
                    ...reportFigures(t, r),
                    [t("csv.reports.behavior"), behavior(r.behavior)],
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
              {t("reports.mine.older")}
            </Button>
          ) : null}
        </>
      )}
    </Card>
  );
}
