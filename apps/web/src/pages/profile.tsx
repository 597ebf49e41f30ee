import { messages } from "@gradecast/contract/messages";
import { useMe } from "../api/me.ts";
import { Card } from "../components/card.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";

const roleNames = { student: "Student", teacher: "Teacher", admin: "Admin" } as const;

export default function Profile() {
  const me = useMe();
  return (
    <div className="stack narrow">
      <PageHeader title="Profile" />
      {me.isPending ? (
        <p role="status">{messages.loadingUser}</p>
      ) : me.isError ? (
        <ErrorState error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />
      ) : (
        <Card title="Your account">
          <dl className="details">
            <div>
              <dt>Name</dt>
              <dd>{me.data.name}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>
                {me.data.email}{" "}
                <span className={me.data.emailVerified ? "tag tag-ok" : "tag tag-warn"}>
                  {me.data.emailVerified ? "verified" : "not verified"}
                </span>
              </dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{roleNames[me.data.role]}</dd>
            </div>
            <div>
              <dt>UID</dt>
              <dd>
                <code>{me.data.uid}</code>
              </dd>
            </div>
          </dl>
        </Card>
      )}
    </div>
  );
}
