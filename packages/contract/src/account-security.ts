import { z } from "zod";
import { emailSchema, userSchema } from "./auth.ts";

// Sessions, TOTP MFA and re-authentication (issue 18): the request and answer shapes of
// /api/me/sessions, /api/me/mfa, /api/auth/mfa and /api/auth/reauth, and their messages.

/** Sensitive changes are allowed this long after a sign-in or re-authentication. */
export const reauthMinutes = 10;
export const recoveryCodeCount = 10;

export const securityMessages = {
  reauthRequired: "Confirm it is you: enter your password again to make this change.",
  mfaEnrolmentRequired: "Admins must turn on two-step login first. Set it up on the Settings page.",
  mfaInvalidCode: "That code is not right. Enter the current 6-digit code or a recovery code.",
  /** While setting it up there are no recovery codes yet (issue 28). */
  mfaEnrolmentInvalidCode:
    "That code is not right. Enter the 6-digit code your authenticator app shows now for Gradecast (codes change every 30 seconds).",
  mfaRequiredNotice:
    "Admins must turn on two-step login before they can manage users, read the audit log or see anyone's data. Set it up below: until then Gradecast brings you back here.",
  mfaChallengeExpired: "This login took too long. Enter your email and password again.",
  mfaAlreadyOn: "Two-step login is already on. Turn it off first to set it up again.",
  mfaNotStarted: "Start setting up two-step login first.",
  mfaNotOn: "Two-step login is not on for this account.",
  mfaTurnedOff: "Two-step login is off.",
  mfaReset: "Two-step login has been reset: the user sets it up again at their next login.",
  sessionNotFound: "This session has already ended.",
  sessionsEnded: "Every other session has ended.",
  wrongPassword: "Your password is incorrect.",
  emailUnchanged: "This is already your email address.",
  emailChanged: (email: string) =>
    `Your email address is now ${email}. Enter the code we sent there to verify it.`,
} as const;

/** PATCH /api/me/email: the new address; a verification code goes there. */
export const changeEmailSchema = z.object({ email: emailSchema });
/** Its answer: the account as it is now (unverified) and what to tell the user. */
export const changeEmailAnswerSchema = z.object({ user: userSchema, message: z.string() });
export type ChangeEmailAnswer = z.infer<typeof changeEmailAnswerSchema>;

const codeField = z
  .string({ error: "Enter the code." })
  .trim()
  .min(1, { error: "Enter the code." })
  .max(40, { error: "Enter the code." });

/** POST /api/me/mfa/totp/confirm */
export const mfaConfirmSchema = z.object({ code: codeField });
/** POST /api/auth/mfa: a TOTP code or a recovery code. */
export const mfaLoginSchema = z.object({
  challenge: z.string({ error: "Log in again." }).min(1).max(2048),
  code: codeField,
});
/** POST /api/auth/reauth: the password, and a code when MFA is on. */
export const reauthSchema = z.object({
  password: z
    .string({ error: "Enter your password." })
    .min(1, { error: "Enter your password." })
    .max(1024),
  code: codeField.optional(),
});

/** POST /api/auth/login when MFA is on: no token yet. */
export const mfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  challenge: z.string(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const mfaStatusSchema = z.object({
  enabled: z.boolean(),
  /** Admins cannot use the app until it is on. */
  required: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

export const sessionInfoSchema = z.object({
  id: z.string(),
  /** The sign-in that started it. */
  createdAt: z.string(),
  /** The latest refresh (or the sign-in). */
  lastUsedAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** How it signed in: "password", or "oidc:<the provider's name>" (issue 34). */
  method: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });
