import { type AuditEntryView, auditActionLabel, auditActions } from "@gradecast/contract/admin";
import { type FormEvent, useState } from "react";
import { ApiError } from "../api/client.ts";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { Spinner } from "../components/spinner.tsx";
import { type AuditFilters, noFilters, useAuditLog } from "../features/admin/api.ts";
import "../features/admin/admin.css";

// /admin/audit (issue 8): who did what, when and from which address, newest first, paged, with
// filters on the action, the actor (part of an email, or an account id) and a period of days.

const actionOptions = Object.entries(auditActions).map(([value, label]) => ({
  value,
  label: `${label} (${value})`,
}));

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

function detailText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="admin-details">
      {entries.map(([key, value]) => (
        <li key={key}>
          <strong>{key}</strong>: {detailText(value)}
        </li>
      ))}
    </ul>
  );
}

export default function AdminAudit() {
  const [draft, setDraft] = useState<AuditFilters>(noFilters);
  const [filters, setFilters] = useState<AuditFilters>(noFilters);
  const [localError, setLocalError] = useState<Partial<Record<keyof AuditFilters, string>>>({});
  const log = useAuditLog(filters);
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const serverFields = log.error instanceof ApiError ? log.error.fields : {};
  const fieldError = (name: keyof AuditFilters) => localError[name] ?? serverFields[name];
  const filtered = Object.values(filters).some((v) => v !== "");

  function apply(event: FormEvent) {
    event.preventDefault();
    if (draft.from && draft.to && draft.to < draft.from) {
      setLocalError({ to: "The end of the period must come after its start." });
      return;
    }
    setLocalError({});
    setFilters({ ...draft, actor: draft.actor.trim() });
  }

  function clear() {
    setLocalError({});
    setDraft(noFilters);
    setFilters(noFilters);
  }

  const set = (name: keyof AuditFilters) => (value: string) =>
    setDraft((d) => ({ ...d, [name]: value }));

  return (
    <div className="stack">
      <PageHeader
        title="Audit log"
        description="Who changed what and when: sign-ins, role changes, disables, password changes and resets, report edits and deletions."
      />
      <form className="admin-filters" onSubmit={apply} aria-label="Filter the audit log">
        <Select
          label="Action"
          value={draft.action}
          onChange={(e) => set("action")(e.target.value)}
          placeholder="All actions"
          options={actionOptions}
          error={fieldError("action")}
        />
        <Field
          label="Actor"
          hint="Part of an email address, or an account id"
          value={draft.actor}
          onChange={(e) => set("actor")(e.target.value)}
          maxLength={254}
          error={fieldError("actor")}
        />
        <Field
          label="From"
          type="date"
          value={draft.from}
          onChange={(e) => set("from")(e.target.value)}
          error={fieldError("from")}
        />
        <Field
          label="To"
          type="date"
          value={draft.to}
          onChange={(e) => set("to")(e.target.value)}
          error={fieldError("to")}
        />
        <div className="admin-filters-actions">
          <Button type="submit">Apply filters</Button>
          {filtered ? (
            <Button variant="ghost" onClick={clear}>
              Clear
            </Button>
          ) : null}
        </div>
      </form>
      <AuditTable
        state={log}
        entries={entries}
        filtered={filtered}
        refreshing={log.isFetching && !log.isFetchingNextPage}
      />
    </div>
  );
}

function AuditTable({
  state,
  entries,
  filtered,
  refreshing,
}: {
  state: ReturnType<typeof useAuditLog>;
  entries: AuditEntryView[];
  filtered: boolean;
  refreshing: boolean;
}) {
  if (state.isPending) return <Spinner label="Loading the audit log..." />;
  if (state.isError && entries.length === 0) {
    return (
      <ErrorState
        title="The audit log could not be loaded."
        error={state.error}
        onRetry={() => state.refetch()}
        retrying={state.isFetching}
      />
    );
  }
  if (entries.length === 0) {
    return filtered ? (
      <EmptyState title="No entry matches these filters." />
    ) : (
      <EmptyState title="The audit log is empty." />
    );
  }
  return (
    <>
      <p className="admin-status" aria-live="polite">
        {refreshing
          ? "Loading..."
          : `${entries.length}${state.hasNextPage ? "+" : ""} ${
              entries.length === 1 && !state.hasNextPage ? "entry" : "entries"
            }, newest first`}
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table" aria-busy={refreshing || undefined}>
          <caption className="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Who</th>
              <th scope="col">Target</th>
              <th scope="col">Address</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When">
                  <time dateTime={e.at}>{formatTime(e.at)}</time>
                </td>
                <td data-label="Action">
                  {auditActionLabel(e.action)}
                  <br />
                  <span className="admin-mono muted">{e.action}</span>
                </td>
                <td className="admin-email" data-label="Who">
                  {e.actorEmail ?? (e.actorId ? e.actorId : "System (command line)")}
                </td>
                <td className="admin-mono" data-label="Target">
                  {e.target ?? "—"}
                </td>
                <td className="admin-mono" data-label="Address">
                  {e.ip ?? "—"}
                </td>
                <td data-label="Details">
                  <Details details={e.details} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {state.isError ? (
        <Alert tone="error">The next page could not be loaded. {state.error.message}</Alert>
      ) : null}
      {state.hasNextPage ? (
        <div className="admin-more">
          <Button
            variant="secondary"
            onClick={() => state.fetchNextPage()}
            loading={state.isFetchingNextPage}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
