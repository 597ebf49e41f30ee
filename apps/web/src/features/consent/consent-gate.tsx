import { type ConsentStatus, consentMessages } from "@gradecast/contract/consent";
import type { FormEvent, ReactNode } from "react";
import { Link } from "react-router";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { EmailField } from "../../components/field.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { dateTime } from "../prediction/format.ts";
import { useMyConsent, useRequestConsent } from "./api.ts";
import "./consent.css";

// Before the questionnaire (issue 31): under LEGAL_BASIS=consent a student under the age of
// digital consent answers only once a guardian has consented. Until then this stands in the
// form's place: the state, and a form that emails the guardian a link. The server refuses the
// questionnaire and predictions all the same (403 guardian_consent_required).

const blocked = new Set<ConsentStatus["state"]>(["needed", "pending", "withdrawn"]);

/** The questionnaire (children) once no guardian's consent is missing; this form until then. */
export function ConsentGate({ children }: { children: ReactNode }) {
  // Only a student's own consent is asked for (teachers and admins never need one).
  const { user } = useSession();
  const isStudent = user?.role === "student";
  const consent = useMyConsent(isStudent);
  if (!isStudent) return <>{children}</>;
  if (consent.isPending)
    return <Spinner label="Checking whether a parent's consent is needed..." />;
  if (consent.isError) {
    return <ErrorState title="This could not be loaded." query={consent} />;
  }
  if (!blocked.has(consent.data.state)) return <>{children}</>;
  return <AskGuardian status={consent.data} />;
}

export function AskGuardian({ status }: { status: ConsentStatus }) {
  const form = useFormFields({ guardianEmail: status.guardianEmail ?? "" });
  const requesting = useRequestConsent();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    requesting.mutate(form.values.guardianEmail.trim(), { onError: form.refused });
  }

  return (
    <section className="card consent-gate" aria-labelledby="consent-gate-title">
      <h2 id="consent-gate-title">Ask a parent or guardian</h2>
      {status.state === "withdrawn" ? (
        <Alert tone="warning">
          <p>{consentMessages.withdrawn}</p>
          <p>If they agree again, send them a new link below.</p>
        </Alert>
      ) : (
        <p>
          You are under {status.digitalConsentAge}: your school needs your parent's or guardian's
          consent before you answer the questionnaire. Give their email address and we will send
          them a link; once they agree, come back here.
        </p>
      )}
      {status.state === "pending" && status.guardianEmail ? (
        <Alert tone="info">
          <p>
            A link was sent to <strong>{status.guardianEmail}</strong>
            {status.requestedAt ? ` on ${dateTime(status.requestedAt)}` : ""}. It is waiting for
            their answer. Not arrived? Check the address; you can send it again after a minute (a
            new link replaces the old one).
          </p>
        </Alert>
      ) : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <EmailField
          label="Parent's or guardian's email"
          hint="Theirs, not yours."
          autoComplete="off"
          required
          {...form.field("guardianEmail")}
        />
        <p className="form-error" role="alert">
          {form.message}
        </p>
        <Button type="submit" loading={requesting.isPending}>
          {status.state === "needed" ? "Send the link" : "Send a new link"}
        </Button>
      </form>
      <p>
        What the school keeps and why: the <Link to="/privacy">privacy notice</Link>.
      </p>
    </section>
  );
}
