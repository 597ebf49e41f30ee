import { type RecordChange, recordImportLimits } from "@gradecast/contract/school-record";
import type { ReactNode } from "react";
import { Alert } from "../../components/alert.tsx";
import { CsvFileImport, useFileImport } from "../../components/csv-import.tsx";
import { useT } from "../../i18n/intl.tsx";
import { useRecordImport } from "./api.ts";
import { fieldLabel, type Translate, valueText } from "./cells.ts";

// The gradebook's CSV import (issue 29): the teacher picks a file, the preview lists every
// value that would change (from -> to, per student) and writes nothing; Import applies it. A
// refused file lists each bad line with its reason, and nothing of it is saved. The columns'
// names (email, G1, ...) are the file's format: the same in every language.

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

export function RecordImport({ classId }: { classId: string }) {
  const { intl, t } = useT();
  const upload = useRecordImport(classId);
  const state = useFileImport("record-import", upload, t("imports.csvMissing"));
  const { inputId, done } = state;

  return (
    <section className="gradebook-import" aria-labelledby={`${inputId}-title`}>
      <h3 id={`${inputId}-title`}>{t("imports.record.title")}</h3>
      <p>
        {intl.formatMessage(
          { id: "imports.record.format" },
          { rows: recordImportLimits.rows, code },
        )}
      </p>
      <pre className="gradebook-example">
        {"email;G1;G2;absences\namy@example.org;8;9;12\nben@example.org;14;15;2"}
      </pre>
      <p>{t("imports.record.check")}</p>
      <CsvFileImport
        state={state}
        fileLabel={t("imports.record.file")}
        previewLabel={t("imports.record.preview")}
        heading={<h4 className="roster-heading">{t("imports.record.heading")}</h4>}
        writes={(preview) => preview.changes.length}
        confirmLabel={(count) => t("imports.record.confirm", { count })}
        nothing={null}
      >
        {(preview) => (
          <>
            <p>{preview.message}</p>
            <Changes t={t} changes={preview.changes} unchanged={preview.unchanged} />
          </>
        )}
      </CsvFileImport>
      <Alert tone="success">{done ? done.message : null}</Alert>
    </section>
  );
}

/** The changes grouped by student, in file order: "G1: 8 -> 9". */
function Changes({
  t,
  changes,
  unchanged,
}: {
  t: Translate;
  changes: RecordChange[];
  unchanged: number;
}) {
  const shown = (value: RecordChange["from"]) => valueText(value, t) || t("imports.record.blank");
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
              {t("imports.record.where", { email: list[0]!.email, line: String(list[0]!.line) })}
            </span>
            :{" "}
            {list
              .map((c) =>
                t("imports.record.change", {
                  field: fieldLabel(t, c.field),
                  from: shown(c.from),
                  to: shown(c.to),
                }),
              )
              .join("; ")}
          </li>
        ))}
      </ul>
      {unchanged > 0 ? (
        <p className="muted">{t("imports.record.unchanged", { count: unchanged })}</p>
      ) : null}
    </>
  );
}
