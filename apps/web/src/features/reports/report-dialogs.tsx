import { formatDay as formatDayOnly, formatDayTime } from "@gradecast/contract/dates";
import { messages } from "@gradecast/contract/messages";
import type { Report } from "@gradecast/contract/reports";
import { type ReactNode, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { Facts } from "../../components/facts.tsx";
import { ModalDialog } from "../../components/modal-dialog.tsx";
import { type ReportFormValues, useDeleteReport, useUpdateReport } from "./api.ts";
import { fromReport } from "./form.ts";
import { isFreeText, LinkStudent, type ReportDialogProps } from "./link-student.tsx";
import { ReportForm } from "./report-form.tsx";

// The dialogs of the teacher dashboard: a report's details, its edit form (same rules as
// Teacher Input) and the confirmation before deleting it. Native <dialog>: focus starts on the
// safe button, Escape closes, focus returns to the button that opened it.

// One date format everywhere (the contract's, as in the CSV export), in the reader's time.
export function formatDay(iso: string): string {
  return formatDayOnly(iso);
}

export function formatDate(iso: string): string {
  return formatDayTime(iso);
}

export function ReportDetails({
  report,
  canChange,
  onClose,
  onEdit,
  onDelete,
  onLink,
}: {
  report: Report;
  canChange: boolean;
  onClose: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** Offered for a report about a free-text name (link-student.tsx). */
  onLink?: (() => void) | undefined;
}) {
  const rows: [string, ReactNode][] = [
    ["Student name", report.studentName],
    ["Course", report.course],
    ["Marks", `${report.marks} out of 100`],
    ["Attendance", `${report.attendance} %`],
    ["Assignments", `${report.assignments} out of 6`],
    ["Behavior", report.behavior],
    [
      "Feedback",
      <span key="feedback" className="report-feedback-text">
        {report.feedback}
      </span>,
    ],
    ["Teacher", report.authorName],
    ["Created", formatDate(report.createdAt)],
    ["Last changed", formatDate(report.updatedAt)],
  ];
  return (
    <ModalDialog title={`Report: ${report.studentName}`} onClose={onClose} wide>
      <Facts className="details report-details" facts={rows} />
      <div className="actions">
        {canChange ? (
          <>
            <Button variant="secondary" onClick={onEdit}>
              Edit
            </Button>
            {onLink && isFreeText(report) ? (
              <Button variant="secondary" onClick={onLink}>
                Link to a student
              </Button>
            ) : null}
            <Button variant="danger" onClick={onDelete}>
              Delete
            </Button>
          </>
        ) : null}
        <Button variant="ghost" onClick={onClose} data-autofocus>
          Close
        </Button>
      </div>
    </ModalDialog>
  );
}

export function EditReport({ report, onClose, onDone }: ReportDialogProps) {
  const update = useUpdateReport();
  const [values, setValues] = useState(() => fromReport(report));

  async function save(change: ReportFormValues) {
    onDone(await update.mutateAsync({ id: report.id, change }));
    return null;
  }

  return (
    <ModalDialog title={`Edit report: ${report.studentName}`} onClose={onClose} wide>
      <ReportForm
        label="Edit report"
        values={values}
        onChange={setValues}
        save={save}
        saving={update.isPending}
        refusal={(err) => ({ fields: {}, text: errorMessage(err) })}
        submitLabel="Save changes"
      >
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </ReportForm>
    </ModalDialog>
  );
}

export function ConfirmDelete({ report, onClose, onDone }: ReportDialogProps) {
  const remove = useDeleteReport();
  return (
    <ConfirmDialog
      title="Delete this report?"
      confirmLabel="Delete report"
      variant="danger"
      onClose={onClose}
      onConfirm={async () => {
        try {
          await remove.mutateAsync(report.id);
        } catch (err) {
          throw err instanceof ApiError && err.status === 403
            ? new Error(messages.notAllowed)
            : err;
        }
        onDone(report);
      }}
    >
      <p>
        The report on <strong>{report.studentName}</strong> ({report.course}) will be deleted. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** The dialogs that change a report, and what the dashboard says once one is done. */
export const reportChanges = {
  edit: { Dialog: EditReport, done: (r: Report) => `The report on ${r.studentName} was updated.` },
  delete: {
    Dialog: ConfirmDelete,
    done: (r: Report) => `The report on ${r.studentName} was deleted.`,
  },
  link: {
    Dialog: LinkStudent,
    done: (r: Report) => `The report is now linked to ${r.studentName}.`,
  },
};
