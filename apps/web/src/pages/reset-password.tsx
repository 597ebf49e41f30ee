import { passwordLimits } from "@gradecast/contract/auth";
import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError, api } from "../api/client.ts";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";

export const passwordResetNotice = "Your password has been reset. Log in with your new password.";
const mismatch = "The two passwords do not match.";

/** The target of the emailed reset link: /reset-password?token=… */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setFieldErrors({});
    if (password !== confirm) {
      setFieldErrors({ confirm: mismatch });
      return;
    }
    setBusy(true);
    try {
      await api<unknown>("POST", "/api/auth/reset-password", { token, password }, { auth: false });
      navigate("/login", { replace: true, state: { notice: passwordResetNotice } });
    } catch (err) {
      if (err instanceof ApiError && err.fields.password) {
        setFieldErrors({ password: err.fields.password });
      } else {
        setError(err instanceof Error ? err.message : String(err));
      }
      setBusy(false);
    }
  }

  if (!token) {
    return (
      <div className="auth-page">
        <div className="card auth-card">
          <PageHeader title="Reset password" />
          <Alert tone="error">
            <p>
              This reset link is incomplete. Open the link from the email again, or ask for a new
              one.
            </p>
          </Alert>
          <p>
            <Link to="/forgot-password">Ask for a new reset link</Link>
          </p>
        </div>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeader title="Reset password" description="Choose a new password for your account." />
        <form className="form" onSubmit={onSubmit}>
          <Field
            label="New password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={passwordLimits.min}
            maxLength={passwordLimits.max}
            hint={`At least ${passwordLimits.min} characters.`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldErrors.password}
          />
          <Field
            label="Repeat the new password"
            type="password"
            name="confirm"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={fieldErrors.confirm}
          />
          {error ? (
            <Alert tone="error">
              <p>{error}</p>
              <p>
                <Link to="/forgot-password">Ask for a new reset link</Link>
              </p>
            </Alert>
          ) : null}
          <Button type="submit" loading={busy} className="btn-block">
            Set new password
          </Button>
        </form>
      </div>
    </div>
  );
}
