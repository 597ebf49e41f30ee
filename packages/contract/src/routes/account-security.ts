import {
  changeEmailAnswerSchema,
  changeEmailSchema,
  mfaConfirmSchema,
  mfaLoginSchema,
  mfaStatusSchema,
  reauthSchema,
  recoveryCodesSchema,
  sessionListSchema,
  totpEnrolmentSchema,
} from "../account-security.ts";
import { messageSchema, noContentSchema } from "../api-responses.ts";
import { sessionSchema } from "../auth.ts";
import { admins, anyone, defineRoute, idParams, kb, signedIn, uidParams } from "../route.ts";

// Account security (issue 18): sessions, TOTP MFA, re-authentication, the email address. Last
// of the domains: the fuzz test walks routes in their order, and these end sessions and turn
// MFA off for its users.

export const mfaLogin = defineRoute({
  method: "POST",
  path: "/api/auth/mfa",
  access: anyone,
  summary: "Finish signing in with an authenticator or recovery code",
  body: mfaLoginSchema,
  response: { 200: sessionSchema },
  bodyLimit: kb(16),
});

export const reauth = defineRoute({
  method: "POST",
  path: "/api/auth/reauth",
  access: signedIn,
  summary: "Confirm the password (and code) before a sensitive change",
  body: reauthSchema,
  response: { 204: noContentSchema },
  bodyLimit: kb(8),
});

export const sessions = defineRoute({
  method: "GET",
  path: "/api/me/sessions",
  access: signedIn,
  summary: "The account's sessions",
  response: { 200: sessionListSchema },
});

export const endOtherSessions = defineRoute({
  method: "DELETE",
  path: "/api/me/sessions",
  access: signedIn,
  summary: "End every other session",
  response: { 204: noContentSchema },
});

export const endSession = defineRoute({
  method: "DELETE",
  path: "/api/me/sessions/:id",
  access: signedIn,
  summary: "End one session",
  params: idParams,
  response: { 204: noContentSchema },
});

export const mfaStatus = defineRoute({
  method: "GET",
  path: "/api/me/mfa",
  access: signedIn,
  summary: "Whether MFA is on",
  response: { 200: mfaStatusSchema },
});

export const startTotp = defineRoute({
  method: "POST",
  path: "/api/me/mfa/totp",
  access: signedIn,
  summary: "Start TOTP enrolment: a secret for the authenticator app",
  response: { 200: totpEnrolmentSchema },
});

export const confirmTotp = defineRoute({
  method: "POST",
  path: "/api/me/mfa/totp/confirm",
  access: signedIn,
  summary: "Turn TOTP on with a first code: the recovery codes",
  body: mfaConfirmSchema,
  response: { 200: recoveryCodesSchema },
});

export const turnMfaOff = defineRoute({
  method: "DELETE",
  path: "/api/me/mfa",
  access: signedIn,
  summary: "Turn MFA off",
  response: { 204: noContentSchema },
});

export const endUserSessions = defineRoute({
  method: "DELETE",
  path: "/api/admin/users/:uid/sessions",
  access: admins,
  summary: "End every session of an account (admins)",
  params: uidParams,
  response: { 204: noContentSchema },
});

export const turnUserMfaOff = defineRoute({
  method: "DELETE",
  path: "/api/admin/users/:uid/mfa",
  access: admins,
  summary: "Turn an account's MFA off (admins)",
  params: uidParams,
  response: { 200: messageSchema },
});

export const changeEmail = defineRoute({
  method: "PATCH",
  path: "/api/me/email",
  access: signedIn,
  summary: "Change one's own email address (after re-authentication; verify it again)",
  body: changeEmailSchema,
  response: { 200: changeEmailAnswerSchema },
});
