import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError } from "../api/client.ts";
import { useSession } from "../auth/session.tsx";
import { Alert, OutcomeAlert } from "../components/alert.tsx";
import { Button, ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { CodeField } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { useResendCode, useVerifyEmail } from "../features/account-security/api.ts";
import { useT } from "../i18n/intl.tsx";

export default function Verify() {
  const { user } = useSession();
  const navigate = useNavigate();
  const verifying = useVerifyEmail();
  const resending = useResendCode();
  const [code, setCode] = useState("");
  // `invalid`: the code itself was refused, so the message is the Code field's error.
  const [result, setResult] = useState<{ ok: boolean; text: string; invalid?: boolean } | null>(
    null,
  );
  const resultId = `verify-result${useId()}`;
  const [resend, setResend] = useState<{ ok: boolean; text: string } | null>(null);
  const { intl, t } = useT();
  const email = user?.email;
  const leave = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(leave.current), []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Each action clears the other's message, which is about an earlier attempt.
    setResult(null);
    setResend(null);
    verifying.mutate(code.trim(), {
      onSuccess: () => {
        setResult({ ok: true, text: t("verify.success") });
        leave.current = setTimeout(() => navigate("/dashboard"), 1200);
      },
      onError: (err) => {
        const invalid =
          err instanceof ApiError && (err.code === "invalid_code" || err.status === 400);
        setResult({ ok: false, text: invalid ? t("verify.invalid") : err.message, invalid });
      },
    });
  }

  function onResend() {
    setResend(null);
    setResult(null);
    resending.mutate(undefined, {
      onSuccess: () =>
        setResend({
          ok: true,
          text: email
            ? intl.formatMessage({ id: "verify.resent" }, { email })
            : t("verify.resentNoEmail"),
        }),
      onError: (err) => setResend({ ok: false, text: err.message }),
    });
  }

  // Verified already (and not by a code entered here, whose outcome shows below): nothing to
  // enter and nothing to resend.
  if (user?.emailVerified && verifying.isIdle) {
    return (
      <div className="stack narrow">
        <PageHeader title={t("verify.title")} />
        <Alert tone="success">
          <p>
            {email
              ? intl.formatMessage({ id: "verify.already" }, { email })
              : t("verify.alreadyNoEmail")}
          </p>
        </Alert>
        <p>
          <ButtonLink to="/dashboard">{t("verify.toDashboard")}</ButtonLink>
        </p>
      </div>
    );
  }

  return (
    <div className="stack narrow">
      <PageHeader
        title={t("verify.title")}
        description={
          email
            ? intl.formatMessage({ id: "verify.description" }, { email })
            : t("verify.descriptionNoEmail")
        }
      />
      <Card>
        <form className="form" onSubmit={onSubmit}>
          <CodeField
            label={t("verify.code")}
            digits={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            // The message stays in the alert below (announced at once), tied to the field as
            // the other forms' field errors are.
            aria-invalid={result?.invalid || undefined}
            aria-describedby={result?.invalid ? resultId : undefined}
          />
          <OutcomeAlert outcome={result} id={resultId} />
          <div className="actions">
            <Button type="submit" loading={verifying.isPending || verifying.isSuccess}>
              {t("verify.submit")}
            </Button>
            <Button variant="secondary" onClick={onResend} loading={resending.isPending}>
              {t("verify.resend")}
            </Button>
          </div>
          <OutcomeAlert outcome={resend} okTone="info" />
        </form>
      </Card>
    </div>
  );
}
