import { reportFrame } from "@gradecast/contract/analytics";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { Button } from "../components/button.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useEmbed } from "../features/analytics/api.ts";
import "../features/analytics/analytics.css";

// /student-dashboard (SPEC.md sections 2 and 9): the analytics report in a sandboxed frame of
// 1250 by 600 with a Back button. The frame's address comes from GET /api/analytics/embed: the
// built-in report with a 10-minute token carrying only this viewer's scope, or the school's
// external report when ANALYTICS_EMBED_URL is set. On a narrower screen the whole frame is
// scaled down to fit, keeping the report's own layout.
export default function StudentDashboard() {
  const navigate = useNavigate();
  const embed = useEmbed();
  const back = () => {
    // Back to where the user came from, or to the dashboard when this page was opened directly.
    if (window.history.length > 1) navigate(-1);
    else navigate("/dashboard");
  };

  return (
    <div className="stack">
      <PageHeader
        title="Student Dashboard"
        description="The analytics report on student performance."
        actions={
          <Button variant="secondary" onClick={back}>
            Back
          </Button>
        }
      />
      {embed.isPending ? (
        <Spinner label="Loading the report..." />
      ) : embed.isError ? (
        <ErrorState
          title="The report could not be opened."
          error={embed.error}
          onRetry={() => void embed.refetch()}
          retrying={embed.isFetching}
        />
      ) : (
        <>
          <ScaledFrame src={embed.data.url} />
          <p className="report-frame-note">
            {embed.data.external
              ? `This report is provided by your school from ${new URL(embed.data.url).host}. `
              : null}
            On a small screen the report is shrunk to fit;{" "}
            <a href={embed.data.url} target="_blank" rel="noopener noreferrer">
              open it on its own page
            </a>{" "}
            to read it at full size.
          </p>
        </>
      )}
    </div>
  );
}

function ScaledFrame({ src }: { src: string }) {
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const container = box.current;
    const iframe = frame.current;
    if (!container || !iframe) return;
    // Set through the CSSOM (the CSP refuses inline style attributes, not script-set styles).
    const fit = () => {
      const scale = Math.min(1, container.clientWidth / reportFrame.width);
      iframe.style.transform = scale < 1 ? `scale(${scale})` : "";
      container.style.height = `${Math.ceil(reportFrame.height * scale)}px`;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(container);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={box} className="report-frame-box">
      {/*
        The sandbox keeps only what the report needs:
        - allow-scripts: the report is a script-driven page (it fetches its data and draws charts);
        - allow-same-origin: it must keep its real origin to call /api/analytics/report and load
          its own scripts under the CSP's 'self' (an external report needs its own origin too, for
          its session and assets).
        Not granted: top navigation, pop-ups, forms, modals, downloads, pointer lock. With both
        allowances a same-origin page could lift its own sandbox, so for the built-in report the
        real boundary is that it is our own code, with a token that can only read a report.
      */}
      <iframe
        ref={frame}
        className="report-frame"
        src={src}
        title="Analytics report"
        width={reportFrame.width}
        height={reportFrame.height}
        sandbox="allow-scripts allow-same-origin"
        referrerPolicy="no-referrer"
      />
    </div>
  );
}
