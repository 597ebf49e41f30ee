import { z } from "zod";
import { mfaChallengeSchema } from "../account-security.ts";
import { messageSchema, noContentSchema } from "../api-responses.ts";
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  sessionSchema,
  userSchema,
} from "../auth.ts";
import { anyone, defineRoute, kb, signedIn } from "../route.ts";

// Signing up, signing in and out, passwords forgotten, the email address verified.

export const register = defineRoute({
  method: "POST",
  path: "/api/auth/register",
  access: anyone,
  summary: "Create an account (then sign in with POST /api/auth/login)",
  body: registerSchema,
  response: { 201: z.object({ user: userSchema }) },
});

export const login = defineRoute({
  method: "POST",
  path: "/api/auth/login",
  access: anyone,
  summary: "Sign in: an ID token and a refresh cookie, or an MFA challenge",
  body: loginSchema,
  response: { 200: z.union([sessionSchema, mfaChallengeSchema]) },
  bodyLimit: kb(10),
});

export const refresh = defineRoute({
  method: "POST",
  path: "/api/auth/refresh",
  access: anyone,
  summary: "A new ID token from the refresh cookie",
  response: { 200: sessionSchema },
});

export const logout = defineRoute({
  method: "POST",
  path: "/api/auth/logout",
  access: anyone,
  summary: "End this session",
  response: { 204: noContentSchema },
});

export const forgotPassword = defineRoute({
  method: "POST",
  path: "/api/auth/forgot-password",
  access: anyone,
  summary: "Email a password-reset link",
  body: forgotPasswordSchema,
  response: { 202: messageSchema },
});

export const resetPassword = defineRoute({
  method: "POST",
  path: "/api/auth/reset-password",
  access: anyone,
  summary: "Set a new password with a reset token",
  body: resetPasswordSchema,
  response: { 200: messageSchema },
});

// Any malformed code is the same 400 invalid_code as a wrong one (the service checks it).
const verifyBody = z.object({
  code: z
    .union([z.string().meta({ pattern: "^\\s*[0-9]{6}\\s*$" }), z.number().int()])
    .optional()
    .describe("The six-digit code from the email"),
});

export const verify = defineRoute({
  method: "POST",
  path: "/api/verify",
  access: signedIn,
  summary: "Verify the email address with the emailed code",
  body: verifyBody,
  response: { 200: messageSchema },
});

export const resendVerification = defineRoute({
  method: "POST",
  path: "/api/verify/resend",
  access: signedIn,
  summary: "Email a new verification code",
  response: { 202: messageSchema },
});

// Sign-in with the school's identity provider (issue 34; 404 unless OIDC_ISSUER is set). Both
// are page navigations, answered with redirects: to the provider, then back to the app.
const redirect = z.undefined().describe("No body: Location names the next page");

export const oidcStart = defineRoute({
  method: "GET",
  path: "/api/auth/oidc/start",
  access: anyone,
  summary: "Go to the school's identity provider to sign in (a redirect)",
  response: { 302: redirect },
});

export const oidcCallback = defineRoute({
  method: "GET",
  path: "/api/auth/oidc/callback",
  access: anyone,
  summary:
    "Where the provider sends the browser back: signs in and goes to the app, or to /login?oidc_error=<code>",
  querystring: z.object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
    iss: z.string().max(2048).optional(),
    session_state: z.string().max(512).optional(),
    scope: z.string().max(2048).optional(),
    authuser: z.string().max(64).optional(),
    hd: z.string().max(256).optional(),
    prompt: z.string().max(256).optional(),
  }),
  response: { 302: redirect },
});

export const oidcLogout = defineRoute({
  method: "GET",
  path: "/api/auth/oidc/logout",
  access: anyone,
  summary: "The provider's sign-out page for this installation, when the provider has one",
  response: { 200: z.object({ url: z.string().nullable() }) },
});
