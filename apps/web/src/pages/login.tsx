import type { MfaChallenge } from "@gradecast/contract/account-security";
import { adminCreateCommand } from "@gradecast/contract/first-admin";
import { messages } from "@gradecast/contract/messages";
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { ApiError } from "../api/client.ts";
import { useSetupState } from "../api/site.ts";
import { safeNext } from "../auth/next.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { AuthCard } from "../components/auth-card.tsx";
import { Button } from "../components/button.tsx";
import { CodeField, EmailField, PasswordField } from "../components/field.tsx";
import { Spinner } from "../components/spinner.tsx";

const messageOf = (err: unknown) =>
  err instanceof ApiError || err instanceof Error ? err.message : String(err);

export default function Login() {
  const { status, signIn, completeMfa } = useSession();
  const [params] = useSearchParams();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // Two-step login: after a right password, the code from the authenticator app.
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const [code, setCode] = useState("");
  const setup = useSetupState();

  if (status === "signedIn") return <Navigate to={safeNext(params.get("next"))} replace />;
  if (status === "loading") return <Spinner label="Loading..." className="spinner-page" />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setBusy(true);
    try {
      const answer = await signIn(email, password);
      if ("mfaRequired" in answer) {
        setChallenge(answer);
        setBusy(false);
      }
      // Otherwise the session is now signed in; the redirect above takes the user on.
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  async function onCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!challenge) return;
    setError("");
    setBusy(true);
    try {
      await completeMfa(challenge.challenge, code);
    } catch (err) {
      // A challenge that expired sends the user back to the password step.
      if (err instanceof ApiError && err.code === "unauthorized") {
        setChallenge(null);
        setCode("");
      }
      setError(messageOf(err));
      setBusy(false);
    }
  }

  if (challenge) {
    return (
      <AuthCard
        title="Two-step login"
        description="Enter the 6-digit code your authenticator app shows for Gradecast, or one of your recovery codes."
        links={
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setChallenge(null);
              setCode("");
              setError("");
            }}
          >
            Use another account
          </Button>
        }
      >
        <form className="form" onSubmit={onCode}>
          <CodeField
            label="Code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={error || undefined}
          />
          <Button type="submit" loading={busy} className="btn-block">
            Verify
          </Button>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Login"
      description="Log in to Gradecast."
      links={
        <>
          <Link to="/forgot-password">Forgot Password?</Link>
          <span>
            No account yet? <Link to="/register">Sign Up</Link>
          </span>
        </>
      }
    >
      {setup && !setup.adminExists ? (
        <Alert tone="warning" title="This Gradecast has no admin yet">
          <p>
            Until one exists, nobody can approve teachers or manage accounts. Whoever runs the
            server creates the first admin with <code>{adminCreateCommand}</code> (on the embedded
            database, stop the server first).
          </p>
        </Alert>
      ) : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {params.get("next") ? <p className="muted">{messages.signInRequired}</p> : null}
      <form className="form" onSubmit={onSubmit} noValidate={false}>
        <EmailField
          label="Email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label="Password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="form-error" role="alert" id="login-error">
          {error}
        </p>
        <Button type="submit" loading={busy} className="btn-block">
          Login
        </Button>
      </form>
    </AuthCard>
  );
}
