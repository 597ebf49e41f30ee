import { messages } from "@gradecast/contract/messages";
import { ButtonLink } from "./button.tsx";
import { PageHeader } from "./page-header.tsx";

/** A page the signed-in role may not use (packages/contract roles.ts). */
export default function NotAllowed() {
  return (
    <div className="stack">
      <PageHeader title="Not allowed" description={messages.notAllowed} />
      <p>
        This page is for another kind of account. Ask your school's administrator if you need it.
      </p>
      <p>
        <ButtonLink to="/Home">Go to Home</ButtonLink>
      </p>
    </div>
  );
}
