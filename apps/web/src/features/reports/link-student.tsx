import type { LinkedReport } from "@gradecast/contract/report-students";
import type { Report } from "@gradecast/contract/reports";
import { type FormEvent, useId, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { ErrorAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { ModalDialog } from "../../components/modal-dialog.tsx";
import { useUpdateReport } from "./api.ts";
import { type StudentLink, StudentPicker } from "./student-picker.tsx";
import { useReportText } from "./text.ts";

/** A dialog that changes a report: done with the report as it now is (or as it was, deleted). */
export interface ReportDialogProps {
  report: Report;
  onClose: () => void;
  onDone: (report: Report) => void;
}

// A report written about a free-text name, linked later to the enrolled student it is about
// (PATCH /api/reports/:id {studentId, classId}): the author (or an admin) picks the student from
// the rosters of their classes; from then on the student and the class's teachers read it, and
// its name is the account's. A student outside the teacher's classes is refused by the server.

/** Whether the report still names a free-text student (no account linked). */
export const isFreeText = (report: Report) => !(report as Partial<LinkedReport>).studentId;

export function LinkStudent({ report, onClose, onDone }: ReportDialogProps) {
  const update = useUpdateReport();
  const { t } = useReportText();
  const messageId = `link-message${useId()}`;
  const [name, setName] = useState(report.studentName);
  const [link, setLink] = useState<StudentLink | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!link) {
      setFailure(t("reports.link.chooseFirst"));
      return;
    }
    setFailure(null);
    try {
      onDone(await update.mutateAsync({ id: report.id, change: link }));
    } catch (err) {
      setFailure(
        err instanceof ApiError && err.status === 400
          ? (Object.values(err.fields)[0] ?? err.message)
          : errorMessage(err),
      );
    }
  }

  return (
    <ModalDialog
      title={t("reports.link.title", { name: report.studentName })}
      onClose={onClose}
      wide
    >
      <p>{t("reports.link.intro")}</p>
      <form className="form" onSubmit={onSubmit} noValidate aria-label={t("reports.linkStudent")}>
        <StudentPicker
          name={name}
          link={link}
          onChange={(next, chosen) => {
            setName(next);
            setLink(chosen);
          }}
          invalid={failure !== null}
          describedBy={failure ? messageId : undefined}
        />
        <div id={messageId}>
          <ErrorAlert message={failure} />
        </div>
        <div className="actions">
          <Button type="submit" loading={update.isPending}>
            {t("reports.link.submit")}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {t("reports.cancel")}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
