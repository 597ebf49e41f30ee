import { Children, type ReactNode, useEffect, useState } from "react";
import { useReportText } from "./report-text.ts";

// The report laid out for the Student Dashboard's fixed 1250 by 600 frame: two parts side by
// side on each page, with Previous, Next and page buttons, so that nothing scrolls inside the
// frame and every chart keeps a legible size. Opened on its own page, or in the full-width frame
// of a phone, the report is one scrolling grid as before. Every page stays mounted (the others
// hidden), so a chart keeps its drawing and the page's text is complete for find-in-page.

/** The report fills the fixed frame: framed, at the frame's width and height (not a phone's). */
function inFixedFrame(): boolean {
  let framed = false;
  try {
    framed = window.self !== window.top;
  } catch {
    // A frame of another origin cannot read its parent: it is framed.
    framed = true;
  }
  return framed && window.innerWidth >= 1000 && window.innerHeight <= 700;
}

function useFixedFrame(): boolean {
  const [fixed, setFixed] = useState(inFixedFrame);
  useEffect(() => {
    const update = () => setFixed(inFixedFrame());
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return fixed;
}

const perPage = 2;

export function ReportPages({ lead, children }: { lead?: ReactNode; children: ReactNode }) {
  const fixed = useFixedFrame();
  const { t } = useReportText();
  const [current, setCurrent] = useState(0);
  const parts = Children.toArray(children);
  const pages: ReactNode[][] = [];
  for (let i = 0; i < parts.length; i += perPage) pages.push(parts.slice(i, i + perPage));

  if (!fixed) {
    return (
      <div className="report-grid">
        {lead}
        {children}
      </div>
    );
  }
  const last = pages.length - 1;
  const page = Math.min(current, last);
  return (
    <div className="report-paged">
      {lead}
      <nav className="report-pager" aria-label={t("analytics.report.pages.label")}>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={page === 0}
          onClick={() => setCurrent(page - 1)}
        >
          {t("analytics.report.pages.previous")}
        </button>
        <ol className="report-pager-list">
          {pages.map((_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pages are positions
            <li key={i}>
              <button
                type="button"
                className="btn btn-ghost"
                aria-current={i === page ? "page" : undefined}
                aria-label={t("analytics.report.pages.page", {
                  page: i + 1,
                  pages: pages.length,
                })}
                onClick={() => setCurrent(i)}
              >
                {i + 1}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={page === last}
          onClick={() => setCurrent(page + 1)}
        >
          {t("analytics.report.pages.next")}
        </button>
        <p className="report-pager-status" aria-live="polite">
          {t("analytics.report.pages.page", { page: page + 1, pages: pages.length })}
        </p>
      </nav>
      {pages.map((items, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pages are positions
        <div key={i} className="report-grid report-page-part" hidden={i !== page}>
          {items}
        </div>
      ))}
    </div>
  );
}
