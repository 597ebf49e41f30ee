import { randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  type User,
  updateNameSchema,
} from "@gradecast/contract/auth";
import { messages } from "@gradecast/contract/messages";
import { audit } from "../audit/audit.ts";
import type { UserRow } from "../db/schema.ts";
import { AppError, badRequest, conflict, parse } from "../http/errors.ts";
import type { Services } from "../services.ts";
import { hashPassword, isCommonPassword, verifyDummy, verifyPassword } from "./passwords.ts";
import * as q from "./queries.ts";
import {
  idTokenSeconds,
  randomToken,
  type SigningKeys,
  sha256,
  signIdToken,
  verifyIdToken,
} from "./tokens.ts";

// The rules of accounts (DESIGN.md section 4): registration, sign-in with rotating refresh
// tokens, email verification codes, password resets, the profile. Routes parse and answer;
// this file decides; queries.ts touches the database.
export const refreshDays = 30;
export const codeMinutes = 10;
export const codeMaxTries = 5;
export const resetMinutes = 30;

export interface AuthContext {
  services: Services;
  keys: SigningKeys;
}

export interface Origin {
  ip: string | null;
}

export interface SignedIn {
  token: string;
  expiresIn: number;
  user: User;
  refreshToken: string;
}

export const commonPasswordMessage =
  "This password is too common. Choose one that is harder to guess.";

export function toUser(row: UserRow): User {
  return {
    uid: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    pendingRole: row.pending_role,
    emailVerified: row.email_verified,
    createdAt: new Date(row.created_at as unknown as string | Date).toISOString(),
  };
}

const invalidCredentials = () =>
  new AppError(401, "invalid_credentials", messages.invalidCredentials);
export const accountDisabled = () =>
  new AppError(401, "account_disabled", messages.accountDisabled);
const invalidCode = () => new AppError(400, "invalid_code", messages.verifyInvalid);
const sessionExpired = () =>
  new AppError(401, "unauthorized", "Your session has ended. Please log in again.");

function refuseCommon(password: string, field: string) {
  if (isCommonPassword(password))
    throw badRequest(commonPasswordMessage, { [field]: commonPasswordMessage });
}

function appUrl(services: Services): string {
  return services.config.publicUrl ?? `http://localhost:${services.config.port}`;
}

async function sendMail(services: Services, to: string, subject: string, text: string) {
  try {
    await services.mailer.send({ to, subject, text });
  } catch (error) {
    services.log.error({ err: error, to }, "sending mail failed");
  }
}

// Registration.
export async function register(ctx: AuthContext, origin: Origin, body: unknown): Promise<User> {
  const { services } = ctx;
  const input = parse(registerSchema, body);
  refuseCommon(input.password, "password");
  if (await q.findUserByEmail(services.db, input.email)) throw conflict(messages.emailTaken);
  const approval = input.role === "teacher" && services.config.teacherSignup === "approval";
  const row = await q.insertUser(services.db, {
    name: input.name,
    email: input.email,
    password_hash: await hashPassword(input.password),
    role: approval ? "student" : input.role,
    pending_role: approval ? "teacher" : null,
  });
  if (!row) throw conflict(messages.emailTaken);
  await audit(services.db, {
    actorId: row.id,
    actorEmail: row.email,
    action: "auth.register",
    target: row.id,
    details: { role: row.role, ...(approval ? { pendingRole: "teacher" } : {}) },
    ip: origin.ip,
  });
  await sendVerificationCode(services, row);
  return toUser(row);
}

export async function sendVerificationCode(services: Services, user: UserRow): Promise<void> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
  const now = services.now();
  await q.replaceEmailCode(services.db, {
    userId: user.id,
    codeHash: codeHash(user.id, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + codeMinutes * 60_000),
  });
  await sendMail(
    services,
    user.email,
    `Your Gradecast verification code: ${code}`,
    [
      `Hello ${user.name},`,
      "",
      `Your Gradecast verification code is ${code}.`,
      "",
      `Enter it on the Verify page (${appUrl(services)}/Verify). It expires in ${codeMinutes} minutes.`,
      "If you did not create a Gradecast account, ignore this email.",
    ].join("\n"),
  );
}

function codeHash(userId: string, code: string): string {
  return sha256(`${userId}:${code}`);
}

// Sign-in and sessions.
export async function login(ctx: AuthContext, origin: Origin, body: unknown): Promise<SignedIn> {
  const { services } = ctx;
  const input = parse(loginSchema, body);
  const row = await q.findUserByEmail(services.db, input.email);
  const ok = row
    ? await verifyPassword(row.password_hash, input.password)
    : await verifyDummy(input.password);
  if (!row || !ok) {
    await audit(services.db, {
      actorId: row?.id ?? null,
      actorEmail: input.email,
      action: "auth.login_failed",
      target: row?.id ?? null,
      details: { reason: row ? "wrong_password" : "unknown_email" },
      ip: origin.ip,
    });
    throw invalidCredentials();
  }
  if (row.disabled) {
    await audit(services.db, {
      actorId: row.id,
      actorEmail: row.email,
      action: "auth.login_failed",
      target: row.id,
      details: { reason: "disabled" },
      ip: origin.ip,
    });
    throw accountDisabled();
  }
  const signedIn = await startSession(ctx, row, randomUUID());
  await audit(services.db, {
    actorId: row.id,
    actorEmail: row.email,
    action: "auth.login",
    target: row.id,
    ip: origin.ip,
  });
  return signedIn;
}

async function startSession(ctx: AuthContext, row: UserRow, familyId: string): Promise<SignedIn> {
  const { services } = ctx;
  const now = services.now();
  const refreshToken = randomToken();
  await q.insertSession(services.db, {
    familyId,
    userId: row.id,
    tokenHash: sha256(refreshToken),
    createdAt: now,
    expiresAt: new Date(now.getTime() + refreshDays * 86_400_000),
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
  if (new Date(session.expires_at).getTime() <= now.getTime()) throw sessionExpired();
  const row = await q.findUserById(services.db, session.user_id);
  if (!row) throw sessionExpired();
  if (row.disabled) {
    await q.revokeFamily(services.db, session.family_id, now);
    throw accountDisabled();
  }
  return startSession(ctx, row, session.family_id);
}

/** The family of a refresh token, when it is known. */
export async function familyOf(ctx: AuthContext, refreshToken: string | undefined) {
  if (!refreshToken) return undefined;
  const session = await q.findSession(ctx.services.db, sha256(refreshToken));
  return session ?? undefined;
}

export async function logout(ctx: AuthContext, refreshToken: string | undefined): Promise<void> {
  const session = await familyOf(ctx, refreshToken);
  if (session) await q.revokeFamily(ctx.services.db, session.family_id, ctx.services.now());
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
  await q.updateUser(services.db, userId, { email_verified: true }, now);
}

export async function resendCode(ctx: AuthContext, userId: string): Promise<void> {
  const row = await q.findUserById(ctx.services.db, userId);
  if (!row || row.email_verified) return;
  await sendVerificationCode(ctx.services, row);
}

// Password reset.
export async function forgotPassword(
  ctx: AuthContext,
  body: unknown,
): Promise<() => Promise<void>> {
  const { services } = ctx;
  const { email } = parse(forgotPasswordSchema, body);
  // The answer is the same whether or not the account exists; the work happens after it.
  return async () => {
    const row = await q.findUserByEmail(services.db, email);
    if (!row || row.disabled) return;
    const token = randomToken();
    const now = services.now();
    await q.insertPasswordReset(services.db, {
      userId: row.id,
      tokenHash: sha256(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + resetMinutes * 60_000),
    });
    const link = `${appUrl(services)}/reset-password?token=${token}`;
    await sendMail(
      services,
      row.email,
      "Reset your Gradecast password",
      [
        `Hello ${row.name},`,
        "",
        "Someone (hopefully you) asked to reset the password of your Gradecast account.",
        "Open this link to choose a new password:",
        "",
        link,
        "",
        `The link works once and expires in ${resetMinutes} minutes.`,
        "If you did not ask for it, ignore this email: your password stays the same.",
      ].join("\n"),
    );
  };
}

export const invalidResetMessage = "This reset link is invalid or has expired. Request a new one.";

export async function resetPassword(
  ctx: AuthContext,
  origin: Origin,
  body: unknown,
): Promise<void> {
  const { services } = ctx;
  const input = parse(resetPasswordSchema, body);
  refuseCommon(input.password, "password");
  const passwordHash = await hashPassword(input.password);
  const now = services.now();
  const used = await q.usePasswordReset(services.db, sha256(input.token), now);
  if (!used) throw new AppError(400, "invalid_token", invalidResetMessage);
  // The link reached the mailbox: the email is proven too.
  const row = await q.updateUser(
    services.db,
    used.user_id,
    { password_hash: passwordHash, email_verified: true },
    now,
  );
  await q.revokeUserSessions(services.db, used.user_id, now);
  await q.endPasswordResets(services.db, used.user_id, now);
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
  const row = await q.findUserById(ctx.services.db, userId);
  if (!row) throw sessionExpired();
  return toUser(row);
}

export async function updateMe(ctx: AuthContext, userId: string, body: unknown): Promise<User> {
  const { name } = parse(updateNameSchema, body);
  const row = await q.updateUser(ctx.services.db, userId, { name }, ctx.services.now());
  if (!row) throw sessionExpired();
  return toUser(row);
}

export const wrongCurrentPasswordMessage = "Your current password is incorrect.";

export async function changePassword(
  ctx: AuthContext,
  origin: Origin,
  userId: string,
  idToken: string | undefined,
  body: unknown,
): Promise<void> {
  const { services } = ctx;
  const input = parse(changePasswordSchema, body);
  const row = await q.findUserById(services.db, userId);
  if (!row) throw sessionExpired();
  if (!(await verifyPassword(row.password_hash, input.currentPassword))) {
    await audit(services.db, {
      actorId: row.id,
      actorEmail: row.email,
      action: "auth.password_change_failed",
      target: row.id,
      ip: origin.ip,
    });
    throw new AppError(401, "invalid_credentials", wrongCurrentPasswordMessage);
  }
  refuseCommon(input.newPassword, "newPassword");
  const now = services.now();
  await q.updateUser(
    services.db,
    row.id,
    { password_hash: await hashPassword(input.newPassword) },
    now,
  );
  // The refresh cookie is scoped to /api/auth, so the caller's session is named by the ID token.
  const keep = await familyOfToken(ctx, idToken);
  await q.revokeUserSessions(services.db, row.id, now, keep && q.isUuid(keep) ? keep : undefined);
  await q.endPasswordResets(services.db, row.id, now);
  await audit(services.db, {
    actorId: row.id,
    actorEmail: row.email,
    action: "auth.password_changed",
    target: row.id,
    ip: origin.ip,
  });
}
