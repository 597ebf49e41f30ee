import { messages } from "@gradecast/contract/messages";
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
import { exportReports, useReportList } from "../features/reports/api.ts";
import {
  formatDate,
  formatDay,
  ReportDetails,
  reportChanges,
} from "../features/reports/report-dialogs.tsx";
import "../features/reports/reports.css";

// /teacher-dashboard: every student report, searched by name on the server (debounced, kept in
// the URL as ?q= with the sort as ?sort=), paged with the server's cursor, exported as CSV, and
// opened, edited or deleted by its author or an admin.

const sortOptions: { value: ReportSort; label: string }[] = [
  { value: "date", label: "Newest first" },
  { value: "name", label: "Student name (A to Z)" },
  { value: "marks", label: "Highest marks first" },
];

const debounceMs = 300;

// The server refuses a longer search: a longer ?q= in a link is cut to it, not turned into an
// error that Retry cannot mend.
const searchMax = reportLimits.search.max;

type Open = { kind: "view" | "edit" | "delete" | "link"; report: Report } | null;

/** The buttons of a report its viewer may change, each opening its dialog. */
const changeActions = [
  { kind: "edit", label: "Edit", variant: "secondary" },
  { kind: "delete", label: "Delete", variant: "danger" },
] as const;

export default function TeacherDashboard() {
  const { user } = useSession();
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
      setExportError(`The export failed: ${errorMessage(err)}`);
    } finally {
      setExporting(false);
    }
  }

  const close = () => setOpen(null);
  const change =
    open && open.kind !== "view" ? { ...reportChanges[open.kind], report: open.report } : null;
  const searching = list.isFetching && list.isPlaceholderData;

  let body: ReactNode;
  if (list.isPending) {
    body = <Spinner label={messages.loadingReports} />;
  } else if (list.isError && !list.data) {
    body = <ErrorState title="The student reports could not be loaded." query={list} />;
  } else if (items.length === 0) {
    body = (
      <EmptyState
        title={messages.noReports}
        action={
          q ? (
            <Button variant="secondary" onClick={() => setText("")}>
              Clear the search
            </Button>
          ) : (
            <ButtonLink to="/teacher-input" variant="secondary">
              Write a report
            </ButtonLink>
          )
        }
      >
        {q ? <p>No student name contains “{q}”.</p> : null}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <div className="reports-table-wrap">
          <table className="reports-table" aria-busy={searching || undefined}>
            <caption className="visually-hidden">
              Student reports{q ? `, names containing “${q}”` : ""}, sorted by{" "}
              {sortOptions.find((o) => o.value === sort)?.label.toLowerCase()}
            </caption>
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Course</th>
                <th scope="col" className="num">
                  Marks <span className="muted">(out of 100)</span>
                </th>
                {/* Whole words only: a heading or name broken mid-word read as two words. */}
                <th scope="col" className="num">
                  Attendance
                </th>
                <th scope="col" className="num">
                  Assignments
                </th>
                <th scope="col">Behavior</th>
                <th scope="col">Teacher</th>
                <th scope="col">Date</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-report-id={r.id}>
                  <td className="report-name" data-label="Student">
                    <button
                      type="button"
                      className="report-open"
                      aria-haspopup="dialog"
                      onClick={() => setOpen({ kind: "view", report: r })}
                    >
                      {r.studentName}
                    </button>
                  </td>
                  <td className="report-text" data-label="Course">
                    {r.course}
                  </td>
                  <td className="num" data-label="Marks">
                    {r.marks}
                  </td>
                  <td className="num" data-label="Attendance">
                    {r.attendance}%
                  </td>
                  <td className="num" data-label="Assignments">
                    {r.assignments}
                  </td>
                  <td data-label="Behavior">{r.behavior}</td>
                  <td className="report-text" data-label="Teacher">
                    {r.authorName}
                  </td>
                  <td className="report-date" data-label="Date">
                    <time dateTime={r.createdAt} title={formatDate(r.createdAt)}>
                      {formatDay(r.createdAt)}
                    </time>
                  </td>
                  <td data-label="Actions">
                    <div className="report-actions">
                      {canChange(r)
                        ? changeActions.map((a) => (
                            <Button
                              key={a.kind}
                              variant={a.variant}
                              aria-label={`${a.label} the report on ${r.studentName}`}
                              onClick={() => setOpen({ kind: a.kind, report: r })}
                            >
                              {a.label}
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
              {list.isFetchNextPageError
                ? "More reports could not be loaded."
                : "The reports could not be refreshed."}{" "}
              {errorMessage(list.error)}
            </p>
            <div>
              <Button
                ref={retryMore}
                variant="secondary"
                onClick={() => (list.isFetchNextPageError ? loadMore() : void list.refetch())}
              >
                Retry
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
              Load more
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="stack">
      <PageHeader
        title="Teacher Dashboard"
        description="Student reports, newest first. Search by student name and sort them. Export CSV saves every report that matches the search, in the order chosen, not only the rows loaded here."
        actions={
          <>
            <ButtonLink to="/teacher-input">New report</ButtonLink>
            <Button variant="secondary" onClick={onExport} loading={exporting}>
              Export CSV
            </Button>
          </>
        }
      />
      <search>
        <form className="reports-toolbar" onSubmit={searchNow} aria-label="Search reports">
          <Field
            label="Search by student name"
            type="search"
            name="q"
            autoComplete="off"
            maxLength={searchMax}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <Select
            label="Sort by"
            name="sort"
            options={sortOptions}
            value={sort}
            onChange={(e) => update({ sort: e.target.value === "date" ? "" : e.target.value })}
          />
        </form>
      </search>
      <p className="reports-status" role="status">
        {searching
          ? "Searching..."
          : list.data && items.length > 0
            ? `${items.length} report${items.length === 1 ? "" : "s"} shown${list.hasNextPage ? ", more available" : ""}.`
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
            setNotice({ text: change.done(report) });
            close();
          }}
        />
      ) : null}
    </div>
  );
}
