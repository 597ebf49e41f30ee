import { messages } from "@gradecast/contract/messages";
import { useSiteInfo } from "../api/site.ts";
import { ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { ErrorState } from "../components/error-state.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";
import { site } from "../site.ts";

export default function Contact() {
  // The school's name and support address are the installation's own (SCHOOL_NAME and
  // CONTACT_EMAIL on the server); unset, the page says so instead of showing a placeholder.
  const { state, retry } = useSiteInfo();
  const school = state.status === "ready" ? state.info.schoolName : null;
  return (
    <div className="stack">
      <PageHeader
        title="Contact Us"
        description={`Questions, problems with an account, or ideas: ${school ? `${school} reads` : "we read"} every message.`}
      />
      <Card title="Support">
        {state.status === "loading" ? <Spinner label="Loading the support address..." /> : null}
        {state.status === "error" ? (
          <ErrorState
            title="The support address could not be loaded."
            error={state.error}
            onRetry={retry}
          />
        ) : null}
        {state.status === "ready" && !state.info.contactEmail ? (
          <p>{messages.contactNotSet}</p>
        ) : null}
        {state.status === "ready" && state.info.contactEmail ? (
          <p>
            Email <a href={`mailto:${state.info.contactEmail}`}>{state.info.contactEmail}</a>. Tell
            us the email address of your account and what you were trying to do; never send your
            password.
          </p>
        ) : null}
      </Card>
      <Card title="The developers">
        <ul className="list">
          {site.profiles.map((p) => (
            <li key={p.href}>
              <a href={p.href} target="_blank" rel="noopener noreferrer">
                {p.label}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </Card>
      <p>
        <ButtonLink to="/Home">Go to Home</ButtonLink>
      </p>
    </div>
  );
}
