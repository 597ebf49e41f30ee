// Sign-in with the school's identity provider (OpenID Connect, issue 34). A refused sign-in
// comes back to the login page as /login?oidc_error=<code>; the page shows the code's text.
// Nothing is created for any of them.
export const oidcRefusals = {
  state_mismatch:
    "That sign-in link has expired or was opened in another browser. Start again with the button below.",
  provider_refused:
    "Your school's sign-in service did not complete the sign-in (it was cancelled, or its one-time code was already used). Try again.",
  token_audience:
    "Your school's sign-in service answered for another application. Ask your school's administrator to check Gradecast's client id.",
  token_nonce: "The sign-in answer did not belong to this sign-in. Start again.",
  token_expired:
    "The sign-in answer had expired. Check that this device's clock is right, then try again.",
  token_signature:
    "The sign-in answer was not signed by your school's sign-in service, so it was refused.",
  token_invalid: "The sign-in answer could not be checked, so it was refused. Try again.",
  email_missing:
    "Your school's sign-in service did not give an email address, which Gradecast needs for an account.",
  email_unverified:
    "Your school's sign-in service has not confirmed your email address, so Gradecast cannot use it. Sign in with your school address, or with a password.",
  domain_not_allowed:
    "This school's Gradecast only accepts the school's own accounts. Sign in with your school account.",
  tenant_not_allowed:
    "This school's Gradecast only accepts accounts of the school's own organisation. Sign in with your school account.",
  email_taken:
    "An account with this email already exists here, and it cannot be joined to your school account automatically. Sign in with its password, or ask your school's administrator.",
  account_disabled: "This account has been disabled. Contact your school's administrator.",
  unavailable: "Your school's sign-in service could not be reached. Try again in a few minutes.",
} as const;

export type OidcRefusal = keyof typeof oidcRefusals;

export function isOidcRefusal(code: string): code is OidcRefusal {
  return Object.hasOwn(oidcRefusals, code);
}

/** The session list's words for how a session signed in ("password" or "oidc:<name>"). */
export function signInMethodLabel(method: string): string {
  if (method.startsWith("oidc:")) return `Signed in with ${method.slice(5)}`;
  return "Signed in with a password";
}
