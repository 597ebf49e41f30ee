import {
  type OneRosterMode,
  type OneRosterResult,
  oneRosterChangeKinds,
  oneRosterChangeLabels,
  oneRosterLimits,
} from "@gradecast/contract/oneroster";
import { useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Card } from "../../components/card.tsx";
import { FileImportForm, FileImportPreview, useFileImport } from "../../components/csv-import.tsx";
import { useOneRosterImport } from "./api.ts";
import "../classes/classes.css";

// The admin's OneRoster import (issue 34, decision 0025): a ZIP bundle and a mode; Preview shows
// what would change (nothing is written); Import applies it. A refused bundle lists each file,
// line and reason.

/** Changes an import would write (unmapped classes and skipped lines write nothing). */
const writes = (r: OneRosterResult) =>
  oneRosterChangeKinds
    .filter((k) => k !== "unmappedClasses" && k !== "skipped" && k !== "studentsAlreadyEnrolled")
    .reduce((n, k) => n + r.changes[k].count, 0);

export function OneRosterImport() {
  const upload = useOneRosterImport();
  const [mode, setMode] = useState<OneRosterMode>("bulk");
  const state = useFileImport<OneRosterResult>(
    "oneroster",
    (file, preview, handlers) => upload.mutate({ file, mode, preview }, handlers),
    "Choose a ZIP bundle first.",
    upload.isPending ? (upload.variables.preview ? "preview" : "import") : null,
  );
  const { inputId, preview, done, busy } = state;

  return (
    <Card title="Import a OneRoster bundle" className="roster-import">
      <p>
        A OneRoster 1.2 CSV bundle exported by the school's information system: a ZIP with{" "}
        <code>manifest.csv</code>, <code>classes.csv</code>, <code>users.csv</code>,{" "}
        <code>enrollments.csv</code> and the rest, up to {oneRosterLimits.bytes / 1024 / 1024} MB.
        Teachers it lists become teachers of their classes; students are invited (they accept, or
        register with the address, which is emailed an invitation). Nothing changes until you
        confirm the preview.
      </p>
      <p className="muted">
        Subjects come from course codes, as the deployment's <code>ONEROSTER_SUBJECTS</code> setting
        maps them (for example <code>MAT101=mat,POR12=por</code>). A class whose course code maps to
        no subject is listed in the preview and not imported. The school's system is the source of
        truth: a teacher taken off a roster class by hand is put back by the next import if the
        bundle still lists them, and the preview says so.
      </p>
      <FileImportForm
        state={state}
        label="ZIP bundle"
        accept=".zip,application/zip"
        previewLabel="Preview"
      >
        <fieldset className="field">
          <legend className="field-label">Mode</legend>
          <label>
            <input
              type="radio"
              name={`${inputId}-mode`}
              value="bulk"
              checked={mode === "bulk"}
              onChange={() => {
                setMode("bulk");
                state.reset();
              }}
            />{" "}
            Bulk: the bundle is the whole roster (enrolments missing from it end)
          </label>
          <label>
            <input
              type="radio"
              name={`${inputId}-mode`}
              value="delta"
              checked={mode === "delta"}
              onChange={() => {
                setMode("delta");
                state.reset();
              }}
            />{" "}
            Delta: only the lines it lists change
          </label>
        </fieldset>
      </FileImportForm>
      {busy ? (
        <p className="muted" role="status">
          {busy === "preview" ? "Reading the bundle…" : "Importing the roster…"}
        </p>
      ) : null}
      {preview ? (
        <FileImportPreview
          state={state}
          heading={<h3 className="roster-heading">What the import will do</h3>}
          confirmLabel={writes(preview) === 0 ? null : "Import"}
          nothing={<p>Nothing to import: the roster is as the bundle says.</p>}
        >
          <p>{preview.message}</p>
          <OneRosterSummary result={preview} />
        </FileImportPreview>
      ) : null}
      <Alert tone="success">
        {done ? (
          <>
            <span>{done.message} </span>
            <OneRosterSummary result={done} />
          </>
        ) : null}
      </Alert>
    </Card>
  );
}

export function OneRosterSummary({ result }: { result: OneRosterResult }) {
  const read = Object.entries(result.read)
    .map(([f, n]) => `${f}: ${n}`)
    .join(", ");
  return (
    <>
      <p className="muted">Read: {read || "nothing"}.</p>
      <dl className="roster-summary">
        {oneRosterChangeKinds.map((kind) => {
          const change = result.changes[kind];
          return (
            <div key={kind} className="roster-group">
              <dt>
                {oneRosterChangeLabels[kind]}: {change.count}
              </dt>
              {change.items.length > 0 ? (
                <dd>
                  <ul className="roster-rows">
                    {change.items.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                    {change.count > change.items.length ? (
                      <li className="muted">and {change.count - change.items.length} more</li>
                    ) : null}
                  </ul>
                </dd>
              ) : null}
            </div>
          );
        })}
        <div className="roster-group">
          <dt>
            {result.dryRun
              ? "Invitation emails to send"
              : "Invitation emails to be written and sent"}
            : {result.emailsQueued}
          </dt>
        </div>
      </dl>
    </>
  );
}
