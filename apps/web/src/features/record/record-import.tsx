import {
  type RecordImport as ImportAnswer,
  type RecordChange,
  recordFieldLabels,
  recordImportLimits,
} from "@gradecast/contract/school-record";
import { Alert } from "../../components/alert.tsx";
import { FileImportForm, FileImportPreview, useFileImport } from "../../components/csv-import.tsx";
import { useRecordImport } from "./api.ts";
import { valueText } from "./cells.ts";

// The gradebook's CSV import (issue 29): the teacher picks a file, the preview lists every
// value that would change (from -> to, per student) and writes nothing; Import applies it. A
// refused file lists each bad line with its reason, and nothing of it is saved.

export function RecordImport({ classId }: { classId: string }) {
  const upload = useRecordImport(classId);
  const state = useFileImport<ImportAnswer>(
    "record-import",
    (file, dryRun, handlers) => upload.mutate({ file, dryRun }, handlers),
    "Choose a CSV file first.",
    upload.isPending ? (upload.variables.dryRun ? "preview" : "import") : null,
  );
  const { inputId, preview, done } = state;

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
      <FileImportForm
        state={state}
        label="CSV file of values"
        accept=".csv,text/csv"
        previewLabel="Preview the import"
      />
      {preview ? (
        <FileImportPreview
          state={state}
          heading={<h4 className="roster-heading">What the import will change</h4>}
          confirmLabel={
            preview.changes.length === 0
              ? null
              : preview.changes.length === 1
                ? "Import 1 value"
                : `Import ${preview.changes.length} values`
          }
          nothing={null}
        >
          <p>{preview.message}</p>
          <Changes changes={preview.changes} unchanged={preview.unchanged} />
        </FileImportPreview>
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
