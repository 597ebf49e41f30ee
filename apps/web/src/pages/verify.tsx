import { messages } from "@gradecast/contract/messages";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api } from "../api/client.ts";
import { meKey } from "../api/me.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button, ButtonLink } from "../components/button.tsx";
import { Card } from "../components/card.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";

export default function Verify() {
  const { user, refresh } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  // `invalid`: the code itself was refused, so the message is the Code field's error.
  const [result, setResult] = useState<{ ok: boolean; text: string; invalid?: boolean } | null>(
    null,
  );
  const resultId = `verify-result${useId()}`;
  const [resend, setResend] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const leave = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(leave.current), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Each action clears the other's message, which is about an earlier attempt.
    setResult(null);
    setResend(null);
    setBusy(true);
    try {
      await api<unknown>("POST", "/api/verify", { code: code.trim() });
      setResult({ ok: true, text: messages.verifySuccess });
      await queryClient.invalidateQueries({ queryKey: meKey });
      await refresh().catch(() => null);
      leave.current = setTimeout(() => navigate("/dashboard"), 1200);
    } catch (err) {
      const invalid =
        err instanceof ApiError && (err.code === "invalid_code" || err.status === 400);
      const text = invalid
        ? messages.verifyInvalid
        : err instanceof Error
          ? err.message
          : String(err);
      setResult({ ok: false, text, invalid });
      setBusy(false);
    }
  }

  async function onResend() {
    setResend(null);
    setResult(null);
    setResending(true);
    try {
      await api<unknown>("POST", "/api/verify/resend");
      setResend({ ok: true, text: `A new code is on its way to ${user?.email ?? "your email"}.` });
    } catch (err) {
      setResend({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setResending(false);
    }
  }

  // Verified already (and not by the code just entered, whose success shows below): nothing to
  // enter and nothing to resend.
  if (user?.emailVerified && !result) {
    return (
      <div className="stack narrow">
        <PageHeader title="Verify your email" />
        <Alert tone="success">
          <p>Your email address{user.email ? ` ${user.email}` : ""} is already verified.</p>
        </Alert>
        <p>
          <ButtonLink to="/dashboard">Go to the dashboard</ButtonLink>
        </p>
      </div>
    );
  }

  return (
    <div className="stack narrow">
      <PageHeader
        title="Verify your email"
        description={`Enter the 6-digit code we emailed to ${user?.email ?? "you"}. It works for 10 minutes.`}
      />
      <Card>
        <form className="form" onSubmit={onSubmit}>
          <Field
            label="Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            // The message stays in the alert below (announced at once), tied to the field as
            // the other forms' field errors are.
            aria-invalid={result?.invalid || undefined}
            aria-describedby={result?.invalid ? resultId : undefined}
          />
          {result ? (
            <Alert tone={result.ok ? "success" : "error"} id={resultId}>
              <p>{result.text}</p>
            </Alert>
          ) : null}
          <div className="actions">
            <Button type="submit" loading={busy}>
              Verify
            </Button>
            <Button variant="secondary" onClick={onResend} loading={resending}>
              Resend code
            </Button>
          </div>
          {resend ? (
            <Alert tone={resend.ok ? "info" : "error"}>
              <p>{resend.text}</p>
            </Alert>
          ) : null}
        </form>
      </Card>
    </div>
  );
}
