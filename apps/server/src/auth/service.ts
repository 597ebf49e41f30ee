import { randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  User,
  updateNameSchema,
} from "@gradecast/contract/auth";
import { isId } from "@gradecast/contract/ids";
import type { Locale, setLocaleSchema } from "@gradecast/contract/locale";
import { messages } from "@gradecast/contract/messages";
import { privacyNoticeVersion } from "@gradecast/contract/privacy";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { acceptTeacherInvitation, isInvitedTeacher } from "../admin/teacher-invitations.ts";
import { notifyAdminsOfTeacherRequest } from "../admin/teacher-requests.ts";
import { audit, auditOwn } from "../audit/audit.ts";
import { enrolInvitedStudent } from "../classes/invitations.ts";
import { checkDateOfBirth } from "../consent/service.ts";
import { cancelDeletionOnSignIn } from "../db/account-deletions.ts";
import type { DB, UserRow } from "../db/schema.ts";
import * as users from "../db/users.ts";
import { conflict, DomainError, hasCode, invalid, unauthenticated } from "../domain-errors.ts";
import { localizedPasswordResetEmail, localizedVerificationEmail } from "../i18n/translate.ts";
import { appUrl, mailPerson } from "../mail/send.ts";
import type { Services } from "../services.ts";
import type { AuthContext, Origin } from "./context.ts";
import { inputDigest } from "./input-digest.ts";
import { challengeUser, checkSecondFactor, mfaEnabled, signChallenge } from "./mfa.ts";
import { hashPassword, isCommonPassword, verifyDummy, verifyPassword } from "./passwords.ts";
import * as q from "./queries.ts";
import { idTokenSeconds, randomToken, sha256, signIdToken, verifyIdToken } from "./tokens.ts";

// The rules of accounts: registration, sign-in with rotating refresh
// tokens, email verification codes, password resets, the profile. Routes parse and answer;
// this file decides; queries.ts touches the database.
/** A session ends 30 days after its sign-in, however often it is refreshed (ASVS 7.3.2)... */
export const refreshDays = 30;
/** ...or after 7 days without use (ASVS 7.3.1). */
export const idleDays = 7;
export const codeMinutes = 10;
export const codeMaxTries = 5;
export const resetMinutes = 30;

export type { AuthContext, Origin } from "./context.ts";

export interface SignedIn {
  token: string;
  expiresIn: number;
  user: User;
  refreshToken: string;
  /** This sign-in cancelled the account's pending deletion (issue 31). */
  deletionCancelled?: true;
}

/** A right password of an account with MFA on: the code comes next (POST /api/auth/mfa). */
export interface MfaPending {
  mfaRequired: true;
  challenge: string;
  /** For the device cookie, set only once the code is right. */
  email: string;
}

export const commonPasswordMessage = messages.passwordTooCommon;

export function toUser(row: UserRow): User {
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    pendingRole: row.pending_role,
    emailVerified: row.email_verified,
    createdAt: new Date(row.created_at as unknown as string | Date).toISOString(),
    locale: row.locale ?? null,
  };
}

const invalidCredentials = () =>
  unauthenticated(messages.invalidCredentials, "invalid_credentials");
/** A wrong email or password: the one sign-in answer that counts as a guess. */
export const isInvalidCredentials = (error: unknown) => hasCode(error, "invalid_credentials");
export const accountDisabled = () => unauthenticated(messages.accountDisabled, "account_disabled");
const invalidCode = () => new DomainError("invalid", "invalid_code", messages.verifyInvalid);
export const sessionExpired = () => unauthenticated(messages.sessionEnded);

function refuseCommon(password: string, field: string) {
  if (isCommonPassword(password))
    throw invalid(commonPasswordMessage, { [field]: commonPasswordMessage });
}

// Registration.
export async function register(
  ctx: AuthContext,
  origin: Origin,
  input: z.output<typeof registerSchema>,
  requestLocale?: Locale,
): Promise<User> {
  const { services } = ctx;
  refuseCommon(input.password, "password");
  if (
    input.role === "teacher" &&
    services.config.teacherSignup === "closed" &&
    !(await isInvitedTeacher(services.db, input.email))
  ) {
    throw invalid(messages.teacherSignupClosed, { role: messages.teacherSignupClosed });
  }
  if (await users.findUserByEmail(services.db, input.email)) throw conflict(messages.emailTaken);
  // Under closed, only an invited address gets this far: it waits as a student like an approval
  // until the address is verified, which makes it a teacher (admin/teacher-invitations.ts).
  const approval = input.role === "teacher" && services.config.teacherSignup !== "open";
  // Issue 31 part B: where the legal basis is consent, a student gives their date of birth (a
  // guardian consents for one under DIGITAL_CONSENT_AGE); otherwise it is neither asked nor kept.
  const dateOfBirth =
    services.config.legalBasis === "consent" && input.role === "student"
      ? checkDateOfBirth(input.dateOfBirth)
      : null;
  const row = await users.insertUser(services.db, {
    date_of_birth: dateOfBirth,
    notice_version: privacyNoticeVersion,
    name: input.name,
    email: input.email,
    password_hash: await hashPassword(input.password),
    role: approval ? "student" : input.role,
    pending_role: approval ? "teacher" : null,
  });
  if (!row) throw conflict(messages.emailTaken);
  await auditOwn(services.db, row, "auth.register", origin.ip, {
    role: row.role,
    ...(approval ? { pendingRole: "teacher" } : {}),
  });
  await sendVerificationCode(services, row, requestLocale);
  return toUser(row);
}

/**
 * The verification code, in the recipient's language: their own setting, else the language of
 * the request that asked for it (registration), else DEFAULT_LOCALE (issue 33).
 */
export async function sendVerificationCode(
  services: Services,
  user: UserRow,
  requestLocale?: Locale,
): Promise<void> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
  const now = services.now();
  await q.replaceEmailCode(services.db, {
    userId: user.id,
    email: user.email,
    codeHash: codeHash(user.id, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + codeMinutes * 60_000),
  });
  await mailPerson(
    services,
    user,
    localizedVerificationEmail,
    { code, appUrl: appUrl(services), minutes: codeMinutes },
    requestLocale,
  );
}

function codeHash(userId: string, code: string): string {
  return sha256(`${userId}:${code}`);
}

// Sign-in and sessions.
export async function login(
  ctx: AuthContext,
  origin: Origin,
  input: z.output<typeof loginSchema>,
): Promise<SignedIn | MfaPending> {
  const { services } = ctx;
  const row = await users.findUserByEmail(services.db, input.email);
  const ok = row
    ? await verifyPassword(row.password_hash, input.password)
    : await verifyDummy(input.password);
  if (!row || !ok) {
    // An input that names no account may be a password typed in the wrong field: kept only as
    // a keyed digest (input-digest.ts), never as it was typed.
    await audit(services.db, {
      actorId: row?.id ?? null,
      actorEmail: row ? row.email : null,
      action: "auth.login_failed",
      target: row?.id ?? null,
      details: row
        ? { reason: "wrong_password" }
        : { reason: "unknown_email", inputDigest: inputDigest(ctx.keys, input.email) },
      ip: origin.ip,
    });
    throw invalidCredentials();
  }
  if (row.disabled) {
    await auditOwn(services.db, row, "auth.login_failed", origin.ip, { reason: "disabled" });
    throw accountDisabled();
  }
  // The deployment signs this role in through the school's provider only (LOCAL_PASSWORDS_OFF).
  if (services.config.localPasswordsOff.includes(row.role)) {
    await auditOwn(services.db, row, "auth.login_failed", origin.ip, { reason: "password_off" });
    throw unauthenticated(messages.passwordSignInOff, "password_sign_in_off");
  }
  if (mfaEnabled(row)) {
    return {
      mfaRequired: true,
      challenge: await signChallenge(ctx.keys, row.id, services.now()),
      email: row.email,
    };
  }
  const signedIn = await startSession(ctx, row, randomUUID(), services.now(), origin);
  await auditOwn(services.db, row, "auth.login", origin.ip);
  // Issue 31: signing in during a deletion's grace period cancels it, and the answer says so.
  if (await cancelDeletionOnSignIn(services.db, row, origin.ip)) {
    return { ...signedIn, deletionCancelled: true };
  }
  return signedIn;
}

/** POST /api/auth/mfa: the second step of a sign-in with MFA. */
export async function completeMfaLogin(
  ctx: AuthContext,
  origin: Origin,
  input: { challenge: string; code: string },
): Promise<SignedIn & { email: string }> {
  const { services } = ctx;
  const { userId, via } = await challengeUser(ctx.keys, input.challenge, services.now());
  const row = await users.findUserById(services.db, userId);
  if (!row || !mfaEnabled(row)) throw invalidCredentials();
  if (row.disabled) throw accountDisabled();
  let method: "totp" | "recovery";
  try {
    method = await checkSecondFactor(ctx, row, input.code);
  } catch (error) {
    await auditOwn(services.db, row, "auth.login_failed", origin.ip, { reason: "wrong_mfa_code" });
    throw error;
  }
  const signedIn = await startSession(ctx, row, randomUUID(), services.now(), origin, {
    method: via,
  });
  await auditOwn(services.db, row, "auth.login", origin.ip, {
    mfa: method,
    ...(via === "password" ? {} : { via }),
  });
  const cancelled = await cancelDeletionOnSignIn(services.db, row, origin.ip);
  return { ...signedIn, email: row.email, ...(cancelled ? { deletionCancelled: true } : {}) };
}

/** How a session signed in: "password" or "oidc:<name>", and whether the provider did MFA. */
export interface SignInMethod {
  method: string;
  providerMfa?: boolean;
}

export async function startSession(
  ctx: AuthContext,
  row: UserRow,
  familyId: string,
  signedInAt: Date,
  origin: Origin,
  how: SignInMethod = { method: "password" },
): Promise<SignedIn> {
  const { services } = ctx;
  const now = services.now();
  const refreshToken = randomToken();
  const idleEnd = now.getTime() + idleDays * 86_400_000;
  const absoluteEnd = signedInAt.getTime() + refreshDays * 86_400_000;
  await q.insertSession(services.db, {
    familyId,
    userId: row.id,
    tokenHash: sha256(refreshToken),
    createdAt: now,
    expiresAt: new Date(Math.min(idleEnd, absoluteEnd)),
    signedInAt,
    ip: origin.ip,
    userAgent: origin.userAgent?.slice(0, 300) ?? null,
    signInMethod: how.method,
    providerMfa: how.providerMfa ?? false,
  });
  const token = await signIdToken(ctx.keys, { sub: row.id, role: row.role, sid: familyId }, now);
  return { token, expiresIn: idTokenSeconds, user: toUser(row), refreshToken };
}

/** Rotates a refresh token; a token used before revokes its whole family. */
export async function refresh(
  ctx: AuthContext,
  origin: Origin,
  refreshToken: string | undefined,
): Promise<SignedIn> {
  const { services } = ctx;
  if (!refreshToken) throw sessionExpired();
  const now = services.now();
  const session = await q.findSession(services.db, sha256(refreshToken));
  if (!session || session.revoked_at) throw sessionExpired();
  if (session.used_at || !(await q.markSessionUsed(services.db, session.id, now))) {
    await q.revokeFamily(services.db, session.family_id, now);
    services.database.usersChanged();
    await audit(services.db, {
      actorId: session.user_id,
      actorEmail: null,
      action: "auth.refresh_reuse",
      target: session.user_id,
      details: { family: session.family_id },
      ip: origin.ip,
    });
    throw sessionExpired();
  }
  const signedInAt = new Date((session.signed_in_at ?? session.created_at) as unknown as Date);
  if (
    new Date(session.expires_at).getTime() <= now.getTime() ||
    signedInAt.getTime() + refreshDays * 86_400_000 <= now.getTime()
  ) {
    throw sessionExpired();
  }
  const row = await users.findUserById(services.db, session.user_id);
  if (!row) throw sessionExpired();
  if (row.disabled) {
    await q.revokeFamily(services.db, session.family_id, now);
    services.database.usersChanged();
    throw accountDisabled();
  }
  return startSession(ctx, row, session.family_id, signedInAt, origin, {
    method: session.sign_in_method,
    providerMfa: session.provider_mfa,
  });
}

/** The family of a refresh token, when it is known. */
export async function familyOf(ctx: AuthContext, refreshToken: string | undefined) {
  if (!refreshToken) return undefined;
  const session = await q.findSession(ctx.services.db, sha256(refreshToken));
  return session ?? undefined;
}

export async function logout(ctx: AuthContext, refreshToken: string | undefined): Promise<void> {
  const session = await familyOf(ctx, refreshToken);
  if (!session) return;
  await q.revokeFamily(ctx.services.db, session.family_id, ctx.services.now());
  ctx.services.database.usersChanged();
}

/** The session family named in a valid ID token. */
export async function familyOfToken(ctx: AuthContext, token: string | undefined) {
  if (!token) return undefined;
  const claims = await verifyIdToken(ctx.keys, token, ctx.services.now());
  return claims?.sid;
}

// Email verification.
export async function verifyEmail(ctx: AuthContext, userId: string, body: unknown): Promise<void> {
  const { services } = ctx;
  const raw = (body as { code?: unknown } | null | undefined)?.code;
  const code = typeof raw === "string" ? raw.trim() : typeof raw === "number" ? String(raw) : "";
  if (!/^[0-9]{6}$/.test(code)) throw invalidCode();
  const now = services.now();
  const live = await q.tryEmailCode(services.db, userId, now, codeMaxTries);
  if (!live) throw invalidCode();
  const expected = Buffer.from(live.code_hash, "hex");
  const given = Buffer.from(codeHash(userId, code), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCode();
  if (!(await q.consumeEmailCode(services.db, live.id, now))) throw invalidCode();
  // The code proves the address it was mailed to, and only while the account still has it.
  if (live.email === null) throw invalidCode();
  const row = await users.verifyAddress(services.db, userId, live.email, now);
  if (!row) throw invalidCode();
  services.database.usersChanged();
  await enrolInvitedStudent(services, await acceptTeacherInvitation(services, row, null), null);
  await notifyAdminsOfTeacherRequest(services, row);
}

export async function resendCode(ctx: AuthContext, userId: string): Promise<void> {
  const row = await users.findUserById(ctx.services.db, userId);
  if (!row || row.email_verified) return;
  await sendVerificationCode(ctx.services, row);
}

// Password reset.
export async function forgotPassword(
  ctx: AuthContext,
  { email }: z.output<typeof forgotPasswordSchema>,
  requestLocale?: Locale,
): Promise<() => Promise<void>> {
  const { services } = ctx;
  // The answer is the same whether or not the account exists; the work happens after it.
  return async () => {
    const row = await users.findUserByEmail(services.db, email);
    if (!row || row.disabled) return;
    const token = randomToken();
    const now = services.now();
    await q.insertPasswordReset(services.db, {
      userId: row.id,
      email: row.email,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + resetMinutes * 60_000),
    });
    const link = `${appUrl(services)}/reset-password?token=${token}`;
    await mailPerson(
      services,
      row,
      localizedPasswordResetEmail,
      { link, minutes: resetMinutes },
      requestLocale,
    );
  };
}

export const invalidResetMessage = messages.resetLinkInvalid;

export async function resetPassword(
  ctx: AuthContext,
  origin: Origin,
  input: z.output<typeof resetPasswordSchema>,
): Promise<void> {
  const { services } = ctx;
  refuseCommon(input.password, "password");
  // The link first: a flood of made-up tokens must cost a lookup each, never a password hash.
  const tokenHash = sha256(input.token);
  if (!(await q.isLivePasswordReset(services.db, tokenHash, services.now()))) {
    throw new DomainError("invalid", "invalid_token", invalidResetMessage);
  }
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const used = await q.usePasswordReset(services.db, tokenHash, now);
  if (!used) throw new DomainError("invalid", "invalid_token", invalidResetMessage);
  // The link reached the mailbox it was sent to: that address is proven too. An email change
  // ends the account's links; one that slipped past it (asked for as the change was made) is
  // for an address the account no longer has, and does nothing (issue 26).
  const row = await users.setResetPassword(
    services.db,
    used.user_id,
    passwordHash,
    used.email,
    now,
  );
  if (!row) throw new DomainError("invalid", "invalid_token", invalidResetMessage);
  await endSessionsAndResets(services.db, used.user_id, now);
  services.database.usersChanged();
  if (used.email !== null) {
    await enrolInvitedStudent(
      services,
      await acceptTeacherInvitation(services, row, origin.ip),
      origin.ip,
    );
  }
  await audit(services.db, {
    actorId: used.user_id,
    actorEmail: row?.email ?? null,
    action: "auth.password_reset",
    target: used.user_id,
    ip: origin.ip,
  });
}

// Profile.
export async function getMe(ctx: AuthContext, userId: string): Promise<User> {
  const row = await users.findUserById(ctx.services.db, userId);
  if (!row) throw sessionExpired();
  return toUser(row);
}

/**
 * Changes the user's own name, or their language: only the field of the route's body. The user
 * as they now are.
 */
export async function updateMe(
  ctx: AuthContext,
  userId: string,
  body: z.output<typeof updateNameSchema> | z.output<typeof setLocaleSchema>,
): Promise<User> {
  const changes = "name" in body ? { name: body.name } : { locale: body.locale };
  const row = await users.updateUser(ctx.services.db, userId, changes, ctx.services.now());
  ctx.services.database.usersChanged();
  if (!row) throw sessionExpired();
  return toUser(row);
}

/** Sets the user's language (null: follow the browser's); the user as they now are. */
export const setLocale: (
  ctx: AuthContext,
  userId: string,
  body: z.output<typeof setLocaleSchema>,
) => Promise<User> = updateMe;

export const wrongCurrentPasswordMessage = messages.currentPasswordWrong;

export async function changePassword(
  ctx: AuthContext,
  origin: Origin,
  userId: string,
  idToken: string | undefined,
  input: z.output<typeof changePasswordSchema>,
): Promise<void> {
  const { services } = ctx;
  const row = await users.findUserById(services.db, userId);
  if (!row) throw sessionExpired();
  if (!(await verifyPassword(row.password_hash, input.currentPassword))) {
    await auditOwn(services.db, row, "auth.password_change_failed", origin.ip);
    throw unauthenticated(wrongCurrentPasswordMessage, "invalid_credentials");
  }
  refuseCommon(input.newPassword, "newPassword");
  const now = services.now();
  await users.updateUser(
    services.db,
    row.id,
    { password_hash: await hashPassword(input.newPassword) },
    now,
  );
  // The refresh cookie is scoped to /api/auth, so the caller's session is named by the ID token.
  const keep = await familyOfToken(ctx, idToken);
  await endSessionsAndResets(services.db, row.id, now, keep && isId(keep) ? keep : undefined);
  services.database.usersChanged();
  await auditOwn(services.db, row, "auth.password_changed", origin.ip);
}

/**
 * After a new password: every session of the account ends (but `keep`, the caller's own, when
 * given), and so does every unused reset link. The caller then tells the access checks'
 * cache (`usersChanged`) when it has one.
 */
export async function endSessionsAndResets(
  db: Kysely<DB>,
  userId: string,
  now: Date,
  keep?: string,
): Promise<void> {
  await q.revokeUserSessions(db, userId, now, keep);
  await q.endPasswordResets(db, userId, now);
}
