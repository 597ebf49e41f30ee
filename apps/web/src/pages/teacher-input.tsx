import { messages } from "@gradecast/contract/messages";
import { reportFormMessage } from "@gradecast/contract/reports";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { ApiError } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button, ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { createReport, reportsKey } from "../features/reports/api.ts";
import { clearReportDraft, loadReportDraft, saveReportDraft } from "../features/reports/draft.ts";
import { checkReport, emptyReport } from "../features/reports/form.ts";
import { ReportFields } from "../features/reports/report-fields.tsx";
import "../features/reports/reports.css";

// /teacher-input: the report form of SPEC.md sections 2, 4, 5 and 8. The contract's schema checks
// it before sending; the server checks it again with the same schema. What is typed is kept as a
// draft on this device (features/reports/draft.ts) until it is submitted or the teacher logs out.
interface Outcome {
  ok: boolean;
  text: string;
}

export default function TeacherInput() {
  const { user } = useSession();
  // Keyed by user: if another tab signs someone else in, this page starts over with their draft.
  const userId = user?.uid ?? "anonymous";
  return <TeacherReport key={userId} userId={userId} />;
}

function TeacherReport({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const messageId = `report-message${useId()}`;
  const [values, setValues] = useState(() => loadReportDraft(userId));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    saveReportDraft(userId, values);
  }, [userId, values]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    const check = checkReport(values);
    setErrors(check.fields);
    if (check.message) {
      setOutcome({ ok: false, text: check.message });
      return;
    }
    setSaving(true);
    try {
      await createReport(values);
      // Cleared here too: the page may have been left while the report was being sent.
      clearReportDraft(userId);
      setValues(emptyReport);
      setErrors({});
      setOutcome({ ok: true, text: messages.reportSubmitted });
      void queryClient.invalidateQueries({ queryKey: reportsKey });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length > 0) {
        setErrors(err.fields);
        setOutcome({ ok: false, text: reportFormMessage(err.fields) ?? err.message });
      } else {
        setOutcome({ ok: false, text: messages.reportFailed });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="stack narrow">
      <PageHeader
        title="Teacher Input"
        description="Record a student's course, marks, attendance, assignments, behavior and feedback. What you type is kept on this device until you submit it or log out."
        actions={
          <ButtonLink to="/dashboard" variant="secondary">
            Back to Dashboard
          </ButtonLink>
        }
      />
      <Card title="Student report">
        <form className="form" onSubmit={onSubmit} noValidate aria-label="Student report">
          <ReportFields
            values={values}
            onChange={setValues}
            errors={errors}
            formMessage={outcome && !outcome.ok ? outcome.text : null}
            formMessageId={messageId}
            disabled={saving}
          />
          <div id={messageId}>
            {outcome ? (
              <Alert tone={outcome.ok ? "success" : "error"}>
                <p>{outcome.text}</p>
              </Alert>
            ) : null}
          </div>
          <div className="actions">
            <Button type="submit" loading={saving}>
              Submit Report
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
