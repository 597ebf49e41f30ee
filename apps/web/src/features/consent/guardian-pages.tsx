import type { ConsentView } from "@gradecast/contract/consent";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/alert.tsx";
import { AuthCard } from "../../components/auth-card.tsx";
import { Button } from "../../components/button.tsx";
import { errorMessage } from "../../components/error-state.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useIntl, useT } from "../../i18n/intl.tsx";
import { isTextOutdated, useConfirmConsent, useConsentView, useWithdrawConsent } from "./api.ts";
import { useLinkToken } from "./link-token.ts";
import "./consent.css";

// The guardian's pages (issue 31): no account; the emailed link's token is the proof of their
// address. /consent shows what they are asked and records their consent; /consent/withdraw,
// the link from the confirmation email, withdraws it after a confirmation step.

/** "What the school keeps and why: the privacy notice." with its link (the gate shows it too). */
export function PrivacyNoticeLink() {
  const intl = useIntl();
  return (
    <p>
      {intl.formatMessage(
        { id: "consent.privacyLink" },
        { link: (chunks) => <Link to="/privacy">{chunks}</Link> },
      )}
    </p>
  );
}

/**
 * A guardian's page: its card with the privacy notice's link under it; a link without its token
 * says so in place of the page's body.
 */
function GuardianCard({
  title,
  token,
  children,
}: {
  title: string;
  token: string;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <AuthCard title={title} links={<PrivacyNoticeLink />}>
      {token ? (
        children
      ) : (
        <Alert tone="error">
          <p>{t("consent.incompleteLink")}</p>
        </Alert>
      )}
    </AuthCard>
  );
}

function ConsentText({ view }: { view: ConsentView }) {
  const { t } = useT();
  return (
    <div className="consent-text">
      {view.text.split("\n\n").map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <p className="consent-version">{t("consent.textVersion", { version: view.textVersion })}</p>
    </div>
  );
}

export function GuardianConsent() {
  const { intl, t } = useT();
  const token = useLinkToken();
  // The text in the page's language; the confirmation names the version of the one shown.
  const view = useConsentView(token, intl.locale);
  const confirm = useConfirmConsent(token);
  const shown = confirm.data ?? view.data;

  let body: ReactNode;
  if (view.isPending) {
    body = <Spinner label={t("consent.reading")} />;
  } else if (view.isError || !shown) {
    body = (
      <Alert tone="error">
        <p>{view.error ? errorMessage(view.error) : t("consent.linkInvalid")}</p>
      </Alert>
    );
  } else if (shown.state === "given") {
    body = (
      <>
        <Alert tone="success">
          <p>
            {intl.formatMessage(
              { id: "consent.given" },
              { student: shown.studentName, email: shown.guardianEmail },
            )}
          </p>
        </Alert>
        <ConsentText view={shown} />
      </>
    );
  } else if (shown.state === "withdrawn") {
    body = (
      <Alert tone="info">
        <p>{t("consent.withdrawnNotice", { student: shown.studentName })}</p>
      </Alert>
    );
  } else {
    body = (
      <>
        <p>
          {intl.formatMessage(
            { id: "consent.asks" },
            {
              student: shown.studentName,
              email: shown.guardianEmail,
              strong: (chunks) => <strong>{chunks}</strong>,
            },
          )}
        </p>
        <ConsentText view={shown} />
        {confirm.isError ? (
          <Alert tone="error">
            <p>
              {isTextOutdated(confirm.error)
                ? t("consent.textOutdated")
                : errorMessage(confirm.error)}
            </p>
          </Alert>
        ) : null}
        <Button loading={confirm.isPending} onClick={() => confirm.mutate(shown.textVersion)}>
          {t("consent.agree")}
        </Button>
        <p className="consent-note">{t("consent.disagreeNote", { student: shown.studentName })}</p>
      </>
    );
  }

  return (
    <GuardianCard title={t("consent.title")} token={token}>
      {body}
    </GuardianCard>
  );
}

export function GuardianWithdraw() {
  const { t } = useT();
  const token = useLinkToken();
  const withdraw = useWithdrawConsent(token);
  const [confirming, setConfirming] = useState(false);

  let body: ReactNode;
  if (withdraw.isSuccess) {
    body = (
      <Alert tone="success">
        <p>{withdraw.data.message}</p>
      </Alert>
    );
  } else if (!confirming) {
    body = (
      <>
        <p>{t("consent.withdrawExplain")}</p>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          {t("consent.withdraw")}
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <Alert tone="warning" title={t("consent.withdrawConfirmTitle")}>
          <p>{t("consent.withdrawConfirm")}</p>
        </Alert>
        {withdraw.isError ? (
          <Alert tone="error">
            <p>{errorMessage(withdraw.error)}</p>
          </Alert>
        ) : null}
        <div className="consent-actions">
          <Button variant="danger" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
            {t("consent.withdrawYes")}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            {t("consent.keep")}
          </Button>
        </div>
      </>
    );
  }

  return (
    <GuardianCard title={t("consent.withdraw")} token={token}>
      {body}
    </GuardianCard>
  );
}
