import {
  type QuestionKey,
  askedQuestions as questions,
  sections,
} from "@gradecast/contract/questionnaire";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError, isTokenProblem } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Alert, ErrorAlert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { ConsentGate } from "../features/consent/consent-gate.tsx";
import { usePredict, usePredictionHistory } from "../features/prediction/api.ts";
import { dateTime } from "../features/prediction/format.ts";
import { useSavedAnswers, useSaveQuestionnaire } from "../features/questionnaire/api.ts";
import {
  anyAnswer,
  askedKeys,
  clearDraft,
  type Draft,
  emptyDraft,
  fromSaved,
  loadDraft,
  sameAnswers,
  saveDraft,
  toRequest,
} from "../features/questionnaire/draft.ts";
import { useOptionalQuestions } from "../features/questionnaire/optional.ts";
import { QuestionSelect, questionInputId } from "../features/questionnaire/question-select.tsx";
import { questionLabel, sectionTitle } from "../features/questionnaire/text.ts";
import { type PageIntl, useIntl, useT } from "../i18n/intl.tsx";
import "../features/questionnaire/questionnaire.css";

// The student questionnaire (issue 6): every question a required
// select, grouped in sections, a progress bar, a draft kept across reloads; Save stores the
// record, Predict asks the model and opens /prediction with the result.
//
// Where the form starts (issue 28): from the newest answers the student sent, a saved
// questionnaire or the answers of their latest prediction, whichever is newer, so that updating
// one term grade is one change, not every answer again. The product's "clears the form" after a save
// stays the immediate reaction; the next visit starts from what was saved. A draft typed on this
// device wins over them: it only exists while unsent work is there (it is removed on save, at
// logout and when the session ends), so it is newer than anything sent from this device. The
// page says which it shows, and offers the saved answers in place of the draft.

// Not the contract's 'Error submitting data': nothing failed but the session. The answers are not
// kept on the device once the session has ended (api/device-draft.ts): say so plainly.
const sessionEnded = (err: unknown) => err instanceof ApiError && isTokenProblem(err);

/** What stops Save or Predict, named after the first question left; null once all are answered. */
function missingMessage(intl: PageIntl, answers: Draft, action: "save" | "predict"): string | null {
  const left = questions.filter((q) => answers[q.key] === "");
  const first = left[0];
  if (!first) return null;
  return intl.formatMessage(
    { id: "studentInput.missing" },
    { question: questionLabel(intl, first), action, count: left.length },
  );
}

type Busy = "save" | "predict" | null;

/** The newest answers the student sent, with when, or null before the first. */
interface Sent {
  answers: Draft;
  at: string;
  what: "saved" | "predicted";
}

export default function StudentInput() {
  // Issue 31: under the consent legal basis, a guardian's consent comes before the form.
  return (
    <ConsentGate>
      <StudentQuestionnaire />
    </ConsentGate>
  );
}

function StudentQuestionnaire() {
  const { user } = useSession();
  const userId = user?.uid ?? "anonymous";
  const saved = useSavedAnswers();
  const history = usePredictionHistory();
  const intl = useIntl();
  if (saved.isPending || history.isPending) {
    return <Spinner label={intl.formatMessage({ id: "studentInput.loading" })} />;
  }
  const record = saved.data ?? null;
  const predicted = history.data?.items[0] ?? null;
  const fromRecord: Sent | null = record
    ? { answers: fromSaved(record), at: record.createdAt, what: "saved" }
    : null;
  const fromPrediction: Sent | null = predicted
    ? { answers: fromSaved(predicted.inputs), at: predicted.createdAt, what: "predicted" }
    : null;
  const sent =
    fromRecord && fromPrediction
      ? Date.parse(fromPrediction.at) > Date.parse(fromRecord.at)
        ? fromPrediction
        : fromRecord
      : (fromRecord ?? fromPrediction);
  // Keyed by user and by what was sent: a save elsewhere starts the form again from it.
  return <Questionnaire key={`${userId}:${sent?.at ?? ""}`} userId={userId} sent={sent} />;
}

function Questionnaire({ userId, sent }: { userId: string; sent: Sent | null }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { intl, t } = useT();
  const sessionEndedMessage = t("studentInput.sessionEnded");
  // English keeps the product's own date format; other languages their own.
  const sentAt = sent
    ? intl.locale === "en"
      ? dateTime(sent.at)
      : intl.formatDate(sent.at, { dateStyle: "medium", timeStyle: "short" })
    : "";
  const saving = useSaveQuestionnaire();
  const predicting = usePredict();
  const [start] = useState(() => {
    const draft = loadDraft(userId);
    if (anyAnswer(draft) && !(sent && sameAnswers(draft, sent.answers))) {
      return { answers: draft, from: "draft" as const };
    }
    return sent ? { answers: sent.answers, from: "sent" as const } : { answers: draft, from: null };
  });
  const [from, setFrom] = useState(start.from);
  const [answers, setAnswers] = useState<Draft>(start.answers);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<QuestionKey, string>>>({});
  // The action stopped for unanswered questions; the message follows the answers from then on.
  const [stopped, setStopped] = useState<"save" | "predict" | null>(null);
  const missing = stopped ? missingMessage(intl, answers, stopped) : null;
  const [busy, setBusy] = useState<Busy>(null);
  const saved = useRef(false);
  const optionalKeys = useOptionalQuestions();

  // Only while signed in: once the session has ended its draft is gone and stays gone. Answers
  // the same as those sent are no draft: a save from another device then shows here next time.
  useEffect(() => {
    if (saved.current || !user) return;
    if (sent && sameAnswers(answers, sent.answers)) clearDraft(userId);
    else saveDraft(userId, answers);
  }, [user, userId, answers, sent]);

  const answered = useMemo(() => askedKeys.filter((k) => answers[k] !== "").length, [answers]);
  const total = askedKeys.length;
  const percent = Math.round((answered / total) * 100);

  function startFromSent() {
    if (!sent) return;
    setAnswers(sent.answers);
    setFieldErrors({});
    setFrom("sent");
  }

  function answer(key: QuestionKey, value: string) {
    setAnswers((a) => ({ ...a, [key]: value }));
    setFieldErrors((e) => {
      if (!e[key]) return e;
      const { [key]: _gone, ...rest } = e;
      return rest;
    });
  }

  /** True when every question is answered; otherwise focuses and names the first one left. */
  function complete(action: "save" | "predict"): boolean {
    const left = questions.filter((q) => answers[q.key] === "");
    const first = left[0];
    if (!first) {
      setStopped(null);
      return true;
    }
    setFieldErrors(Object.fromEntries(left.map((q) => [q.key, t("studentInput.notAnswered")])));
    setStopped(action);
    document.getElementById(questionInputId(first))?.focus();
    return false;
  }

  function showServerFields(err: unknown) {
    if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
      setFieldErrors(err.fields as Partial<Record<QuestionKey, string>>);
      const first = questions.find((q) => err.fields[q.key]);
      if (first) document.getElementById(questionInputId(first))?.focus();
    }
  }

  async function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !complete("save")) return;
    setBusy("save");
    try {
      await saving.mutateAsync(toRequest(answers));
    } catch (err) {
      setBusy(null);
      window.alert(sessionEnded(err) ? sessionEndedMessage : t("messages.studentSaveFailed"));
      showServerFields(err);
      return;
    }
    window.alert(t("messages.studentSaved"));
    saved.current = true;
    clearDraft(userId);
    setAnswers(emptyDraft());
    setFieldErrors({});
    setBusy(null);
    navigate("/dashboard");
  }

  async function onPredict() {
    if (busy || !complete("predict")) return;
    setBusy("predict");
    try {
      const result = await predicting.mutateAsync(toRequest(answers));
      navigate("/prediction", { state: { result } });
    } catch (err) {
      setBusy(null);
      const message = err instanceof Error ? err.message : String(err);
      window.alert(
        sessionEnded(err) ? sessionEndedMessage : t("messages.predictionFailedPrefix") + message,
      );
      showServerFields(err);
    }
  }

  return (
    <div className="stack questionnaire">
      <PageHeader title={t("studentInput.title")} description={t("studentInput.description")} />
      <p className="muted">
        {intl.formatMessage(
          { id: "studentInput.privacy" },
          { link: (text) => <Link to="/privacy">{text}</Link> },
        )}
      </p>
      {from === "sent" && sent ? (
        <Alert tone="info">
          <p data-testid="answers-source">
            {intl.formatMessage({ id: "studentInput.fromSent" }, { what: sent.what, date: sentAt })}
          </p>
        </Alert>
      ) : from === "draft" && sent ? (
        <Alert tone="info">
          <p data-testid="answers-source">
            {t("studentInput.fromDraft")}{" "}
            <Button variant="ghost" onClick={startFromSent}>
              {intl.formatMessage(
                { id: "studentInput.useSent" },
                { what: sent.what, date: sentAt },
              )}
            </Button>
          </p>
        </Alert>
      ) : null}
      <div className="questionnaire-progress" aria-live="polite">
        <label htmlFor="questionnaire-progress" className="questionnaire-progress-label">
          {intl.formatMessage(
            { id: "studentInput.progress" },
            { answered, total, percent: intl.formatNumber(percent / 100, { style: "percent" }) },
          )}
        </label>
        <progress id="questionnaire-progress" max={total} value={answered}>
          {intl.formatNumber(percent / 100, { style: "percent" })}
        </progress>
      </div>
      <form className="form" onSubmit={onSave} noValidate aria-label={t("studentInput.form")}>
        {sections.map((section) => {
          const own = questions.filter((q) => q.section === section.key);
          const done = own.filter((q) => answers[q.key] !== "").length;
          return (
            <fieldset key={section.key} className="card questionnaire-section">
              <legend className="questionnaire-legend">
                {sectionTitle(intl, section)}{" "}
                <span className="questionnaire-count">
                  {intl.formatMessage(
                    { id: "studentInput.sectionCount" },
                    { done, total: own.length },
                  )}
                </span>
              </legend>
              <div className="questionnaire-grid">
                {own.map((q) => (
                  <QuestionSelect
                    key={q.key}
                    question={q}
                    value={answers[q.key]}
                    onChange={(v) => answer(q.key, v)}
                    error={fieldErrors[q.key]}
                    optional={optionalKeys.has(q.key)}
                  />
                ))}
              </div>
            </fieldset>
          );
        })}
        <ErrorAlert message={missing} />
        <div className="actions">
          <Button type="submit" loading={busy === "save"} disabled={busy === "predict"}>
            {t("studentInput.save")}
          </Button>
          <Button
            variant="secondary"
            onClick={onPredict}
            loading={busy === "predict"}
            disabled={busy === "save"}
          >
            {t("studentInput.predict")}
          </Button>
        </div>
      </form>
    </div>
  );
}
