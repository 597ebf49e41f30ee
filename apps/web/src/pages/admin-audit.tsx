import {
  type AuditEntryView,
  auditActionLabel,
  auditActions,
  auditDetailLabel,
  auditValueLabels,
} from "@gradecast/contract/admin";
import { formatDayTime } from "@gradecast/contract/dates";
import { type FormEvent, useState } from "react";
import { ApiError } from "../api/client.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { AdminFilters } from "../features/admin/admin-filters.tsx";
import { type AuditFilters, noFilters, useAuditLog } from "../features/admin/api.ts";
import { PagedTable } from "../features/admin/paged-table.tsx";
import "../features/admin/admin.css";

// /admin/audit (issue 8): who did what, when and from which address, newest first, paged, with
// filters on the action, the actor (part of an email, or an account id) and a period of days.

const actionOptions = Object.entries(auditActions).map(([value, label]) => ({ value, label }));

function formatTime(iso: string): string {
  return formatDayTime(iso);
}

function detailText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return JSON.stringify(value);
  return auditValueLabels[String(value)] ?? String(value);
}

/** A person as the audit log names them: their name, with their email under it. */
function Person({
  name,
  email,
  none,
}: {
  name: string | null;
  email: string | null;
  none: string;
}) {
  if (!name && !email) return <span className="muted">{none}</span>;
  return (
    <>
      {name ?? email}
      {name && email ? <span className="admin-email muted admin-person-email">{email}</span> : null}
    </>
  );
}

function Details({
  details,
  names,
}: {
  details: Record<string, unknown>;
  names: Record<string, string>;
}) {
  // An id means nothing to a reader: its name, or nothing when it has none (deleted since).
  const entries = Object.entries(details).flatMap(([key, value]): [string, unknown][] => {
    if (!key.endsWith("Id") || typeof value !== "string") return [[key, value]];
    const name = names[value];
    return name ? [[key, name]] : [];
  });
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="admin-details">
      {entries.map(([key, value]) => (
        <li key={key}>
          <strong>{auditDetailLabel(key)}</strong>: {detailText(value)}
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
        description="Who changed what and when: logins, role changes, disables, password changes and resets, report edits and deletions."
      />
      <AdminFilters
        label="Filter the audit log"
        onSubmit={apply}
        submitLabel="Apply filters"
        onClear={filtered ? clear : undefined}
      >
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
        {(["from", "to"] as const).map((name) => (
          <Field
            key={name}
            label={name === "from" ? "From" : "To"}
            type="date"
            value={draft[name]}
            onChange={(e) => set(name)(e.target.value)}
            error={fieldError(name)}
          />
        ))}
      </AdminFilters>
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
  return (
    <PagedTable
      state={state}
      count={entries.length}
      nouns={["audit log entry", "audit log entries"]}
      busy={refreshing}
      empty={
        <EmptyState
          title={filtered ? "No entry matches these filters." : "The audit log is empty."}
        />
      }
      head={["When", "Action", "Who", "Target", "Address", "Details"]}
    >
      {entries.map((e) => (
        <tr key={e.id}>
          <td data-label="When">
            <time dateTime={e.at}>{formatTime(e.at)}</time>
          </td>
          <td data-label="Action">{auditActionLabel(e.action)}</td>
          <td data-label="Who">
            <Person
              name={e.actorName}
              email={e.actorEmail}
              none={e.actorId ? "A deleted account" : "System (command line)"}
            />
          </td>
          <td data-label="Target">
            {e.targetName || e.targetEmail ? (
              <Person name={e.targetName} email={e.targetEmail} none="—" />
            ) : e.target ? (
              <span className="muted">{e.target === e.actorId ? "Themselves" : "A record"}</span>
            ) : (
              "—"
            )}
          </td>
          <td className="admin-mono" data-label="Address">
            {e.ip ?? "—"}
          </td>
          <td data-label="Details">
            <Details details={e.details} names={e.names} />
          </td>
        </tr>
      ))}
    </PagedTable>
  );
}
