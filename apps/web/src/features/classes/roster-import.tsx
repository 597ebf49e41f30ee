import { type RosterResult, type RosterRow, rosterLimits } from "@gradecast/contract/classes";
import { Alert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { FileImportForm, FileImportPreview, useFileImport } from "../../components/csv-import.tsx";
import { useRosterUpload } from "./api.ts";

// Roster import: the teacher picks a CSV file of name,email; the preview says what will change
// (nothing is written yet); Import does it. A refused file lists every bad line with its reason.

/** Rows the import would write: enrolments and new invitations. */
const changes = (result: RosterResult) => result.invited.length;

export function RosterImport({ classId }: { classId: string }) {
  const upload = useRosterUpload(classId);
  const state = useFileImport<RosterResult>(
    "roster",
    (file, preview, handlers) => upload.mutate({ file, preview }, handlers),
    "Choose a CSV file first.",
    upload.isPending ? (upload.variables.preview ? "preview" : "import") : null,
  );
  const { preview, done } = state;

  return (
    <Card title="Import a class list" className="roster-import">
      <p>
        A CSV file (UTF-8) with the header <code>name,email</code> (or <code>name;email</code>, as
        spreadsheets save it in Portugal) and one student a line, up to{" "}
        {rosterLimits.rows.toLocaleString("en")} lines. Each address not in the class yet is emailed
        an invitation: a student joins the class when they accept it (or, with no account yet, when
        they register with that address and verify it). Check the preview before importing: nothing
        changes until you confirm.
      </p>
      <FileImportForm
        state={state}
        label="CSV file"
        accept=".csv,text/csv"
        previewLabel="Preview"
      />
      {preview ? (
        <FileImportPreview
          state={state}
          heading={<h3 className="roster-heading">What the import will do</h3>}
          confirmLabel={
            changes(preview) === 0
              ? null
              : changes(preview) === 1
                ? "Import 1 change"
                : `Import ${changes(preview)} changes`
          }
          nothing={
            <p>Nothing to import: everyone in the file is already in the class or invited.</p>
          }
        >
          <RosterSummary result={preview} />
        </FileImportPreview>
      ) : null}
      <Alert tone="success">
        {done ? (
          <>
            <span>The class list was imported. </span>
            <RosterSummary result={done} />
          </>
        ) : null}
      </Alert>
    </Card>
  );
}

function RosterSummary({ result }: { result: RosterResult }) {
  const groups: [string, RosterRow[]][] = [
    [result.dryRun ? "Will be invited" : "Invited", result.invited],
    ["Already in the class", result.alreadyEnrolled],
    ["Invited before (no new email)", result.alreadyInvited],
  ];
  return (
    <dl className="roster-summary">
      {groups.map(([label, rows]) => (
        <div key={label} className="roster-group">
          <dt>
            {label}: {rows.length}
          </dt>
          {rows.length > 0 ? (
            <dd>
              <ul className="roster-rows">
                {rows.slice(0, 50).map((r) => (
                  <li key={r.email}>
                    {r.name} <span className="muted">({r.email})</span>
                  </li>
                ))}
                {rows.length > 50 ? <li className="muted">and {rows.length - 50} more</li> : null}
              </ul>
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}
