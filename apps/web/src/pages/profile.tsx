import { messages } from "@gradecast/contract/messages";
import { roleLabels } from "@gradecast/contract/roles";
import { lazy, Suspense } from "react";
import { useFreshUser } from "../auth/session.tsx";
import { Card } from "../components/card.tsx";
import { Facts } from "../components/facts.tsx";
import { LanguageChoice } from "../components/language-choice.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useIntl } from "../i18n/intl.tsx";

// Issue 32: the digest choice, loaded with its query code only here.
const DigestSetting = lazy(() => import("../features/notifications/digest-setting.tsx"));

export default function Profile() {
  const user = useFreshUser();
  const intl = useIntl();
  return (
    <div className="stack narrow">
      <PageHeader title="Profile" />
      {user ? (
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
      ) : (
        <Spinner label={messages.loadingUser} />
      )}
      {user ? (
        <Card title={intl.formatMessage({ id: "language.profileTitle" })}>
          <p className="muted">{intl.formatMessage({ id: "language.profileHint" })}</p>
          <LanguageChoice />
        </Card>
      ) : null}
      {user?.emailVerified ? (
        <Suspense fallback={<Spinner label="Loading your digest setting..." />}>
          <DigestSetting />
        </Suspense>
      ) : null}
    </div>
  );
}
