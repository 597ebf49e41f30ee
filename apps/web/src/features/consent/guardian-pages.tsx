import { type ConsentView, consentMessages } from "@gradecast/contract/consent";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/alert.tsx";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useConfirmConsent, useConsentView, useWithdrawConsent } from "./api.ts";
import { useLinkToken } from "./link-token.ts";
import "./consent.css";

// The guardian's pages (issue 31): no account; the emailed link's token is the proof of their
// address. /consent shows what they are asked and records their consent; /consent/withdraw,
// the link from the confirmation email, withdraws it after a confirmation step.

const incompleteLink = "This link is incomplete. Open the link from the email again.";

function privacyLink() {
  return (
    <p>
      What the school keeps and why: the <Link to="/privacy">privacy notice</Link>.
    </p>
  );
}

function ConsentText({ view }: { view: ConsentView }) {
  return (
    <div className="consent-text">
      {view.text.split("\n\n").map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <p className="consent-version">Consent text version {view.textVersion}.</p>
    </div>
  );
}

export function GuardianConsent() {
  const token = useLinkToken();
  const view = useConsentView(token);
  const confirm = useConfirmConsent(token);
  const shown = confirm.data ?? view.data;

  let body: ReactNode;
  if (!token) {
    body = (
      <Alert tone="error">
        <p>{incompleteLink}</p>
      </Alert>
    );
  } else if (view.isPending) {
    body = <Spinner label="Reading the link..." />;
  } else if (view.isError || !shown) {
    body = (
      <Alert tone="error">
        <p>{view.error ? errorMessage(view.error) : consentMessages.linkInvalid}</p>
      </Alert>
    );
  } else if (shown.state === "given") {
    body = (
      <>
        <Alert tone="success">
          <p>
            Thank you: your consent for {shown.studentName} is recorded. {shown.studentName} can now
            answer the questionnaire. We emailed {shown.guardianEmail} a link to withdraw it at any
            time.
          </p>
        </Alert>
        <ConsentText view={shown} />
      </>
    );
  } else if (shown.state === "withdrawn") {
    body = (
      <Alert tone="info">
        <p>
          Your consent for {shown.studentName} was withdrawn: no new estimates are made. To consent
          again, ask {shown.studentName} to send you a new link.
        </p>
      </Alert>
    );
  } else {
    body = (
      <>
        <p>
          <strong>{shown.studentName}</strong> asks you, at {shown.guardianEmail}, as their parent
          or guardian, to agree that they use Gradecast at school.
        </p>
        <ConsentText view={shown} />
        {confirm.isError ? (
          <Alert tone="error">
            <p>{errorMessage(confirm.error)}</p>
          </Alert>
        ) : null}
        <Button loading={confirm.isPending} onClick={() => confirm.mutate()}>
          I consent
        </Button>
        <p className="consent-note">
          If you do not agree, close this page: nothing is recorded and {shown.studentName} cannot
          answer the questionnaire.
        </p>
      </>
    );
  }

  return (
    <AuthCard title="Parent or guardian consent" links={privacyLink()}>
      {body}
    </AuthCard>
  );
}

export function GuardianWithdraw() {
  const token = useLinkToken();
  const withdraw = useWithdrawConsent(token);
  const [confirming, setConfirming] = useState(false);

  let body: ReactNode;
  if (!token) {
    body = (
      <Alert tone="error">
        <p>{incompleteLink}</p>
      </Alert>
    );
  } else if (withdraw.isSuccess) {
    body = (
      <Alert tone="success">
        <p>{withdraw.data.message}</p>
      </Alert>
    );
  } else if (!confirming) {
    body = (
      <>
        <p>
          Withdrawing your consent stops new estimates for the student and hides the existing ones
          from their teachers. The student can no longer answer the questionnaire.
        </p>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Withdraw consent
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <Alert tone="warning" title="Withdraw your consent?">
          <p>This cannot be undone from this link: to consent again the student sends a new one.</p>
        </Alert>
        {withdraw.isError ? (
          <Alert tone="error">
            <p>{errorMessage(withdraw.error)}</p>
          </Alert>
        ) : null}
        <div className="consent-actions">
          <Button variant="danger" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
            Yes, withdraw
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Keep my consent
          </Button>
        </div>
      </>
    );
  }

  return (
    <AuthCard title="Withdraw consent" links={privacyLink()}>
      {body}
    </AuthCard>
  );
}
