import type { TotpEnrolment } from "@gradecast/contract/account-security";
import QRCode from "qrcode";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Alert, OutcomeAlert } from "../../components/alert.tsx";
import { Button, SubmitOrCancel } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CodeField } from "../../components/field.tsx";
import { Spinner } from "../../components/spinner.tsx";
import { useT } from "../../i18n/intl.tsx";
import { useConfirmMfa, useMfaStatus, useStartMfa, useTurnOffMfa } from "./api.ts";
import { useReauth } from "./reauth.tsx";

// Two-step login (TOTP): status, enrolment with a QR code (an SVG data URL: the CSP allows
// data: images and nothing inline) and the secret typed by hand for those who cannot scan,
// confirmation with a first code, the recovery codes shown once with copy and download, and
// turning it off after confirming the password.
export function MfaCard() {
  const status = useMfaStatus();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | undefined>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const reauth = useReauth();
  const { intl, t } = useT();

  useEffect(() => {
    if (!enrolment) {
      setQr(null);
      return;
    }
    let live = true;
    QRCode.toString(enrolment.otpauthUrl, { type: "svg", margin: 1 }).then((svg) => {
      if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [enrolment]);

  const failed = (err: Error) => setMessage({ ok: false, text: err.message });
  const starting = useStartMfa();
  const confirming = useConfirmMfa();
  const turningOff = useTurnOffMfa(reauth.run);
  const busy = starting.isPending || confirming.isPending || turningOff.isPending;
  const start = () => {
    setMessage(null);
    starting.mutate(undefined, { onSuccess: setEnrolment, onError: failed });
  };
  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCodeError(undefined);
    confirming.mutate(code, {
      onSuccess: ({ recoveryCodes: codes }) => {
        setRecoveryCodes(codes);
        setEnrolment(null);
        setCode("");
      },
      onError: (err) => setCodeError(err.message),
    });
  };
  const turnOff = () => {
    setMessage(null);
    turningOff.mutate(undefined, {
      onSuccess: () => {
        setRecoveryCodes(null);
        setMessage({ ok: true, text: t("account.mfa.off") });
      },
      // A refused re-authentication has its own dialog.
      onError: (err) => {
        if (!(err instanceof ApiError && err.code === "reauth_required")) failed(err);
      },
    });
  };

  const codesText = recoveryCodes?.join("\n") ?? "";
  const data = status.data;
  return (
    <Card title={t("account.mfa.title")} id="mfa" aria-label={t("account.mfa.title")}>
      <p className="muted">
        {t("account.mfa.intro")}
        {data?.required ? ` ${t("account.mfa.adminsMust")}` : ""}
      </p>
      {status.isPending ? <Spinner label={t("account.loading")} /> : null}
      {status.isError ? <Alert tone="error">{status.error.message}</Alert> : null}
      {recoveryCodes ? (
        <Alert tone="success">
          <p>{t("account.mfa.codesShown")}</p>
          <pre className="recovery-codes" data-testid="recovery-codes">
            {codesText}
          </pre>
          <div className="actions">
            <Button
              variant="secondary"
              onClick={() => navigator.clipboard?.writeText(codesText).catch(() => undefined)}
            >
              {t("account.mfa.copy")}
            </Button>
            <a
              className="btn btn-secondary"
              download="gradecast-recovery-codes.txt"
              href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${codesText}\n`)}`}
            >
              {t("account.mfa.download")}
            </a>
          </div>
        </Alert>
      ) : null}
      {data && !data.enabled && !enrolment ? (
        <Button onClick={start} loading={busy}>
          {t("account.mfa.setUp")}
        </Button>
      ) : null}
      {enrolment ? (
        <form className="form" onSubmit={confirm} aria-label={t("account.mfa.confirmForm")}>
          <p>{t("account.mfa.scan")}</p>
          {qr ? (
            <img className="mfa-qr" src={qr} alt={t("account.mfa.qr")} width={200} height={200} />
          ) : (
            <Spinner label={t("account.mfa.drawing")} />
          )}
          <p>
            {t("account.mfa.cannotScan")}{" "}
            <code className="mfa-secret" data-testid="mfa-secret">
              {enrolment.secret.replace(/(.{4})/g, "$1 ").trim()}
            </code>
          </p>
          <CodeField
            label={t("account.mfa.enterCode")}
            digits={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={codeError}
          />
          <SubmitOrCancel
            saving={busy}
            submitLabel={t("account.mfa.turnOn")}
            cancelLabel={t("account.cancel")}
            onCancel={() => setEnrolment(null)}
          />
        </form>
      ) : null}
      {data?.enabled ? (
        <>
          <p>{intl.formatMessage({ id: "account.mfa.on" }, { left: data.recoveryCodesLeft })}</p>
          <Button variant="danger" onClick={turnOff} loading={busy}>
            {t("account.mfa.turnOff")}
          </Button>
        </>
      ) : null}
      <OutcomeAlert outcome={message} />
      {reauth.dialog}
    </Card>
  );
}
