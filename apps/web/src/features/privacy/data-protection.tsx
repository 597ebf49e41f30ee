import type { RetentionSetting } from "@gradecast/contract/data-rights";
import type { RetentionCategory } from "@gradecast/contract/personal-data";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link } from "react-router";
import { formErrors } from "../../api/form-errors.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { EmptyState } from "../../components/empty-state.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { ScrollRegion } from "../../components/scroll-region.tsx";
import { Select } from "../../components/select.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useIntl } from "../../i18n/intl.tsx";
import { useCancelDeletion, useDataProtection, usePurge, useUpdateDataProtection } from "./api.ts";
import { useShortDay } from "./short-day.ts";
import "./privacy.css";

// /admin/data-protection (issue 31): how long each category is kept, what is due now (the daily
// job counts it; nothing goes until the admin confirms, unless "purge automatically" is on),
// what happens to reports about a deleted student, pending deletions (cancel one), and students
// enrolled in no class for a school year, to review.

// The categories' names as the admin reads them (the English is the contract's categoryInfo).
const categoryKeys: Record<RetentionCategory, string> = {
  account: "privacyPages.category.account",
  sessions: "privacyPages.category.sessions",
  questionnaire: "privacyPages.category.questionnaire",
  predictions: "privacyPages.category.predictions",
  reports: "privacyPages.category.reports",
  interventionNotes: "privacyPages.category.interventionNotes",
  records: "privacyPages.category.records",
  classes: "privacyPages.category.classes",
  invitations: "privacyPages.category.invitations",
  auditLog: "privacyPages.category.auditLog",
  outbox: "privacyPages.category.outbox",
  jobs: "privacyPages.category.jobs",
};

const usersLink = (chunks: ReactNode[]) => <Link to="/admin/users">{chunks}</Link>;

export function DataProtectionView() {
  const intl = useIntl();
  const day = useShortDay();
  const page = useDataProtection();
  if (page.isPending)
    return <Spinner label={intl.formatMessage({ id: "privacyPages.dp.loading" })} />;
  if (page.isError) return <ErrorState query={page} />;
  const data = page.data;
  return (
    <div className="stack">
      <RetentionCard rows={data.retention} />
      <ReportsCard value={data.deletedStudentReports} />
      <DeletionsCard deletions={data.deletions} graceDays={data.graceDays} />
      <Card title={intl.formatMessage({ id: "privacyPages.dp.review.title" })}>
        <p>{intl.formatMessage({ id: "privacyPages.dp.review.explain" }, { link: usersLink })}</p>
        {data.toReview.length === 0 ? (
          <EmptyState title={intl.formatMessage({ id: "privacyPages.dp.review.emptyTitle" })}>
            {intl.formatMessage({ id: "privacyPages.dp.review.empty" })}
          </EmptyState>
        ) : (
          <ul className="list">
            {data.toReview.map((s) => (
              <li key={s.uid}>
                {intl.formatMessage(
                  { id: "privacyPages.dp.review.item" },
                  {
                    name: s.name,
                    email: s.email,
                    created: day(s.createdAt),
                    lastSignIn: day(s.lastSignInAt),
                  },
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function RetentionCard({ rows }: { rows: RetentionSetting[] }) {
  const intl = useIntl();
  const day = useShortDay();
  const label = (r: RetentionSetting) => intl.formatMessage({ id: categoryKeys[r.category] });
  const update = useUpdateDataProtection();
  const purge = usePurge();
  const configurable = rows.filter((r) => r.configurable);
  const [draft, setDraft] = useState(() =>
    Object.fromEntries(
      configurable.map((r) => [
        r.category,
        { days: r.keepDays?.toString() ?? "", auto: r.autoPurge },
      ]),
    ),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState("");
  const [purgeMessage, setPurgeMessage] = useState("");

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved("");
    const found: Record<string, string> = {};
    const retention = configurable.map((r) => {
      const d = draft[r.category] ?? { days: "", auto: false };
      const text = d.days.trim();
      const days = text === "" ? null : Number(text);
      if (days !== null && (!Number.isInteger(days) || days < 1 || days > 36500)) {
        found[r.category] = intl.formatMessage({ id: "privacyPages.dp.keep.invalid" });
      }
      return { category: r.category, keepDays: days, autoPurge: d.auto };
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    update.mutate(
      { retention },
      {
        onSuccess: () => setSaved(intl.formatMessage({ id: "privacyPages.dp.keep.saved" })),
        onError: (err) => setSaved(formErrors(err, []).message ?? ""),
      },
    );
  }

  return (
    <Card title={intl.formatMessage({ id: "privacyPages.dp.keep.title" })}>
      <form onSubmit={save} className="stack" noValidate>
        <p>{intl.formatMessage({ id: "privacyPages.dp.keep.explain" })}</p>
        <ScrollRegion
          className="table-scroll"
          label={intl.formatMessage({ id: "privacyPages.dp.keep.table" })}
        >
          <table className="retention-table">
            <thead>
              <tr>
                <th scope="col">{intl.formatMessage({ id: "privacyPages.dp.keep.data" })}</th>
                <th scope="col">{intl.formatMessage({ id: "privacyPages.dp.keep.days" })}</th>
                <th scope="col">{intl.formatMessage({ id: "privacyPages.dp.keep.auto" })}</th>
                <th scope="col">{intl.formatMessage({ id: "privacyPages.dp.keep.due" })}</th>
                <th scope="col">{intl.formatMessage({ id: "privacyPages.dp.keep.lastPurge" })}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const d = draft[r.category];
                const inputId = `keep-${r.category}`;
                const errorId = `${inputId}-error`;
                return (
                  <tr key={r.category}>
                    <th scope="row">
                      <label htmlFor={inputId}>{label(r)}</label>
                    </th>
                    <td>
                      {r.configurable && d ? (
                        <>
                          <input
                            id={inputId}
                            className="input"
                            inputMode="numeric"
                            size={6}
                            value={d.days}
                            aria-invalid={errors[r.category] ? true : undefined}
                            aria-describedby={errors[r.category] ? errorId : undefined}
                            onChange={(e) =>
                              setDraft({ ...draft, [r.category]: { ...d, days: e.target.value } })
                            }
                          />
                          {errors[r.category] ? (
                            <p id={errorId} className="field-error">
                              {errors[r.category]}
                            </p>
                          ) : null}
                        </>
                      ) : (
                        <span className="muted">
                          {r.keepDays
                            ? intl.formatMessage(
                                { id: "privacyPages.dp.keep.fixed" },
                                { days: r.keepDays },
                              )
                            : intl.formatMessage({ id: "privacyPages.dp.keep.withAccount" })}
                        </span>
                      )}
                    </td>
                    <td>
                      {r.configurable && d ? (
                        <input
                          type="checkbox"
                          aria-label={intl.formatMessage(
                            { id: "privacyPages.dp.keep.autoLabel" },
                            { data: label(r).toLowerCase() },
                          )}
                          checked={d.auto}
                          onChange={(e) =>
                            setDraft({ ...draft, [r.category]: { ...d, auto: e.target.checked } })
                          }
                        />
                      ) : null}
                    </td>
                    <td>
                      {r.due > 0 ? (
                        <Button
                          type="button"
                          variant="danger"
                          disabled={purge.isPending}
                          onClick={() =>
                            purge.mutate(r.category, {
                              onSuccess: () =>
                                setPurgeMessage(
                                  intl.formatMessage(
                                    { id: "privacyPages.dp.keep.purging" },
                                    { data: label(r).toLowerCase(), count: r.due },
                                  ),
                                ),
                              onError: (err) => setPurgeMessage(formErrors(err, []).message ?? ""),
                            })
                          }
                        >
                          {intl.formatMessage(
                            { id: "privacyPages.dp.keep.purge" },
                            { count: r.due },
                          )}
                        </Button>
                      ) : (
                        "0"
                      )}
                    </td>
                    <td>
                      {r.purgedAt
                        ? intl.formatMessage(
                            { id: "privacyPages.dp.keep.purged" },
                            { day: day(r.purgedAt), count: r.purgedCount ?? 0 },
                          )
                        : "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
        {purgeMessage ? <Alert tone="info">{purgeMessage}</Alert> : null}
        {saved ? <Alert tone={update.isError ? "error" : "success"}>{saved}</Alert> : null}
        <div className="actions">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending
              ? intl.formatMessage({ id: "privacyPages.dp.keep.saving" })
              : intl.formatMessage({ id: "privacyPages.dp.keep.save" })}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ReportsCard({ value }: { value: "delete" | "anonymise" }) {
  const intl = useIntl();
  const update = useUpdateDataProtection();
  return (
    <Card title={intl.formatMessage({ id: "privacyPages.dp.reports.title" })}>
      <Select
        label={intl.formatMessage({ id: "privacyPages.dp.reports.label" })}
        hint={intl.formatMessage({ id: "privacyPages.dp.reports.hint" })}
        options={[
          {
            value: "anonymise",
            label: intl.formatMessage({ id: "privacyPages.dp.reports.anonymise" }),
          },
          { value: "delete", label: intl.formatMessage({ id: "privacyPages.dp.reports.delete" }) },
        ]}
        value={value}
        disabled={update.isPending}
        onChange={(e) =>
          update.mutate({ deletedStudentReports: e.target.value as "delete" | "anonymise" })
        }
      />
      {update.isError ? <Alert tone="error">{formErrors(update.error, []).message}</Alert> : null}
    </Card>
  );
}

function DeletionsCard({
  deletions,
  graceDays,
}: {
  deletions: { uid: string; name: string; email: string; via: string; dueAt: string }[];
  graceDays: number;
}) {
  const intl = useIntl();
  const day = useShortDay();
  const cancel = useCancelDeletion();
  return (
    <Card title={intl.formatMessage({ id: "privacyPages.dp.deletions.title" })}>
      <p>
        {intl.formatMessage(
          { id: "privacyPages.dp.deletions.explain" },
          { days: graceDays, link: usersLink },
        )}
      </p>
      {deletions.length === 0 ? (
        <EmptyState title={intl.formatMessage({ id: "privacyPages.dp.deletions.emptyTitle" })}>
          {intl.formatMessage({ id: "privacyPages.dp.deletions.empty" })}
        </EmptyState>
      ) : (
        <ul className="list">
          {deletions.map((d) => (
            <li key={d.uid}>
              {intl.formatMessage(
                {
                  id:
                    d.via === "self"
                      ? "privacyPages.dp.deletions.bySelf"
                      : "privacyPages.dp.deletions.byAdmin",
                },
                { name: d.name, email: d.email, day: day(d.dueAt) },
              )}{" "}
              <Button
                type="button"
                variant="secondary"
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(d.uid)}
              >
                {intl.formatMessage({ id: "privacyPages.dp.deletions.cancel" }, { name: d.name })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
