import type { ReactNode } from "react";
import { useSiteInfo } from "../api/site.ts";
import { ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useT } from "../i18n/intl.tsx";
import { site } from "../site.ts";

export default function Contact() {
  // The school's name and support address are the installation's own (SCHOOL_NAME and
  // CONTACT_EMAIL on the server); unset, the page says so instead of showing a placeholder.
  const { state, retry } = useSiteInfo();
  const school = state.status === "ready" ? state.info.schoolName : null;
  const { intl, t } = useT();
  return (
    <div className="stack">
      <PageHeader
        title={t("contact.title")}
        description={intl.formatMessage(
          { id: "contact.description" },
          { known: school ? "yes" : "no", school: school ?? "" },
        )}
      />
      <Card title={t("contact.support")}>
        {state.status === "loading" ? <Spinner label={t("contact.loading")} /> : null}
        {state.status === "error" ? (
          <ErrorState title={t("contact.loadFailed")} error={state.error} onRetry={retry} />
        ) : null}
        {state.status === "ready" && !state.info.contactEmail ? (
          <p>{t("messages.contactNotSet")}</p>
        ) : null}
        {state.status === "ready" && state.info.contactEmail ? (
          <p>
            {intl.formatMessage(
              { id: "contact.email" },
              {
                email: state.info.contactEmail,
                link: (chunks: ReactNode[]) => (
                  <a href={`mailto:${state.info.contactEmail}`}>{chunks}</a>
                ),
              },
            )}
          </p>
        ) : null}
      </Card>
      <Card title={t("contact.developers")}>
        <ul className="list">
          {site.profiles.map((p) => (
            <li key={p.href}>
              <a href={p.href} target="_blank" rel="noopener noreferrer">
                {p.label}
                <span className="visually-hidden">{t("contact.newTab")}</span>
              </a>
            </li>
          ))}
        </ul>
      </Card>
      <p>
        <ButtonLink to="/Home">{t("contact.home")}</ButtonLink>
      </p>
    </div>
  );
}
