import { messages } from "@gradecast/contract/messages";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { api } from "../api/client.ts";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";

export default function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setResult(null);
    setBusy(true);
    try {
      await api<void>("POST", "/api/auth/forgot-password", { email }, { auth: false });
      setResult({ ok: true, text: messages.resetLinkSent });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      setResult({ ok: false, text: messages.resetLinkErrorPrefix + message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeader
          title="Forgot Password"
          description="Enter the email address of your account and we will email you a link to choose a new password."
        />
        <form className="form" onSubmit={onSubmit}>
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          {result ? (
            <Alert tone={result.ok ? "success" : "error"}>
              <p>{result.text}</p>
            </Alert>
          ) : null}
          <Button type="submit" loading={busy} className="btn-block">
            Send reset link
          </Button>
        </form>
        <div className="auth-links">
          <Link to="/login">Back to Login</Link>
        </div>
      </div>
    </div>
  );
}
