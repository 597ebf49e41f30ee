import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { ApiError } from "../api/client.ts";
import { safeNext } from "../auth/next.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { Button } from "../components/button.tsx";
import { Field } from "../components/field.tsx";
import { PageHeader } from "../components/page-header.tsx";
import { Spinner } from "../components/spinner.tsx";

export default function Login() {
  const { status, signIn } = useSession();
  const [params] = useSearchParams();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  if (status === "signedIn") return <Navigate to={safeNext(params.get("next"))} replace />;
  if (status === "loading") return <Spinner label="Loading..." className="spinner-page" />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError("");
    setBusy(true);
    try {
      await signIn(email, password);
      // The session is now signed in; the redirect above takes the user on.
    } catch (err) {
      setError(err instanceof ApiError || err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <PageHeader title="Login" description="Sign in to Gradecast." />
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {params.get("next") ? <p className="muted">Please sign in to continue.</p> : null}
        <form className="form" onSubmit={onSubmit} noValidate={false}>
          <Field
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
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
        <div className="auth-links">
          <Link to="/forgot-password">Forgot Password?</Link>
          <span>
            No account yet? <Link to="/register">Sign Up</Link>
          </span>
        </div>
      </div>
    </div>
  );
}
