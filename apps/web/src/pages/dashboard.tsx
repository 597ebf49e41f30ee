import { messages } from "@gradecast/contract/messages";
import { type Role, roleLabels } from "@gradecast/contract/roles";
import { useMe } from "../api/me.ts";
import { Alert } from "../components/alert.tsx";
import { ButtonLink } from "../components/button.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { QueryView } from "../components/query-view.tsx";

/** "a Student", "an Admin": the article follows the sound the role's name starts with. */
function roleWithArticle(role: Role) {
  const name = roleLabels[role];
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
      <QueryView query={me} loading={messages.loading}>
        {(user) => (
          <section className="card welcome-card" aria-labelledby="welcome-title">
            <h2 id="welcome-title" className="card-title">
              Welcome, {user.name}!
            </h2>
            <p>You are signed in as {roleWithArticle(user.role)}.</p>
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
        )}
      </QueryView>
    </div>
  );
}
