import {
  type AuditEntryView,
  auditActionLabel,
  auditActions,
  auditDetailLabel,
  auditDetailLabels,
  auditValueLabels,
} from "@gradecast/contract/admin";
import { type FormEvent, useState } from "react";
import { ApiError } from "../api/client.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Select } from "../components/select.tsx";
import { useFormats } from "../components/use-formats.ts";
import { AdminFilters } from "../features/admin/admin-filters.tsx";
import { type AuditFilters, noFilters, useAuditLog } from "../features/admin/api.ts";
import { PagedTable } from "../features/admin/paged-table.tsx";
import "../features/admin/admin.css";
import { type PageIntl, useIntl, useT } from "../i18n/intl.tsx";

// /admin/audit (issue 8): who did what, when and from which address, newest first, paged, with
// filters on the action, the actor (part of an email, or an account id) and a period of days.

/**
 * The log's words in the page's language: English is the contract's labels; another language
 * its catalogue's (contract locales audit.json, one entry per label). Anything the contract does
 * not name is shown as written.
 */
function auditWords(intl: PageIntl) {
  const en = intl.locale === "en";
  const has = (map: Record<string, string>, key: string) => Object.hasOwn(map, key);
  return {
    action: (action: string) =>
      en || !has(auditActions, action)
        ? auditActionLabel(action)
        : intl.formatMessage({ id: `audit.action.${action}` }),
    detail: (key: string) =>
      en || !has(auditDetailLabels, key)
        ? auditDetailLabel(key)
        : intl.formatMessage({ id: `audit.detail.${key}` }),
    value: (value: unknown): string => {
      if (value === null || value === undefined) return "—";
      if (typeof value === "object") return JSON.stringify(value);
      const text = String(value);
      if (!has(auditValueLabels, text)) return text;
      return en ? auditValueLabels[text]! : intl.formatMessage({ id: `audit.value.${text}` });
    },
  };
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
  const words = auditWords(useIntl());
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="admin-details">
      {entries.map(([key, value]) => (
        <li key={key}>
          <strong>{words.detail(key)}</strong>: {words.value(value)}
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
  const { intl, t } = useT();
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const serverFields = log.error instanceof ApiError ? log.error.fields : {};
  const fieldError = (name: keyof AuditFilters) => localError[name] ?? serverFields[name];
  const filtered = Object.values(filters).some((v) => v !== "");

  function apply(event: FormEvent) {
    event.preventDefault();
    if (draft.from && draft.to && draft.to < draft.from) {
      setLocalError({ to: t("admin.audit.periodOrder") });
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
      <PageHeader title={t("admin.audit.title")} description={t("admin.audit.description")} />
      <AdminFilters
        label={t("admin.audit.filter")}
        onSubmit={apply}
        submitLabel={t("admin.audit.apply")}
        onClear={filtered ? clear : undefined}
      >
        <Select
          label={t("admin.audit.action")}
          value={draft.action}
          onChange={(e) => set("action")(e.target.value)}
          placeholder={t("admin.audit.allActions")}
          options={Object.keys(auditActions).map((value) => ({
            value,
            label: auditWords(intl).action(value),
          }))}
          error={fieldError("action")}
        />
        <Field
          label={t("admin.audit.actor")}
          hint={t("admin.audit.actorHint")}
          value={draft.actor}
          onChange={(e) => set("actor")(e.target.value)}
          maxLength={254}
          error={fieldError("actor")}
        />
        {(["from", "to"] as const).map((name) => (
          <Field
            key={name}
            label={name === "from" ? t("admin.audit.from") : t("admin.audit.to")}
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
  const { intl, t } = useT();
  const formats = useFormats();
  const words = auditWords(intl);
  const when = t("admin.audit.when");
  const action = t("admin.audit.action");
  const who = t("admin.audit.who");
  const target = t("admin.audit.target");
  const address = t("admin.audit.address");
  const details = t("admin.audit.details");
  return (
    <PagedTable
      state={state}
      count={entries.length}
      noun="entries"
      busy={refreshing}
      empty={<EmptyState title={filtered ? t("admin.audit.noMatch") : t("admin.audit.empty")} />}
      head={[when, action, who, target, address, details]}
    >
      {entries.map((e) => (
        <tr key={e.id}>
          <td data-label={when}>
            <time dateTime={e.at}>{formats.dayTime(e.at)}</time>
          </td>
          <td data-label={action}>{words.action(e.action)}</td>
          <td data-label={who}>
            <Person
              name={e.actorName}
              email={e.actorEmail}
              none={e.actorId ? t("admin.audit.deleted") : t("admin.audit.system")}
            />
          </td>
          <td data-label={target}>
            {e.targetName || e.targetEmail ? (
              <Person name={e.targetName} email={e.targetEmail} none="—" />
            ) : e.target ? (
              <span className="muted">
                {e.target === e.actorId ? t("admin.audit.themselves") : t("admin.audit.record")}
              </span>
            ) : (
              "—"
            )}
          </td>
          <td className="admin-mono" data-label={address}>
            {e.ip ?? "—"}
          </td>
          <td data-label={details}>
            <Details details={e.details} names={e.names} />
          </td>
        </tr>
      ))}
    </PagedTable>
  );
}
