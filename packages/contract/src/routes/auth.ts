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
