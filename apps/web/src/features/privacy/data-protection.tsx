import type { RetentionSetting } from "@gradecast/contract/data-rights";
import { type FormEvent, useState } from "react";
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
import { useCancelDeletion, useDataProtection, usePurge, useUpdateDataProtection } from "./api.ts";
import "./privacy.css";

// /admin/data-protection (issue 31): how long each category is kept, what is due now (the daily
// job counts it; nothing goes until the admin confirms, unless "purge automatically" is on),
// what happens to reports about a deleted student, pending deletions (cancel one), and students
// enrolled in no class for a school year, to review.

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : "—");

export function DataProtectionView() {
  const page = useDataProtection();
  if (page.isPending) return <Spinner label="Loading the data protection settings..." />;
  if (page.isError) return <ErrorState query={page} />;
  const data = page.data;
  return (
    <div className="stack">
      <RetentionCard rows={data.retention} />
      <ReportsCard value={data.deletedStudentReports} />
      <DeletionsCard deletions={data.deletions} graceDays={data.graceDays} />
      <Card title="Students to review">
        <p>
          Students enrolled in no class who have not signed in for a whole school year (365 days).
          If their data is no longer needed, delete their accounts from the{" "}
          <Link to="/admin/users">Users</Link> page.
        </p>
        {data.toReview.length === 0 ? (
          <EmptyState title="Nobody to review">No student has been away that long.</EmptyState>
        ) : (
          <ul className="list">
            {data.toReview.map((s) => (
              <li key={s.uid}>
                {s.name} ({s.email}), account from {day(s.createdAt)}, last sign-in{" "}
                {day(s.lastSignInAt)}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function RetentionCard({ rows }: { rows: RetentionSetting[] }) {
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
        found[r.category] = "A whole number of days from 1 to 36500, or empty to keep.";
      }
      return { category: r.category, keepDays: days, autoPurge: d.auto };
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    update.mutate(
      { retention },
      {
        onSuccess: () => setSaved("Saved. The privacy notice shows the new periods."),
        onError: (err) => setSaved(formErrors(err, []).message ?? ""),
      },
    );
  }

  return (
    <Card title="How long data is kept">
      <form onSubmit={save} className="stack" noValidate>
        <p>
          Leave a period empty to keep that data until the person or the record is deleted. Each day
          a job counts what is older than its period; it is deleted when you confirm, or at once if
          "purge automatically" is ticked.
        </p>
        <ScrollRegion className="table-scroll" label="Retention periods">
          <table className="retention-table">
            <thead>
              <tr>
                <th scope="col">Data</th>
                <th scope="col">Keep (days)</th>
                <th scope="col">Purge automatically</th>
                <th scope="col">Due now</th>
                <th scope="col">Last purge</th>
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
                      <label htmlFor={inputId}>{r.label}</label>
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
                          {r.keepDays ? `${r.keepDays} (fixed)` : "With the account"}
                        </span>
                      )}
                    </td>
                    <td>
                      {r.configurable && d ? (
                        <input
                          type="checkbox"
                          aria-label={`Purge ${r.label.toLowerCase()} automatically`}
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
                                setPurgeMessage(`Purging ${r.label.toLowerCase()}: ${r.due} rows.`),
                              onError: (err) => setPurgeMessage(formErrors(err, []).message ?? ""),
                            })
                          }
                        >
                          Purge {r.due}
                        </Button>
                      ) : (
                        "0"
                      )}
                    </td>
                    <td>{r.purgedAt ? `${day(r.purgedAt)} (${r.purgedCount ?? 0})` : "—"}</td>
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
            {update.isPending ? "Saving..." : "Save periods"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function ReportsCard({ value }: { value: "delete" | "anonymise" }) {
  const update = useUpdateDataProtection();
  return (
    <Card title="Reports about a deleted student">
      <Select
        label="When a student's account is deleted, their teachers' reports are"
        hint="Kept anonymised: the name is removed and the figures stay in the school's statistics."
        options={[
          { value: "anonymise", label: "Kept, anonymised" },
          { value: "delete", label: "Deleted" },
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
  const cancel = useCancelDeletion();
  return (
    <Card title="Accounts waiting for deletion">
      <p>
        A deletion waits {graceDays} days; signing in cancels it. To delete an account on its
        owner's request, use "Delete account" on the <Link to="/admin/users">Users</Link> page.
      </p>
      {deletions.length === 0 ? (
        <EmptyState title="None waiting">No account is waiting to be deleted.</EmptyState>
      ) : (
        <ul className="list">
          {deletions.map((d) => (
            <li key={d.uid}>
              {d.name} ({d.email}), asked by {d.via === "self" ? "the person" : "an admin"}, removed
              on {day(d.dueAt)}{" "}
              <Button
                type="button"
                variant="secondary"
                disabled={cancel.isPending}
                onClick={() => cancel.mutate(d.uid)}
              >
                Cancel the deletion of {d.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
