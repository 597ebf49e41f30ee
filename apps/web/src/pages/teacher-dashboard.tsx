import {
  type Report,
  type ReportSort,
  reportLimits,
  reportSorts,
} from "@gradecast/contract/reports";
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { useSession } from "../auth/session.tsx";
import { Alert, ErrorAlert } from "../components/alert.tsx";
import { Button, ButtonLink } from "../components/button.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState, errorMessage } from "../components/error-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFormats } from "../components/use-formats.ts";
import { exportReports, useReportList } from "../features/reports/api.ts";
import { ReportDetails, reportChanges } from "../features/reports/report-dialogs.tsx";
import { numericLabels } from "../features/reports/report-fields.tsx";
import { useReportText } from "../features/reports/text.ts";
import "../features/reports/reports.css";

// /teacher-dashboard: every student report, searched by name on the server (debounced, kept in
// the URL as ?q= with the sort as ?sort=), paged with the server's cursor, exported as CSV, and
// opened, edited or deleted by its author or an admin.

const sortLabels: Record<ReportSort, string> = {
  date: "teacherDashboard.sort.date",
  name: "teacherDashboard.sort.name",
  marks: "teacherDashboard.sort.marks",
};

const debounceMs = 300;

// The server refuses a longer search: a longer ?q= in a link is cut to it, not turned into an
// error that Retry cannot mend.
const searchMax = reportLimits.search.max;

const muted = (chunks: ReactNode[]) => <span className="muted">{chunks}</span>;

type Open = { kind: "view" | "edit" | "delete" | "link"; report: Report } | null;

/** The buttons of a report its viewer may change, each opening its dialog. */
const changeActions = [
  {
    kind: "edit",
    label: "reports.edit",
    aria: "teacherDashboard.editLabel",
    variant: "secondary",
  },
  {
    kind: "delete",
    label: "reports.delete",
    aria: "teacherDashboard.deleteLabel",
    variant: "danger",
  },
] as const;

export default function TeacherDashboard() {
  const { user } = useSession();
  const { t, rich, behavior } = useReportText();
  const { day, dayTime } = useFormats();
  const sortOptions = reportSorts.map((value) => ({ value, label: t(sortLabels[value]) }));
  const [params, setParams] = useSearchParams();
  const q = (params.get("q") ?? "").trim().slice(0, searchMax).trim();
  const sortParam = params.get("sort");
  const sort: ReportSort = reportSorts.includes(sortParam as ReportSort)
    ? (sortParam as ReportSort)
    : "date";

  const [text, setText] = useState(q);
  const lastSent = useRef(q);
  const [open, setOpen] = useState<Open>(null);
  // An object, so that the same text twice still moves focus to it.
  const [notice, setNotice] = useState<{ text: string } | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const update = useCallback(
    (changes: Record<string, string>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  // Typing: the URL (and so the query) follows the box after a pause.
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = wanted;
      update({ q: wanted });
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [text, update]);

  // Back, forward or a link: the box follows the URL.
  useEffect(() => {
    if (q !== lastSent.current) {
      lastSent.current = q;
      setText(q);
    }
  }, [q]);

  function searchNow(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const wanted = text.trim();
    lastSent.current = wanted;
    update({ q: wanted });
  }

  // After an edit or a delete the row that opened the dialog may move or go: focus goes to the
  // message that says what happened.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  const list = useReportList(q, sort);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  // Load more: the next Tab goes on from the first new row, not from the top of the page (the
  // button goes away with the last page); if the page fails, focus goes to its Retry.
  const moreFrom = useRef<number | null>(null);
  const retryMore = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const from = moreFrom.current;
    if (from === null || list.isFetchingNextPage) return;
    if (list.isFetchNextPageError) {
      moreFrom.current = null;
      retryMore.current?.focus();
      return;
    }
    moreFrom.current = null;
    const first = items[from];
    if (first) {
      document
        .querySelector<HTMLElement>(`tr[data-report-id="${CSS.escape(first.id)}"] .report-open`)
        ?.focus();
    }
  });
  function loadMore() {
    moreFrom.current = items.length;
    void list.fetchNextPage();
  }
  const canChange = (r: Report) =>
    user?.role === "admin" || (user !== null && r.authorId === user.uid);

  async function onExport() {
    setExportError(null);
    setExporting(true);
    try {
      await exportReports(q, sort);
    } catch (err) {
      setExportError(t("teacherDashboard.exportFailed", { error: errorMessage(err) }));
    } finally {
      setExporting(false);
    }
  }

  const close = () => setOpen(null);
  // The columns' names, also each cell's label where the table is shown as cards.
  const col = {
    student: t("csv.reports.student"),
    course: t("csv.reports.course"),
    marks: t(numericLabels.marks),
    attendance: t(numericLabels.attendance),
    assignments: t(numericLabels.assignments),
    behavior: t("csv.reports.behavior"),
    teacher: t("reports.details.teacher"),
    date: t("teacherDashboard.col.date"),
    actions: t("teacherDashboard.col.actions"),
  };
  const change =
    open && open.kind !== "view" ? { ...reportChanges[open.kind], report: open.report } : null;
  const searching = list.isFetching && list.isPlaceholderData;

  let body: ReactNode;
  if (list.isPending) {
    body = <Spinner label={t("messages.loadingReports")} />;
  } else if (list.isError && !list.data) {
    body = <ErrorState title={t("teacherDashboard.loadFailed")} query={list} />;
  } else if (items.length === 0) {
    body = (
      <EmptyState
        title={t("messages.noReports")}
        action={
          q ? (
            <Button variant="secondary" onClick={() => setText("")}>
              {t("teacherDashboard.clearSearch")}
            </Button>
          ) : (
            <ButtonLink to="/teacher-input" variant="secondary">
              {t("teacherDashboard.write")}
            </ButtonLink>
          )
        }
      >
        {q ? <p>{t("teacherDashboard.noMatch", { q })}</p> : null}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <div className="reports-table-wrap">
          <table className="reports-table" aria-busy={searching || undefined}>
            <caption className="visually-hidden">
              {t("teacherDashboard.caption", { filtered: q ? "yes" : "no", q, sort })}
            </caption>
            <thead>
              <tr>
                <th scope="col">{col.student}</th>
                <th scope="col">{col.course}</th>
                <th scope="col" className="num">
                  {rich("teacherDashboard.col.marks", { muted })}
                </th>
                {/* Whole words only: a heading or name broken mid-word read as two words. */}
                <th scope="col" className="num">
                  {col.attendance}
                </th>
                <th scope="col" className="num">
                  {col.assignments}
                </th>
                <th scope="col">{col.behavior}</th>
                <th scope="col">{col.teacher}</th>
                <th scope="col">{col.date}</th>
                <th scope="col">
                  <span className="visually-hidden">{col.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-report-id={r.id}>
                  <td className="report-name" data-label={col.student}>
                    <button
                      type="button"
                      className="report-open"
                      aria-haspopup="dialog"
                      onClick={() => setOpen({ kind: "view", report: r })}
                    >
                      {r.studentName}
                    </button>
                  </td>
                  <td className="report-text" data-label={col.course}>
                    {r.course}
                  </td>
                  <td className="num" data-label={col.marks}>
                    {r.marks}
                  </td>
                  <td className="num" data-label={col.attendance}>
                    {t("teacherDashboard.percent", { value: r.attendance })}
                  </td>
                  <td className="num" data-label={col.assignments}>
                    {r.assignments}
                  </td>
                  <td data-label={col.behavior}>{behavior(r.behavior)}</td>
                  <td className="report-text" data-label={col.teacher}>
                    {r.authorName}
                  </td>
                  <td className="report-date" data-label={col.date}>
                    <time dateTime={r.createdAt} title={dayTime(r.createdAt)}>
                      {day(r.createdAt)}
                    </time>
                  </td>
                  <td data-label={col.actions}>
                    <div className="report-actions">
                      {canChange(r)
                        ? changeActions.map((a) => (
                            <Button
                              key={a.kind}
                              variant={a.variant}
                              aria-label={t(a.aria, { name: r.studentName })}
                              onClick={() => setOpen({ kind: a.kind, report: r })}
                            >
                              {t(a.label)}
                            </Button>
                          ))
                        : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.isError ? (
          <Alert tone="error">
            <p>
              {t(
                list.isFetchNextPageError
                  ? "teacherDashboard.moreFailed"
                  : "teacherDashboard.refreshFailed",
                { error: errorMessage(list.error) },
              )}
            </p>
            <div>
              <Button
                ref={retryMore}
                variant="secondary"
                onClick={() => (list.isFetchNextPageError ? loadMore() : void list.refetch())}
              >
                {t("teacherDashboard.retry")}
              </Button>
            </div>
          </Alert>
        ) : null}
        {list.hasNextPage && !list.isFetchNextPageError ? (
          <div className="reports-more">
            <Button
              variant="secondary"
              loading={list.isFetchingNextPage}
              // Pages fetched while the list is refreshed would follow stale cursors.
              disabled={list.isRefetching}
              onClick={loadMore}
            >
              {t("teacherDashboard.loadMore")}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="stack">
      <PageHeader
        title={t("teacherDashboard.title")}
        description={t("teacherDashboard.description")}
        actions={
          <>
            <ButtonLink to="/teacher-input">{t("teacherDashboard.new")}</ButtonLink>
            <Button variant="secondary" onClick={onExport} loading={exporting}>
              {t("teacherDashboard.export")}
            </Button>
          </>
        }
      />
      <search>
        <form
          className="reports-toolbar"
          onSubmit={searchNow}
          aria-label={t("teacherDashboard.search")}
        >
          <Field
            label={t("teacherDashboard.searchLabel")}
            type="search"
            name="q"
            autoComplete="off"
            maxLength={searchMax}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <Select
            label={t("teacherDashboard.sortLabel")}
            name="sort"
            options={sortOptions}
            value={sort}
            onChange={(e) => update({ sort: e.target.value === "date" ? "" : e.target.value })}
          />
        </form>
      </search>
      <p className="reports-status" role="status">
        {searching
          ? t("teacherDashboard.searching")
          : list.data && items.length > 0
            ? t("teacherDashboard.shown", {
                count: items.length,
                more: list.hasNextPage ? "yes" : "no",
              })
            : ""}
      </p>
      <ErrorAlert message={exportError} />
      {notice ? (
        <div ref={noticeRef} tabIndex={-1}>
          <Alert tone="success">
            <p>{notice.text}</p>
          </Alert>
        </div>
      ) : null}
      {body}
      {open?.kind === "view" ? (
        <ReportDetails
          report={open.report}
          canChange={canChange(open.report)}
          onClose={close}
          onEdit={() => setOpen({ kind: "edit", report: open.report })}
          onDelete={() => setOpen({ kind: "delete", report: open.report })}
          onLink={() => setOpen({ kind: "link", report: open.report })}
        />
      ) : null}
      {change ? (
        <change.Dialog
          report={change.report}
          onClose={close}
          onDone={(report) => {
            setNotice({ text: change.done(t, report) });
            close();
          }}
        />
      ) : null}
    </div>
  );
}
