import {
  type RecordImport as ImportAnswer,
  type RecordChange,
  recordFieldLabels,
  recordImportLimits,
} from "@gradecast/contract/school-record";
import { type FormEvent, useId, useRef, useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { ImportRefusal, type Refusal, refusalOf } from "../classes/import-refusal.tsx";
import { useRecordImport } from "./api.ts";
import { valueText } from "./cells.ts";

// The gradebook's CSV import (issue 29): the teacher picks a file, the preview lists every
// value that would change (from -> to, per student) and writes nothing; Import applies it. A
// refused file lists each bad line with its reason, and nothing of it is saved.

export function RecordImport({ classId }: { classId: string }) {
  const upload = useRecordImport(classId);
  const inputId = `record-import${useId()}`;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [done, setDone] = useState<ImportAnswer | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const busy = upload.isPending ? (upload.variables.dryRun ? "preview" : "import") : null;
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
    upload.mutate({ file, dryRun: true }, { onSuccess: setPreview, onError: fail });
  }

  function apply() {
    if (!file) return;
    setRefusal(null);
    upload.mutate(
      { file, dryRun: false },
      {
        onSuccess: (answer) => {
          setDone(answer);
          setPreview(null);
          setFile(null);
          if (input.current) input.current.value = "";
        },
        onError: fail,
      },
    );
  }

  return (
    <section className="gradebook-import" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>Import values from a CSV file</h3>
      <p>
        A CSV file (UTF-8) whose first line names the columns: <code>email</code>, then any of{" "}
        <code>G1</code>, <code>G2</code>, <code>absences</code>, <code>failures</code>,{" "}
        <code>G3</code>, <code>sat</code>, in any order, separated by commas or semicolons. One
        student a line, found by their email, up to {recordImportLimits.rows.toLocaleString("en")}{" "}
        lines. Grades are whole numbers from 0 to 20, absences 0 to 100, failures 0 to 4, sat is yes
        or no; an empty value clears it. For example:
      </p>
      <pre className="gradebook-example">
        {"email;G1;G2;absences\namy@example.org;8;9;12\nben@example.org;14;15;2"}
      </pre>
      <p>
        Check the preview before importing: nothing changes until you confirm, and a file with a bad
        line is not imported at all.
      </p>
      <form className="roster-form" onSubmit={check} noValidate>
        <div className="field">
          <label className="field-label" htmlFor={inputId}>
            CSV file of values
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
            Preview the import
          </Button>
        </div>
      </form>
      {refusal ? <ImportRefusal refusal={refusal} id={`${inputId}-error`} /> : null}
      {preview ? (
        <div className="roster-preview">
          <h4 className="roster-heading">What the import will change</h4>
          <p>{preview.message}</p>
          <Changes changes={preview.changes} unchanged={preview.unchanged} />
          {preview.changes.length === 0 ? null : (
            <div className="actions">
              <Button onClick={apply} loading={busy === "import"}>
                {preview.changes.length === 1
                  ? "Import 1 value"
                  : `Import ${preview.changes.length} values`}
              </Button>
              <Button variant="ghost" onClick={() => setPreview(null)}>
                Cancel
              </Button>
            </div>
          )}
        </div>
      ) : null}
      <Alert tone="success">{done ? done.message : null}</Alert>
    </section>
  );
}

const shown = (value: RecordChange["from"]) => valueText(value) || "blank";

/** The changes grouped by student, in file order: "G1: 8 -> 9". */
function Changes({ changes, unchanged }: { changes: RecordChange[]; unchanged: number }) {
  const byStudent = new Map<string, RecordChange[]>();
  for (const change of changes) {
    byStudent.set(change.studentId, [...(byStudent.get(change.studentId) ?? []), change]);
  }
  return (
    <>
      <ul className="list gradebook-changes">
        {[...byStudent.values()].map((list) => (
          <li key={list[0]!.studentId} data-testid="import-change">
            <strong>{list[0]!.name}</strong>{" "}
            <span className="muted">
              ({list[0]!.email}, line {list[0]!.line})
            </span>
            :{" "}
            {list
              .map((c) => `${recordFieldLabels[c.field]} ${shown(c.from)} → ${shown(c.to)}`)
              .join("; ")}
          </li>
        ))}
      </ul>
      {unchanged > 0 ? (
        <p className="muted">
          {unchanged === 1
            ? "1 value in the file is already in the record."
            : `${unchanged} values in the file are already in the record.`}
        </p>
      ) : null}
    </>
  );
}
