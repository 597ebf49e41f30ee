import type { User } from "@gradecast/contract/auth";
import type { ClassRisk } from "@gradecast/contract/class-risk";
import type { ClassView } from "@gradecast/contract/classes";
import { messages } from "@gradecast/contract/messages";
import { useQueries } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { getQuery } from "../api/queries.ts";
import { AccountPage } from "../auth/account-page.tsx";
import { Alert } from "../components/alert.tsx";
import { ButtonLink, type ButtonVariant } from "../components/button.tsx";
import { Card, LabelledCard } from "../components/card.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useFormats } from "../components/use-formats.ts";
import { usePendingTeacherCount } from "../features/admin/api.ts";
import { classesKey, useClasses } from "../features/classes/api.ts";
import { usePredictionHistory } from "../features/prediction/api.ts";
import { bandMessage } from "../features/prediction/band.ts";
import { useSavedAnswers } from "../features/questionnaire/api.ts";
import { type RichValues, useIntl, useT } from "../i18n/intl.tsx";

// /dashboard: the welcome card and its Back to Home button, then what to do
// next for the role (issue 28), so that verifying, saving or Get Started never ends on a page
// that says only "Welcome": a student answers the questionnaire, sees their latest prediction
// (read back, never predicted again) or joins a class; a teacher sees their classes and how many
// students in each are at risk; an admin sees the teachers waiting for approval.

const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;

function useText() {
  const { intl, t } = useT();
  return {
    t,
    rich: (id: string, values: RichValues) => intl.formatMessage({ id }, values),
  };
}

export default function Dashboard() {
  const { t, rich } = useText();
  return (
    <AccountPage title={t("dashboard.title")} loading={messages.loading}>
      {(user) => (
        <>
          <LabelledCard
            id="welcome-title"
            title={t("dashboard.welcome", { name: user.name })}
            className="welcome-card"
          >
            <p>{rich("dashboard.loggedInAs", { role: user.role, strong })}</p>
            {user.pendingRole === "teacher" ? (
              <Alert tone="info">
                <p>{t("dashboard.pendingTeacher")}</p>
              </Alert>
            ) : null}
            <p>
              <ButtonLink to="/Home" variant="secondary">
                {t("dashboard.backHome")}
              </ButtonLink>
            </p>
          </LabelledCard>
          <NextSteps user={user} />
        </>
      )}
    </AccountPage>
  );
}

function NextSteps({ user }: { user: User }) {
  const { t } = useText();
  if (!user.emailVerified) return null; // the verification banner above says what to do first
  return (
    <Card title={t("dashboard.next")} className="next-steps">
      {user.role === "student" ? <StudentNext /> : null}
      {user.role === "teacher" ? <TeacherNext /> : null}
      {user.role === "admin" ? <AdminNext /> : null}
    </Card>
  );
}

function StudentNext() {
  const saved = useSavedAnswers();
  const history = usePredictionHistory();
  const classes = useClasses();
  const { t, rich } = useText();
  const intl = useIntl();
  const formats = useFormats();
  if (saved.isPending || history.isPending) return <Spinner label={t("dashboard.loading")} />;
  const latest = history.data?.items[0];
  const answered = Boolean(saved.data) || Boolean(latest);
  return (
    <ul className="next-steps-list">
      <li>
        {latest ? (
          <Step
            text={rich("dashboard.student.latest", {
              score: formats.score(latest.prediction),
              message: bandMessage(intl, latest.band, latest.message),
              when: formats.dayTime(latest.createdAt),
              strong,
            })}
            to="/prediction"
            label={t("dashboard.student.see")}
          />
        ) : (
          <Step
            text={t(answered ? "dashboard.student.saved" : "dashboard.student.answer")}
            to="/student-input"
            label={t(answered ? "dashboard.student.predict" : "dashboard.student.answerButton")}
          />
        )}
      </li>
      {answered ? (
        <li>
          <Step
            text={t("dashboard.student.changed")}
            to="/student-input"
            label={t("dashboard.student.change")}
            variant="secondary"
          />
        </li>
      ) : null}
      <li>
        {classes.data && classes.data.length > 0 ? (
          <p>
            {rich("dashboard.student.classes", {
              classes: classes.data.map((c) => `${c.name} (${c.year})`).join(", "),
              link: (chunks: ReactNode[]) => <Link to="/student-dashboard">{chunks}</Link>,
            })}
          </p>
        ) : (
          <Step
            text={t("dashboard.student.noClass")}
            to="/student-dashboard"
            label={t("dashboard.student.join")}
            variant="secondary"
          />
        )}
      </li>
    </ul>
  );
}

/** A next step: what there is to do, and the button that goes there. */
function Step({
  text,
  to,
  label,
  variant,
}: {
  text: ReactNode;
  to: string;
  label: string;
  variant?: ButtonVariant;
}) {
  return (
    <>
      <p>{text}</p>
      <ButtonLink to={to} variant={variant}>
        {label}
      </ButtonLink>
    </>
  );
}

/** How many classes' risk counts the dashboard reads (one call each); the rest are on Classes. */
const riskCountsShown = 10;

function TeacherNext() {
  const classes = useClasses();
  const shown: ClassView[] = classes.data?.slice(0, riskCountsShown) ?? [];
  const risks = useQueries({
    queries: shown.map((c) => ({
      ...getQuery<ClassRisk>([...classesKey, "risk", c.id], `/api/classes/${c.id}/risk`),
      retry: 1,
    })),
  });
  const { t, rich } = useText();
  const classesLink = (chunks: ReactNode[]) => <Link to="/classes">{chunks}</Link>;
  if (classes.isPending) return <Spinner label={t("dashboard.teacher.loading")} />;
  if (classes.isError) {
    return <p>{rich("dashboard.teacher.failed", { link: classesLink })}</p>;
  }
  const list = classes.data;
  return (
    <ul className="next-steps-list">
      <li>
        {list.length === 0 ? (
          <Step
            text={t("dashboard.teacher.none")}
            to="/classes"
            label={t("dashboard.teacher.create")}
          />
        ) : (
          <>
            <p>{t("dashboard.teacher.classes")}</p>
            <ul className="next-steps-classes">
              {shown.map((c, i) => {
                const counts = risks[i]?.data?.counts;
                return (
                  <li key={c.id}>
                    <Link to={`/classes/${c.id}`}>
                      {c.name} ({c.year})
                    </Link>
                    :{" "}
                    {counts
                      ? t("dashboard.teacher.risk", { ...counts })
                      : t("dashboard.teacher.students", { count: c.studentCount })}
                  </li>
                );
              })}
            </ul>
            {list.length > shown.length ? (
              <p>
                {rich("dashboard.teacher.more", {
                  count: list.length - shown.length,
                  link: classesLink,
                })}
              </p>
            ) : null}
          </>
        )}
      </li>
      <li>
        <Step
          text={t("dashboard.teacher.report")}
          to="/teacher-input"
          label={t("dashboard.teacher.file")}
          variant="secondary"
        />
      </li>
    </ul>
  );
}

function AdminNext() {
  const pending = usePendingTeacherCount(true);
  const { t } = useText();
  return (
    <ul className="next-steps-list">
      <li>
        <Step
          text={
            pending.data === undefined
              ? t("dashboard.admin.unknown")
              : pending.data === 0
                ? t("dashboard.admin.none")
                : t("dashboard.admin.waiting", { count: pending.data })
          }
          to="/admin/users"
          label={t("dashboard.admin.users")}
          variant={pending.data ? "primary" : "secondary"}
        />
      </li>
    </ul>
  );
}
