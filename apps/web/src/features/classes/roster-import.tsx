import { type RosterResult, type RosterRow, rosterLimits } from "@gradecast/contract/classes";
import type { ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { CsvFileImport, useFileImport } from "../../components/csv-import.tsx";
import { useT } from "../../i18n/intl.tsx";
import { useRosterUpload } from "./api.ts";

// Roster import: the teacher picks a CSV file of name,email; the preview says what will change
// (nothing is written yet); Import does it. A refused file lists every bad line with its reason.
// The header (name,email) is the file's format: the same in every language.

/** Rows the import would write: enrolments and new invitations. */
const changes = (result: RosterResult) => result.invited.length;

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

export function RosterImport({ classId }: { classId: string }) {
  const { intl, t } = useT();
  const upload = useRosterUpload(classId);
  const state = useFileImport("roster", upload, t("imports.csvMissing"));
  const { done } = state;

  return (
    <Card title={t("imports.roster.title")} className="roster-import">
      <p>{intl.formatMessage({ id: "imports.roster.intro" }, { rows: rosterLimits.rows, code })}</p>
      <CsvFileImport
        state={state}
        fileLabel={t("imports.roster.file")}
        previewLabel={t("imports.preview")}
        heading={<h3 className="roster-heading">{t("imports.willDo")}</h3>}
        writes={changes}
        confirmLabel={(count) => t("imports.roster.confirm", { count })}
        nothing={<p>{t("imports.roster.nothing")}</p>}
      >
        {(preview) => <RosterSummary result={preview} />}
      </CsvFileImport>
      <Alert tone="success">
        {done ? (
          <>
            <span>{t("imports.roster.done")} </span>
            <RosterSummary result={done} />
          </>
        ) : null}
      </Alert>
    </Card>
  );
}

function RosterSummary({ result }: { result: RosterResult }) {
  const { t } = useT();
  const groups: [string, RosterRow[]][] = [
    [t(result.dryRun ? "imports.roster.willInvite" : "imports.roster.invited"), result.invited],
    [t("imports.roster.alreadyIn"), result.alreadyEnrolled],
    [t("imports.roster.invitedBefore"), result.alreadyInvited],
  ];
  return (
    <dl className="roster-summary">
      {groups.map(([label, rows]) => (
        <div key={label} className="roster-group">
          <dt>{t("imports.count", { label, count: rows.length })}</dt>
          {rows.length > 0 ? (
            <dd>
              <ul className="roster-rows">
                {rows.slice(0, 50).map((r) => (
                  <li key={r.email}>
                    {r.name} <span className="muted">({r.email})</span>
                  </li>
                ))}
                {rows.length > 50 ? (
                  <li className="muted">{t("imports.more", { count: rows.length - 50 })}</li>
                ) : null}
              </ul>
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}
