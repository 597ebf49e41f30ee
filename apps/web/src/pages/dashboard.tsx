import type { User } from "@gradecast/contract/auth";
import type { ClassRisk } from "@gradecast/contract/class-risk";
import type { ClassView } from "@gradecast/contract/classes";
import { messages } from "@gradecast/contract/messages";
import { type Role, roleLabels } from "@gradecast/contract/roles";
import { formatScore } from "@gradecast/contract/score";
import { useQueries } from "@tanstack/react-query";
import { Link } from "react-router";
import { getQuery } from "../api/queries.ts";
import { useFreshUser } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { usePendingTeacherCount } from "../features/admin/api.ts";
import { classesKey, useClasses } from "../features/classes/api.ts";
import { usePredictionHistory } from "../features/prediction/api.ts";
import { dateTime } from "../features/prediction/format.ts";
import { useSavedAnswers } from "../features/questionnaire/api.ts";

// /dashboard: the welcome card and its Back to Home button, then what to do
// next for the role (issue 28), so that verifying, saving or Get Started never ends on a page
// that says only "Welcome": a student answers the questionnaire, sees their latest prediction
// (read back, never predicted again) or joins a class; a teacher sees their classes and how many
// students in each are at risk; an admin sees the teachers waiting for approval.

/** "a Student", "an Admin": the article follows the sound the role's name starts with. */
function roleWithArticle(role: Role) {
  const name = roleLabels[role];
  return (
    <>
      {/^[AEIOU]/.test(name) ? "an" : "a"} <strong>{name}</strong>
    </>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export default function Dashboard() {
  const user = useFreshUser();
  return (
    <div className="stack">
      <PageHeader title="Dashboard" />
      {user ? (
        <>
          <section className="card welcome-card" aria-labelledby="welcome-title">
            <h2 id="welcome-title" className="card-title">
              Welcome, {user.name}!
            </h2>
            <p>You are logged in as {roleWithArticle(user.role)}.</p>
            {user.pendingRole === "teacher" ? (
              <Alert tone="info">
                <p>
                  Your request to be a teacher is waiting for an admin to approve it. Until then
                  your account is a student's; the teacher pages open once it is approved.
                </p>
              </Alert>
            ) : null}
            <p>
              <ButtonLink to="/Home" variant="secondary">
                Back to Home
              </ButtonLink>
            </p>
          </section>
          <NextSteps user={user} />
        </>
      ) : (
        <Spinner label={messages.loading} />
      )}
    </div>
  );
}

function NextSteps({ user }: { user: User }) {
  if (!user.emailVerified) return null; // the verification banner above says what to do first
  return (
    <Card title="What to do next" className="next-steps">
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
  if (saved.isPending || history.isPending) return <Spinner label="Loading..." />;
  const latest = history.data?.items[0];
  const answered = Boolean(saved.data) || Boolean(latest);
  return (
    <ul className="next-steps-list">
      <li>
        {latest ? (
          <>
            <p>
              Your latest prediction: <strong>{formatScore(latest.prediction)}</strong> out of 20,{" "}
              {latest.message} (predicted {dateTime(latest.createdAt)}).
            </p>
            <ButtonLink to="/prediction">See your prediction</ButtonLink>
          </>
        ) : answered ? (
          <>
            <p>Your answers are saved. Predict your final score out of 20 from them.</p>
            <ButtonLink to="/student-input">Predict your score</ButtonLink>
          </>
        ) : (
          <>
            <p>Answer the questionnaire to get a predicted final score out of 20.</p>
            <ButtonLink to="/student-input">Answer the questionnaire</ButtonLink>
          </>
        )}
      </li>
      {answered ? (
        <li>
          <p>Something changed, such as a new term grade? Update your answers.</p>
          <ButtonLink to="/student-input" variant="secondary">
            Change your answers
          </ButtonLink>
        </li>
      ) : null}
      <li>
        {classes.data && classes.data.length > 0 ? (
          <p>
            Your classes: {classes.data.map((c) => `${c.name} (${c.year})`).join(", ")}. Join
            another with its code on <Link to="/student-dashboard">Student Dashboard</Link>.
          </p>
        ) : (
          <>
            <p>Not in a class yet? Join one with the code your teacher gives you.</p>
            <ButtonLink to="/student-dashboard" variant="secondary">
              Join a class
            </ButtonLink>
          </>
        )}
      </li>
    </ul>
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
  if (classes.isPending) return <Spinner label="Loading your classes..." />;
  if (classes.isError) {
    return (
      <p>
        Your classes could not be loaded. Open <Link to="/classes">Classes</Link>.
      </p>
    );
  }
  const list = classes.data;
  return (
    <ul className="next-steps-list">
      <li>
        {list.length === 0 ? (
          <>
            <p>You have no classes yet. Create one and give its students the join code.</p>
            <ButtonLink to="/classes">Create a class</ButtonLink>
          </>
        ) : (
          <>
            <p>Your classes, and how many of their students are at risk:</p>
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
                      ? `${plural(counts.atRisk, "student")} at risk of ${plural(counts.students, "student")} (${counts.answered} answered)`
                      : plural(c.studentCount, "student")}
                  </li>
                );
              })}
            </ul>
            {list.length > shown.length ? (
              <p>
                And {plural(list.length - shown.length, "more class", "more classes")} on{" "}
                <Link to="/classes">Classes</Link>.
              </p>
            ) : null}
          </>
        )}
      </li>
      <li>
        <p>Record a student's marks, attendance and behavior.</p>
        <ButtonLink to="/teacher-input" variant="secondary">
          File a report
        </ButtonLink>
      </li>
    </ul>
  );
}

function AdminNext() {
  const pending = usePendingTeacherCount(true);
  return (
    <ul className="next-steps-list">
      <li>
        <p>
          {pending.data === undefined
            ? "Teachers who sign up wait for your approval on Users."
            : pending.data === 0
              ? "No teacher is waiting for approval."
              : `${plural(pending.data, "teacher")} waiting for your approval.`}
        </p>
        <ButtonLink to="/admin/users" variant={pending.data ? "primary" : "secondary"}>
          Open Users
        </ButtonLink>
      </li>
    </ul>
  );
}
