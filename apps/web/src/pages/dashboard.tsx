import { messages } from "@gradecast/contract/messages";
import { useMe } from "../api/me.ts";
import { Alert } from "../components/alert.tsx";
import { ButtonLink } from "../components/button.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";

const roleNames = { student: "Student", teacher: "Teacher", admin: "Admin" } as const;

/** "a Student", "an Admin": the article follows the sound the role's name starts with. */
function roleWithArticle(role: keyof typeof roleNames) {
  const name = roleNames[role];
  return (
    <>
      {/^[AEIOU]/.test(name) ? "an" : "a"} <strong>{name}</strong>
    </>
  );
}

export default function Dashboard() {
  const me = useMe();
  return (
    <div className="stack">
      <PageHeader title="Dashboard" />
      {me.isPending ? (
        <p role="status">{messages.loading}</p>
      ) : me.isError ? (
        <ErrorState error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />
      ) : (
        <section className="card welcome-card" aria-labelledby="welcome-title">
          <h2 id="welcome-title" className="card-title">
            Welcome, {me.data.name}!
          </h2>
          <p>You are signed in as {roleWithArticle(me.data.role)}.</p>
          {me.data.pendingRole === "teacher" ? (
            <Alert tone="info">
              <p>
                Your request to be a teacher is waiting for an admin to approve it. Until then your
                account is a student's; the teacher pages open once it is approved.
              </p>
            </Alert>
          ) : null}
          <p>
            <ButtonLink to="/Home" variant="secondary">
              Back to Home
            </ButtonLink>
          </p>
        </section>
      )}
    </div>
  );
}
