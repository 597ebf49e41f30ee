import { reportHeightMessage } from "@gradecast/contract/analytics";
import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useReport } from "../features/analytics/api.ts";
import { useReportText } from "../features/analytics/report-text.ts";
import { StaffReportView } from "../features/analytics/staff-report.tsx";
import { StudentReportView } from "../features/analytics/student-report.tsx";
import "../features/analytics/analytics.css";

// /report?token=…: the built-in analytics report, the page inside the Student Dashboard's frame
// (the one route the server lets this origin frame). The embed token in the address is its only
// credential and decides what it shows: the staff report or the viewer's own student report.
/**
 * Framed on a phone (the Student Dashboard shows the report full-width there), tell the parent
 * how tall the report is, whenever that changes, so that the frame grows to it and the report
 * does not scroll in a box of its own. Posted to this address's origin only: the app that frames
 * it (this page's sandbox makes its own origin opaque, so the parent checks the source).
 */
function useHeightForParent(main: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = main.current;
    if (!element || window.parent === window) return;
    let last = 0;
    const send = () => {
      if (window.innerWidth >= 700) return;
      const height = Math.ceil(element.getBoundingClientRect().bottom + window.scrollY);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: reportHeightMessage.type, height }, window.location.origin);
    };
    send();
    const observer = new ResizeObserver(send);
    observer.observe(element);
    return () => observer.disconnect();
  }, [main]);
}

export default function Report() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const query = useReport(token);
  const main = useRef<HTMLElement>(null);
  useHeightForParent(main);
  const text = useReportText();
  const { t } = text;
  const title = t("analytics.report.page.title");

  return (
    // A tab stop of its own: a report without any control (a student with no data yet) would
    // otherwise be skipped by Tab in its sandboxed frame, and could not be scrolled by keyboard.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus to scroll
    <main className="report-page" id="main" tabIndex={0} ref={main}>
      {token === null ? (
        <>
          <PageHeader title={title} />
          <ErrorState title={t("analytics.report.page.noToken")}>
            {t("analytics.report.page.noTokenHint")}
          </ErrorState>
        </>
      ) : query.isPending ? (
        <>
          <PageHeader title={title} />
          <Spinner label={t("analytics.report.page.loading")} />
        </>
      ) : query.isError ? (
        <>
          <PageHeader title={title} />
          <ErrorState title={t("analytics.report.page.loadError")} query={query} />
        </>
      ) : (
        <>
          <PageHeader
            title={
              query.data.scope === "staff"
                ? t("analytics.report.page.staffTitle")
                : t("analytics.report.page.studentTitle")
            }
            description={t("analytics.report.page.asOf", {
              at: text.dateTime(query.data.generatedAt),
            })}
          />
          {query.data.scope === "staff" ? (
            <StaffReportView report={query.data} />
          ) : (
            <StudentReportView report={query.data} />
          )}
        </>
      )}
    </main>
  );
}
