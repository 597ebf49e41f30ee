import { useEffect, useState } from "react";
import { ApiError } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { type ReportFormValues, useCreateReport } from "../features/reports/api.ts";
import { clearReportDraft, loadReportDraft, saveReportDraft } from "../features/reports/draft.ts";
import { emptyReport } from "../features/reports/form.ts";
import { type Refusal, ReportForm } from "../features/reports/report-form.tsx";
import { type StudentLink, StudentPicker } from "../features/reports/student-picker.tsx";
import { type Say, useReportText } from "../features/reports/text.ts";
import "../features/reports/reports.css";

// /teacher-input: the report form. The contract's schema checks
// it before sending; the server checks it again with the same schema. What is typed is kept as a
// draft on this device (features/reports/draft.ts) until it is submitted or the teacher logs out.

// A student no longer in the teacher's classes (403): said beside the student field.
const refusalIn =
  (t: Say): Refusal =>
  (err) => {
    const fields: Record<string, string> = {};
    if (err instanceof ApiError && err.status === 403) fields.studentName = err.message;
    return { fields, text: t("messages.reportFailed") };
  };

export default function TeacherInput() {
  const { user } = useSession();
  // Keyed by user: if another tab signs someone else in, this page starts over with their draft.
  const userId = user?.uid ?? "anonymous";
  return <TeacherReport key={userId} userId={userId} />;
}

function TeacherReport({ userId }: { userId: string }) {
  const create = useCreateReport();
  const [values, setValues] = useState(() => loadReportDraft(userId));
  const [link, setLink] = useState<StudentLink | null>(null);
  const { t } = useReportText();

  useEffect(() => {
    saveReportDraft(userId, values);
  }, [userId, values]);

  async function save(sent: ReportFormValues) {
    await create.mutateAsync({ ...sent, ...link });
    // Cleared here too: the page may have been left while the report was being sent.
    clearReportDraft(userId);
    setValues(emptyReport);
    setLink(null);
    return t("messages.reportSubmitted");
  }

  return (
    <div className="stack narrow">
      <PageHeader
        title={t("reports.input.title")}
        description={t("reports.input.description")}
        link={{ to: "/teacher-dashboard", label: t("reports.input.back") }}
      />
      <Card title={t("reports.input.report")}>
        <ReportForm
          label={t("reports.input.report")}
          values={values}
          onChange={setValues}
          save={save}
          saving={create.isPending}
          refusal={refusalIn(t)}
          submitLabel={t("reports.input.submit")}
          studentField={(state) => (
            <StudentPicker
              name={values.studentName}
              link={link}
              onChange={(studentName, next) => {
                setValues({ ...values, studentName });
                setLink(next);
              }}
              {...state}
            />
          )}
        />
      </Card>
    </div>
  );
}
