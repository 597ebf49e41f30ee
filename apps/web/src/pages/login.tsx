import type { MfaChallenge } from "@gradecast/contract/account-security";
import { adminCreateCommand } from "@gradecast/contract/first-admin";
import { messages } from "@gradecast/contract/messages";
import { isOidcRefusal, oidcRefusals } from "@gradecast/contract/oidc";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { ApiError, api } from "../api/client.ts";
import { useSetupState } from "../api/site.ts";
import { safeNext } from "../auth/next.ts";
import { useSession } from "../auth/session.tsx";
import { Alert } from "../components/alert.tsx";
import { AuthCard, AuthForm } from "../components/auth-card.tsx";
import { Button, buttonClass } from "../components/button.tsx";
import { CodeField, EmailField, PasswordField } from "../components/field.tsx";
import { Spinner } from "../components/spinner.tsx";
import { useT } from "../i18n/intl.tsx";

const messageOf = (err: unknown) =>
  err instanceof ApiError || err instanceof Error ? err.message : String(err);

export default function Login() {
  const { status, endedBy, signIn, completeMfa, resume } = useSession();
  const { intl, t } = useT();
  const [params] = useSearchParams();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // Two-step login: after a right password, the code from the authenticator app.
  // After the school's provider, when the account has MFA on, the challenge comes in the
  // address's fragment (never sent to a server).
  const [challenge, setChallenge] = useState<MfaChallenge | null>(() => {
    const fromProvider = new URLSearchParams(location.hash.slice(1)).get("challenge");
    return params.get("oidc") === "mfa" && fromProvider
      ? { mfaRequired: true, challenge: fromProvider }
      : null;
  });
  const [code, setCode] = useState("");
  const setup = useSetupState();
  const oidcError = params.get("oidc_error") ?? "";
  const refusal = oidcError
    ? isOidcRefusal(oidcError)
      ? oidcRefusals[oidcError]
      : oidcRefusals.token_invalid
    : "";
  // Back from the provider, signed in: the refresh cookie it set is traded for the ID token.
  const returning = params.get("oidc") === "signed_in" && status === "signedOut";
  const [resumeError, setResumeError] = useState("");
  const resumed = useRef(false);
  useEffect(() => {
    if (!returning || resumed.current) return;
    resumed.current = true;
    resume().catch((err: unknown) => setResumeError(messageOf(err)));
  }, [returning, resume]);
  // Signed out here after a sign-in with the provider: offer its own sign-out too.
  const [providerLogout, setProviderLogout] = useState<string | null>(null);
  const oidcName = setup?.oidcName ?? null;
  useEffect(() => {
    if (endedBy !== "logout" || !oidcName) return;
    api<{ url: string | null }>("GET", "/api/auth/oidc/logout", undefined, { auth: false }).then(
      (answer) => setProviderLogout(answer.url),
      () => setProviderLogout(null),
    );
  }, [endedBy, oidcName]);

  if (status === "signedIn") return <Navigate to={safeNext(params.get("next"))} replace />;
  if (status === "loading" || (returning && !resumeError)) {
    return <Spinner label={t("login.loading")} className="spinner-page" />;
  }

  /**
   * A step's submit (password, then code): the form is busy from the press on and stays so once
   * signed in (the redirect above takes the user on); a failure shows its message and frees it.
   */
  const submitting =
    (step: () => Promise<unknown>, onFailure?: (err: unknown) => void) =>
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setError("");
      setBusy(true);
      try {
        await step();
      } catch (err) {
        onFailure?.(err);
        setError(messageOf(err));
        setBusy(false);
      }
    };

  const backToPassword = () => {
    setChallenge(null);
    setCode("");
  };

  if (challenge) {
    const onCode = submitting(
      () => completeMfa(challenge.challenge, code),
      (err) => {
        // A challenge that expired sends the user back to the password step.
        if (err instanceof ApiError && err.code === "unauthorized") backToPassword();
      },
    );
    return (
      <AuthCard
        title={t("login.mfa.title")}
        description={t("login.mfa.description")}
        links={
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              backToPassword();
              setError("");
            }}
          >
            {t("login.mfa.otherAccount")}
          </Button>
        }
      >
        <AuthForm onSubmit={onCode} loading={busy} submitLabel={t("login.mfa.verify")}>
          <CodeField
            label={t("login.mfa.code")}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={error || undefined}
          />
        </AuthForm>
      </AuthCard>
    );
  }

  const onSubmit = submitting(async () => {
    const answer = await signIn(email, password);
    if ("mfaRequired" in answer) {
      setChallenge(answer);
      setBusy(false);
    }
  });

  return (
    <AuthCard
      title={t("login.title")}
      description={t("login.description")}
      links={
        <>
          <Link to="/forgot-password">{t("login.forgot")}</Link>
          <span>
            {intl.formatMessage(
              { id: "login.noAccount" },
              { link: (text) => <Link to="/register">{text}</Link> },
            )}
          </span>
        </>
      }
    >
      {setup && !setup.adminExists ? (
        <Alert tone="warning" title={t("login.noAdmin.title")}>
          <p>
            {intl.formatMessage(
              { id: "login.noAdmin.text" },
              { command: adminCreateCommand, code: (text) => <code>{text}</code> },
            )}
          </p>
        </Alert>
      ) : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {refusal ? (
        <Alert tone="error" title={t("login.refused")}>
          <p>{refusal}</p>
        </Alert>
      ) : null}
      {resumeError ? <Alert tone="error">{resumeError}</Alert> : null}
      {providerLogout && oidcName ? (
        <Alert tone="info">
          <p>
            {intl.formatMessage(
              { id: "login.providerLogout" },
              { provider: oidcName, link: (text) => <a href={providerLogout}>{text}</a> },
            )}
          </p>
        </Alert>
      ) : null}
      {oidcName ? (
        <>
          <a className={buttonClass("secondary", "btn-block")} href="/api/auth/oidc/start">
            {intl.formatMessage({ id: "login.withProvider" }, { provider: oidcName })}
          </a>
          <p className="muted login-or">{t("login.or")}</p>
        </>
      ) : null}
      {params.get("next") ? <p className="muted">{messages.signInRequired}</p> : null}
      <AuthForm onSubmit={onSubmit} loading={busy} submitLabel={t("login.submit")}>
        <EmailField
          label={t("login.email")}
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <PasswordField
          label={t("login.password")}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <p className="form-error" role="alert" id="login-error">
          {error}
        </p>
      </AuthForm>
    </AuthCard>
  );
}
