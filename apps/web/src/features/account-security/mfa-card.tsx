import type { TotpEnrolment } from "@gradecast/contract/account-security";
import QRCode from "qrcode";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError } from "../../api/client.ts";
import { Alert, OutcomeAlert } from "../../components/alert.tsx";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { CodeField } from "../../components/field.tsx";
import { Spinner } from "../../components/spinner.tsx";
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
        setMessage({ ok: true, text: "Two-step login is off." });
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
    <Card title="Two-step login" id="mfa" aria-label="Two-step login">
      <p className="muted">
        After your password, Gradecast asks for a 6-digit code from an authenticator app on your
        phone, so a stolen password alone cannot open your account.
        {data?.required ? " Admins must turn it on before they can use Gradecast." : ""}
      </p>
      {status.isPending ? <Spinner label="Loading..." /> : null}
      {status.isError ? <Alert tone="error">{status.error.message}</Alert> : null}
      {recoveryCodes ? (
        <Alert tone="success">
          <p>
            Two-step login is on. Keep these recovery codes somewhere safe: each signs you in once
            if you lose your phone. They are shown only now.
          </p>
          <pre className="recovery-codes" data-testid="recovery-codes">
            {codesText}
          </pre>
          <div className="actions">
            <Button
              variant="secondary"
              onClick={() => navigator.clipboard?.writeText(codesText).catch(() => undefined)}
            >
              Copy codes
            </Button>
            <a
              className="btn btn-secondary"
              download="gradecast-recovery-codes.txt"
              href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${codesText}\n`)}`}
            >
              Download codes
            </a>
          </div>
        </Alert>
      ) : null}
      {data && !data.enabled && !enrolment ? (
        <Button onClick={start} loading={busy}>
          Set up two-step login
        </Button>
      ) : null}
      {enrolment ? (
        <form className="form" onSubmit={confirm} aria-label="Confirm two-step login">
          <p>
            1. Scan this code with an authenticator app (for example Aegis, Google Authenticator or
            1Password).
          </p>
          {qr ? (
            <img
              className="mfa-qr"
              src={qr}
              alt="QR code to add Gradecast to an authenticator app"
              width={200}
              height={200}
            />
          ) : (
            <Spinner label="Drawing the QR code..." />
          )}
          <p>
            Cannot scan? Type this key into the app instead:{" "}
            <code className="mfa-secret" data-testid="mfa-secret">
              {enrolment.secret.replace(/(.{4})/g, "$1 ").trim()}
            </code>
          </p>
          <CodeField
            label="2. Enter the 6-digit code the app shows"
            digits={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={codeError}
          />
          <div className="actions">
            <Button type="submit" loading={busy}>
              Turn on
            </Button>
            <Button type="button" variant="ghost" onClick={() => setEnrolment(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {data?.enabled ? (
        <>
          <p>Two-step login is on. Recovery codes left: {data.recoveryCodesLeft}.</p>
          <Button variant="danger" onClick={turnOff} loading={busy}>
            Turn off two-step login
          </Button>
        </>
      ) : null}
      <OutcomeAlert outcome={message} />
      {reauth.dialog}
    </Card>
  );
}
