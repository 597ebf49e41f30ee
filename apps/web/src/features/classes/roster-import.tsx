import { type RosterResult, type RosterRow, rosterLimits } from "@gradecast/contract/classes";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { useRosterUpload } from "./api.ts";
import { ImportRefusal, type Refusal, refusalOf } from "./import-refusal.tsx";

// Roster import: the teacher picks a CSV file of name,email; the preview says what will change
// (nothing is written yet); Import does it. A refused file lists every bad line with its reason.

/** Rows the import would write: enrolments and new invitations. */
const changes = (result: RosterResult) => result.invited.length;

export function RosterImport({ classId }: { classId: string }) {
  const upload = useRosterUpload(classId);
  const inputId = `roster${useId()}`;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<RosterResult | null>(null);
  const [done, setDone] = useState<RosterResult | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const busy = upload.isPending ? (upload.variables.preview ? "preview" : "import") : null;

  const fail = (err: unknown) => setRefusal(refusalOf(err));

  function check(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    setPreview(null);
    setDone(null);
    if (!file) {
      setRefusal({ message: "Choose a CSV file first.", lines: [] });
      return;
    }
    upload.mutate({ file, preview: true }, { onSuccess: setPreview, onError: fail });
  }

  function confirm() {
    if (!file) return;
    setRefusal(null);
    upload.mutate(
      { file, preview: false },
      {
        onSuccess: (result) => {
          setDone(result);
          setPreview(null);
          setFile(null);
          if (input.current) input.current.value = "";
        },
        onError: fail,
      },
    );
  }

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
      <form className="roster-form" onSubmit={check} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={inputId}>
            CSV file
          </label>
          <input
            ref={input}
            id={inputId}
            className="input"
            type="file"
            accept=".csv,text/csv"
            aria-describedby={refusal ? `${inputId}-error` : undefined}
            aria-invalid={refusal ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setPreview(null);
              setRefusal(null);
              setDone(null);
            }}
          />
        </div>
        <div className="actions">
          <Button type="submit" variant="secondary" loading={busy === "preview"}>
            Preview
          </Button>
        </div>
      </form>
      {refusal ? <ImportRefusal refusal={refusal} id={`${inputId}-error`} /> : null}
      {preview ? (
        <div className="roster-preview">
          <h3 className="roster-heading">What the import will do</h3>
          <RosterSummary result={preview} />
          {changes(preview) === 0 ? (
            <p>Nothing to import: everyone in the file is already in the class or invited.</p>
          ) : (
            <div className="actions">
              <Button onClick={confirm} loading={busy === "import"}>
                {changes(preview) === 1 ? "Import 1 change" : `Import ${changes(preview)} changes`}
              </Button>
              <Button variant="ghost" onClick={() => setPreview(null)}>
                Cancel
              </Button>
            </div>
          )}
        </div>
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
