import { ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { site } from "../site.ts";

export default function Contact() {
  return (
    <div className="stack">
      <PageHeader
        title="Contact Us"
        description="Questions, problems with an account, or ideas: we read every message."
      />
      <Card title="Support">
        <p>
          Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>. Tell us the email
          address of your account and what you were trying to do; never send your password.
        </p>
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
