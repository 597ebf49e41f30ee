import { messages } from "@gradecast/contract/messages";
import { type Report, reportFormMessage } from "@gradecast/contract/reports";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { useModalDialog } from "../../components/use-modal-dialog.ts";
import { deleteReport, updateReport } from "./api.ts";
import { checkReport, fromReport } from "./form.ts";
import { ReportFields } from "./report-fields.tsx";

// The dialogs of the teacher dashboard: a report's details, its edit form (same rules as
// Teacher Input) and the confirmation before deleting it. Native <dialog>: focus starts on the
// safe button, Escape closes, focus returns to the button that opened it.

function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = `dialog-title${useId()}`;
  useModalDialog(ref);
  return (
    <dialog ref={ref} className="report-dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="report-dialog-body">
        <h2 className="report-dialog-title" id={titleId}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}

export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function ReportDetails({
  report,
  canChange,
  onClose,
  onEdit,
  onDelete,
}: {
  report: Report;
  canChange: boolean;
  onClose: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const rows: [string, ReactNode][] = [
    ["Student name", report.studentName],
    ["Course", report.course],
    ["Marks", report.marks],
    ["Attendance", `${report.attendance}%`],
    ["Assignments", report.assignments],
    ["Behavior", report.behavior],
    [
      "Feedback",
      <span key="feedback" className="report-feedback-text">
        {report.feedback}
      </span>,
    ],
    ["Written by", report.authorName],
    ["Created", formatDate(report.createdAt)],
    ["Last changed", formatDate(report.updatedAt)],
  ];
  return (
    <Dialog title={`Report: ${report.studentName}`} onClose={onClose}>
      <dl className="details report-details">
        {rows.map(([label, value]) => (
          <div key={label} className="report-detail-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        {canChange ? (
          <>
            <Button variant="secondary" onClick={onEdit}>
              Edit
            </Button>
            <Button variant="danger" onClick={onDelete}>
              Delete
            </Button>
          </>
        ) : null}
        <Button variant="ghost" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </Dialog>
  );
}

export function EditReport({
  report,
  onClose,
  onSaved,
}: {
  report: Report;
  onClose: () => void;
  onSaved: (report: Report) => void;
}) {
  const messageId = `edit-message${useId()}`;
  const [values, setValues] = useState(() => fromReport(report));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    const check = checkReport(values);
    setErrors(check.fields);
    if (check.message) {
      setFailure(check.message);
      return;
    }
    setSaving(true);
    try {
      onSaved(await updateReport(report.id, values));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length > 0) {
        setErrors(err.fields);
        setFailure(reportFormMessage(err.fields) ?? err.message);
      } else {
        setFailure(errorMessage(err));
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog title={`Edit report: ${report.studentName}`} onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate aria-label="Edit report">
        <ReportFields
          values={values}
          onChange={setValues}
          errors={errors}
          formMessage={failure}
          formMessageId={messageId}
          disabled={saving}
        />
        <div id={messageId}>
          {failure ? (
            <Alert tone="error">
              <p>{failure}</p>
            </Alert>
          ) : null}
        </div>
        <div className="actions">
          <Button type="submit" loading={saving}>
            Save changes
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ConfirmDelete({
  report,
  onClose,
  onDeleted,
}: {
  report: Report;
  onClose: () => void;
  onDeleted: (id: string) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function onConfirm() {
    setFailure(null);
    setDeleting(true);
    try {
      await deleteReport(report.id);
      onDeleted(report.id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) onDeleted(report.id);
      else
        setFailure(
          err instanceof ApiError && err.status === 403 ? messages.notAllowed : errorMessage(err),
        );
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Dialog title="Delete this report?" onClose={onClose}>
      <p>
        The report on <strong>{report.studentName}</strong> ({report.course}) will be deleted. This
        cannot be undone.
      </p>
      {failure ? (
        <Alert tone="error">
          <p>{failure}</p>
        </Alert>
      ) : null}
      <div className="actions">
        <Button variant="danger" onClick={onConfirm} loading={deleting}>
          Delete report
        </Button>
        <Button variant="ghost" onClick={onClose} data-autofocus>
          Cancel
        </Button>
      </div>
    </Dialog>
  );
}
