import type { ConsentStatus } from "@gradecast/contract/consent";
import type { FormEvent, ReactNode } from "react";
import { useSession } from "../../auth/session.tsx";
import { Alert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { ErrorState } from "../../components/error-state.tsx";
import { EmailField } from "../../components/field.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useFormFields } from "../../components/use-form-fields.ts";
import { useFormats } from "../../components/use-formats.ts";
import { useIntl } from "../../i18n/intl.tsx";
import { useMyConsent, useRequestConsent } from "./api.ts";
import { PrivacyNoticeLink } from "./guardian-pages.tsx";
import "./consent.css";

// Before the questionnaire (issue 31): under LEGAL_BASIS=consent a student under the age of
// digital consent answers only once a guardian has consented. Until then this stands in the
// form's place: the state, and a form that emails the guardian a link. The server refuses the
// questionnaire and predictions all the same (403 guardian_consent_required).

const blocked = new Set<ConsentStatus["state"]>(["needed", "pending", "withdrawn"]);

/** The questionnaire (children) once no guardian's consent is missing; this form until then. */
export function ConsentGate({ children }: { children: ReactNode }) {
  // Only a student's own consent is asked for (teachers and admins never need one).
  const intl = useIntl();
  const { user } = useSession();
  const isStudent = user?.role === "student";
  const consent = useMyConsent(isStudent);
  if (!isStudent) return <>{children}</>;
  if (consent.isPending)
    return <Spinner label={intl.formatMessage({ id: "consent.gate.checking" })} />;
  if (consent.isError) {
    return (
      <ErrorState title={intl.formatMessage({ id: "consent.gate.loadFailed" })} query={consent} />
    );
  }
  if (!blocked.has(consent.data.state)) return <>{children}</>;
  return <AskGuardian status={consent.data} />;
}

export function AskGuardian({ status }: { status: ConsentStatus }) {
  const intl = useIntl();
  const formats = useFormats();
  const strong = (chunks: ReactNode[]) => <strong>{chunks}</strong>;
  const form = useFormFields({ guardianEmail: status.guardianEmail ?? "" });
  const requesting = useRequestConsent();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.clear();
    requesting.mutate(form.values.guardianEmail.trim(), { onError: form.refused });
  }

  return (
    <section className="card consent-gate" aria-labelledby="consent-gate-title">
      <h2 id="consent-gate-title">{intl.formatMessage({ id: "consent.gate.title" })}</h2>
      {status.state === "withdrawn" ? (
        <Alert tone="warning">
          <p>{intl.formatMessage({ id: "consent.gate.withdrawn" })}</p>
          <p>{intl.formatMessage({ id: "consent.gate.agreeAgain" })}</p>
        </Alert>
      ) : (
        <p>{intl.formatMessage({ id: "consent.gate.under" }, { age: status.digitalConsentAge })}</p>
      )}
      {status.state === "pending" && status.guardianEmail ? (
        <Alert tone="info">
          <p>
            {status.requestedAt
              ? intl.formatMessage(
                  { id: "consent.gate.sentOn" },
                  {
                    email: status.guardianEmail,
                    when: formats.dayTime(status.requestedAt),
                    strong,
                  },
                )
              : intl.formatMessage(
                  { id: "consent.gate.sent" },
                  { email: status.guardianEmail, strong },
                )}
          </p>
        </Alert>
      ) : null}
      <form className="form" onSubmit={onSubmit} noValidate>
        <EmailField
          label={intl.formatMessage({ id: "consent.gate.email" })}
          hint={intl.formatMessage({ id: "consent.gate.emailHint" })}
          autoComplete="off"
          required
          {...form.field("guardianEmail")}
        />
        <p className="form-error" role="alert">
          {form.message}
        </p>
        <Button type="submit" loading={requesting.isPending}>
          {status.state === "needed"
            ? intl.formatMessage({ id: "consent.gate.send" })
            : intl.formatMessage({ id: "consent.gate.sendAgain" })}
        </Button>
      </form>
      <PrivacyNoticeLink />
    </section>
  );
}
