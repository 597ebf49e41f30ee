import { isReportHeight, reportFrame } from "@gradecast/contract/analytics";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useSession } from "../auth/session.tsx";
import { Button } from "../components/button.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { QueryView } from "../components/query-view.tsx";
import { useEmbed } from "../features/analytics/api.ts";
import { ClassChooser } from "../features/analytics/class-chooser.tsx";
import { JoinClass } from "../features/classes/join-class.tsx";
import { MyReports } from "../features/reports/my-reports.tsx";
import { useIntl, useT } from "../i18n/intl.tsx";
import "../features/analytics/analytics.css";

// /student-dashboard: the analytics report in a sandboxed frame of
// 1250 by 600 with a Back button. The frame's address comes from GET /api/analytics/embed: the
// built-in report with a 10-minute token carrying only this viewer's scope, or the school's
// external report when ANALYTICS_EMBED_URL is set. Between 700 and 1250 pixels the whole frame
// is scaled down to fit, keeping the report's own layout; below 700 (a phone, where the scaled
// frame was unreadably small) the report is shown full-width at its own size instead.
export default function StudentDashboard() {
  const navigate = useNavigate();
  const { user } = useSession();
  const { intl, t } = useT();
  const staff = user?.role === "teacher" || user?.role === "admin" ? user.role : null;
  // Staff choose which classes the report is about; the frame then loads with a new token.
  const [classId, setClassId] = useState("");
  const embed = useEmbed(classId);
  const back = () => {
    // Back to the previous screen of the app, or to the dashboard when this page was the first
    // one opened: history.length also counts other sites' pages, which Back would leave for.
    // The router numbers its own entries (history.state.idx), 0 for the first.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate("/dashboard");
  };

  return (
    <div className="stack">
      <PageHeader
        title={t("studentDashboard.title")}
        description={t("studentDashboard.description")}
        actions={
          <Button variant="secondary" onClick={back}>
            {t("studentDashboard.back")}
          </Button>
        }
      />
      <JoinClass />
      {staff && !embed.data?.external ? (
        <ClassChooser role={staff} classId={classId} onChange={setClassId} />
      ) : null}
      <QueryView
        query={embed}
        loading={t("studentDashboard.loading")}
        failed={t("studentDashboard.failed")}
      >
        {(frame) => (
          <>
            <ScaledFrame src={frame.url} external={frame.external} />
            <p className="report-frame-note">
              {frame.external
                ? `${intl.formatMessage(
                    { id: "studentDashboard.external" },
                    { host: new URL(frame.url).host },
                  )} `
                : null}
              {intl.formatMessage(
                { id: "studentDashboard.openAlone" },
                {
                  link: (chunks: ReactNode[]) => (
                    <a href={frame.url} target="_blank" rel="noopener noreferrer">
                      {chunks}
                      <span className="visually-hidden"> {t("studentDashboard.newTab")}</span>
                    </a>
                  ),
                },
              )}
            </p>
          </>
        )}
      </QueryView>
      <MyReports />
    </div>
  );
}

/** A window narrower than this shows the report full-width rather than as a scaled frame. */
const fullWidthBelow = 700;

function ScaledFrame({ src, external }: { src: string; external: boolean }) {
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const container = box.current;
    const iframe = frame.current;
    if (!container || !iframe) return;
    // Set through the CSSOM (the CSP refuses inline style attributes, not script-set styles).
    const fit = () => {
      const full = window.innerWidth < fullWidthBelow;
      container.classList.toggle("report-frame-box-full", full);
      const scale = full ? 1 : Math.min(1, container.clientWidth / reportFrame.width);
      iframe.style.transform = scale < 1 ? `scale(${scale})` : "";
      container.style.height = full ? "" : `${Math.ceil(reportFrame.height * scale)}px`;
      if (!full) {
        iframe.style.height = "";
        iframe.classList.remove("report-frame-sized");
      }
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(container);
    // On a phone the built-in report says how tall it is (pages/report.tsx): the frame takes
    // that height, so the report does not scroll in a box inside the page. Taken only from this
    // frame's own window, from its opaque origin (its sandbox has no allow-same-origin), and
    // within the contract's bounds; an external report's messages are never read.
    const onMessage = (event: MessageEvent) => {
      if (external || event.source !== iframe.contentWindow || event.origin !== "null") return;
      if (!isReportHeight(event.data)) return;
      if (!container.classList.contains("report-frame-box-full")) return;
      iframe.style.height = `${Math.ceil(event.data.height)}px`;
      iframe.classList.add("report-frame-sized");
    };
    window.addEventListener("message", onMessage);
    return () => {
      observer.disconnect();
      window.removeEventListener("message", onMessage);
    };
  }, [external]);

  return (
    <div ref={box} className="report-frame-box">
      {/*
        The sandbox keeps only what the report needs: allow-scripts (it fetches its data and draws
        charts). Without allow-same-origin the built-in report runs in an opaque origin: a script
        inside it cannot read this application's storage, cookies or pages, and its one
        credential is the embed token in its address (the server also sandboxes /report itself).
        An external report (ANALYTICS_EMBED_URL) keeps allow-same-origin: its origin is its own,
        never this one, and it needs it for its own calls and assets. Not granted: top
        navigation, pop-ups, forms, modals, downloads.
      */}
      <iframe
        ref={frame}
        className="report-frame"
        src={src}
        title={intl.formatMessage({ id: "studentDashboard.frameTitle" })}
        width={reportFrame.width}
        height={reportFrame.height}
        sandbox={external ? "allow-scripts allow-same-origin" : "allow-scripts"}
        referrerPolicy="no-referrer"
      />
    </div>
  );
}
