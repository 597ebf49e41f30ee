import { type Report, reportLimits } from "@gradecast/contract/reports";
import { type ReactNode, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Button } from "../../components/button.tsx";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { Facts } from "../../components/facts.tsx";
import { ModalDialog } from "../../components/modal-dialog.tsx";
import { useFormats } from "../../components/use-formats.ts";
import { type ReportFormValues, useDeleteReport, useUpdateReport } from "./api.ts";
import { fromReport } from "./form.ts";
import { isFreeText, LinkStudent, type ReportDialogProps } from "./link-student.tsx";
import { numericLabels } from "./report-fields.tsx";
import { ReportForm } from "./report-form.tsx";
import { type Say, useReportText } from "./text.ts";

// The dialogs of the teacher dashboard: a report's details, its edit form (same rules as
// Teacher Input) and the confirmation before deleting it. Native <dialog>: focus starts on the
// safe button, Escape closes, focus returns to the button that opened it.

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
  const { t, behavior } = useReportText();
  // One date format everywhere (the contract's in English, as in the CSV export), in the
  // reader's time.
  const { dayTime } = useFormats();
  const rows: [string, ReactNode][] = [
    [t("reports.field.studentName"), report.studentName],
    [t("csv.reports.course"), report.course],
    ...reportFigures(t, report),
    [t("csv.reports.behavior"), behavior(report.behavior)],
    [
      t("csv.reports.feedback"),
      <span key="feedback" className="report-feedback-text">
        {report.feedback}
      </span>,
    ],
    [t("reports.details.teacher"), report.authorName],
    [t("reports.details.created"), dayTime(report.createdAt)],
    [t("reports.details.changed"), dayTime(report.updatedAt)],
  ];
  return (
    <ModalDialog
      title={t("reports.details.title", { name: report.studentName })}
      onClose={onClose}
      wide
    >
      <Facts className="details report-details" facts={rows} />
      <div className="actions">
        {canChange ? (
          <>
            <Button variant="secondary" onClick={onEdit}>
              {t("reports.edit")}
            </Button>
            {onLink && isFreeText(report) ? (
              <Button variant="secondary" onClick={onLink}>
                {t("reports.linkStudent")}
              </Button>
            ) : null}
            <Button variant="danger" onClick={onDelete}>
              {t("reports.delete")}
            </Button>
          </>
        ) : null}
        <Button variant="ghost" onClick={onClose} data-autofocus>
          {t("reports.close")}
        </Button>
      </div>
    </ModalDialog>
  );
}

export function EditReport({ report, onClose, onDone }: ReportDialogProps) {
  const update = useUpdateReport();
  const [values, setValues] = useState(() => fromReport(report));
  const { t } = useReportText();

  async function save(change: ReportFormValues) {
    onDone(await update.mutateAsync({ id: report.id, change }));
    return null;
  }

  return (
    <ModalDialog
      title={t("reports.edit.title", { name: report.studentName })}
      onClose={onClose}
      wide
    >
      <ReportForm
        label={t("reports.edit.form")}
        values={values}
        onChange={setValues}
        save={save}
        saving={update.isPending}
        refusal={(err) => ({ fields: {}, text: errorMessage(err) })}
        submitLabel={t("reports.edit.save")}
      >
        <Button variant="ghost" onClick={onClose}>
          {t("reports.cancel")}
        </Button>
      </ReportForm>
    </ModalDialog>
  );
}

export function ConfirmDelete({ report, onClose, onDone }: ReportDialogProps) {
  const remove = useDeleteReport();
  const { t, rich } = useReportText();
  return (
    <ConfirmDialog
      title={t("reports.delete.title")}
      confirmLabel={t("reports.delete.confirm")}
      variant="danger"
      onClose={onClose}
      onConfirm={async () => {
        try {
          await remove.mutateAsync(report.id);
        } catch (err) {
          throw err instanceof ApiError && err.status === 403
            ? new Error(t("messages.notAllowed"))
            : err;
        }
        onDone(report);
      }}
    >
      <p>
        {rich("reports.delete.body", {
          name: report.studentName,
          course: report.course,
          strong: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
        })}
      </p>
    </ConfirmDialog>
  );
}

/** A report's numbers as the details and the student's list show them: "87 out of 100". */
export function reportFigures(
  t: Say,
  r: Pick<Report, "marks" | "attendance" | "assignments">,
): [string, string][] {
  return [
    [t(numericLabels.marks), t("reports.outOf", { value: r.marks, max: reportLimits.marks.max })],
    [t(numericLabels.attendance), t("reports.percent", { value: r.attendance })],
    [
      t(numericLabels.assignments),
      t("reports.outOf", { value: r.assignments, max: reportLimits.assignments.max }),
    ],
  ];
}

/** The dialogs that change a report, and what the dashboard says once one is done. */
export const reportChanges = {
  edit: {
    Dialog: EditReport,
    done: (t: Say, r: Report) => t("reports.updated", { name: r.studentName }),
  },
  delete: {
    Dialog: ConfirmDelete,
    done: (t: Say, r: Report) => t("reports.deleted", { name: r.studentName }),
  },
  link: {
    Dialog: LinkStudent,
    done: (t: Say, r: Report) => t("reports.linked", { name: r.studentName }),
  },
};
