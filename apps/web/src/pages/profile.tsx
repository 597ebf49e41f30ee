import { lazy, Suspense } from "react";
import { AccountPage } from "../auth/account-page.tsx";
import { Card } from "../components/card.tsx";
import { Facts } from "../components/facts.tsx";
import { LanguageChoice } from "../components/language-choice.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useT } from "../i18n/intl.tsx";

// Issue 32: the digest choice, loaded with its query code only here.
const DigestSetting = lazy(() => import("../features/notifications/digest-setting.tsx"));

const roleKeys = {
  student: "account.role.student",
  teacher: "account.role.teacher",
  admin: "account.role.admin",
} as const;

export default function Profile() {
  const { intl, t } = useT();
  return (
    <AccountPage
      title={t("account.profile.title")}
      className="stack narrow"
      loading={t("messages.loadingUser")}
    >
      {(user) => (
        <>
          <Card title={t("account.profile.yourAccount")}>
            <Facts
              className="details"
              facts={[
                [t("account.profile.name"), user.name],
                [
                  t("account.profile.email"),
                  <>
                    {user.email}{" "}
                    <span className={user.emailVerified ? "tag tag-ok" : "tag tag-warn"}>
                      {user.emailVerified
                        ? t("account.profile.verified")
                        : t("account.profile.notVerified")}
                    </span>
                  </>,
                ],
                [t("account.profile.role"), t(roleKeys[user.role])],
                [t("account.profile.uid"), <code key="uid">{user.uid}</code>],
              ]}
            />
          </Card>
          <Card title={intl.formatMessage({ id: "language.profileTitle" })}>
            <p className="muted">{intl.formatMessage({ id: "language.profileHint" })}</p>
            <LanguageChoice />
          </Card>
          {user.emailVerified ? (
            <Suspense fallback={<Spinner label={t("account.profile.loadingDigest")} />}>
              <DigestSetting />
            </Suspense>
          ) : null}
        </>
      )}
    </AccountPage>
  );
}
