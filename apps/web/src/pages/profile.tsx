import { messages } from "@gradecast/contract/messages";
import { roleLabels } from "@gradecast/contract/roles";
import { useMe } from "../api/me.ts";
import { Card } from "../components/card.tsx";
import { Facts } from "../components/facts.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { QueryView } from "../components/query-view.tsx";

export default function Profile() {
  const me = useMe();
  return (
    <div className="stack narrow">
      <PageHeader title="Profile" />
      <QueryView query={me} loading={messages.loadingUser}>
        {(user) => (
          <Card title="Your account">
            <Facts
              className="details"
              facts={[
                ["Name", user.name],
                [
                  "Email",
                  <>
                    {user.email}{" "}
                    <span className={user.emailVerified ? "tag tag-ok" : "tag tag-warn"}>
                      {user.emailVerified ? "verified" : "not verified"}
                    </span>
                  </>,
                ],
                ["Role", roleLabels[user.role]],
                ["UID", <code key="uid">{user.uid}</code>],
              ]}
            />
          </Card>
        )}
      </QueryView>
    </div>
  );
}
