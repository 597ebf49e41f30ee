import { randomBytes } from "node:crypto";
import {
  type mfaConfirmSchema,
  recoveryCodeCount,
  securityMessages,
} from "@gradecast/contract/account-security";
import { Secret, TOTP } from "otpauth";
import type { z } from "zod";
import { audit, auditOwn } from "../audit/audit.ts";
import type { UserRow } from "../db/schema.ts";
import * as users from "../db/users.ts";
import { conflict, hasCode, invalid, unauthenticated } from "../domain-errors.ts";
import { guarded, hour } from "../limits/guarded.ts";
import type { AuthContext } from "./context.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import * as q from "./queries.ts";
import { createSecretBox, type SecretBox } from "./secret-box.ts";
import { readNote, signNote } from "./signed-notes.ts";
import { type SigningKeys, sha256 } from "./tokens.ts";

// TOTP MFA (RFC 6238 through otpauth: SHA-1, 6 digits, 30 seconds, the settings every
// authenticator app reads) with ten single-use recovery codes. Required for admins (the access
// hook lets an admin without it reach only enrolment), optional for everyone else.

const issuerName = "Gradecast";
/** One step either side of now: a phone's clock a little off still works. */
const window = 1;
/** Wrong codes per account, like wrong passwords (login-guard.ts): 10 in 15 minutes. */
export const codeLimits = { max: 10, windowMs: 15 * 60_000, maxWindowMs: hour } as const;
/** The time between a right password and the code. */
export const challengeMinutes = 5;
const challengeAudience = "gradecast-mfa";

const boxes = new WeakMap<SigningKeys, SecretBox>();
function box(keys: SigningKeys): SecretBox {
  let found = boxes.get(keys);
  if (!found) {
    found = createSecretBox(keys);
    boxes.set(keys, found);
  }
  return found;
}

const totpOf = (secret: Secret, label: string) =>
  new TOTP({ issuer: issuerName, label, algorithm: "SHA1", digits: 6, period: 30, secret });

export const invalidMfaCode = () =>
  unauthenticated(securityMessages.mfaInvalidCode, "invalid_code", {
    code: securityMessages.mfaInvalidCode,
  });

/** A wrong first code while setting up: no recovery code exists yet, so none is mentioned. */
const invalidEnrolmentCode = () =>
  unauthenticated(securityMessages.mfaEnrolmentInvalidCode, "invalid_code", {
    code: securityMessages.mfaEnrolmentInvalidCode,
  });

export function mfaEnabled(row: Pick<UserRow, "mfa_enabled_at">): boolean {
  return row.mfa_enabled_at !== null;
}

/** POST /api/me/mfa/totp: a new secret, kept (encrypted) until a code from it confirms it. */
export async function startTotp(ctx: AuthContext, userId: string) {
  const row = await users.findUserById(ctx.services.db, userId);
  if (!row) throw unauthenticated(securityMessages.mfaNotStarted);
  if (mfaEnabled(row)) throw conflict(securityMessages.mfaAlreadyOn);
  const secret = new Secret({ size: 20 });
  await q.setMfaPending(ctx.services.db, userId, box(ctx.keys).seal(secret.base32));
  return { secret: secret.base32, otpauthUrl: totpOf(secret, row.email).toString() };
}

function newRecoveryCode(): string {
  // 10 characters of base32 (50 bits), shown as two groups of five.
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

// A code as typed, in capitals or without its dash, is the same code.
const normalised = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");
/** A code's id: its first two characters, stored in clear to find its row (issue 26). */
const recoveryCodeId = (code: string) => normalised(code).slice(0, 2);
/** How codes were stored before migration 0018 (SHA-256, no id); still accepted once each. */
const legacyRecoveryHash = (userId: string, code: string) =>
  sha256(`recovery:${userId}:${normalised(code)}`);

/**
 * Ten new codes with ten different ids, each stored as an argon2id hash of the whole code (the
 * id takes 10 of its 50 bits: 40 are left to an offline guesser, at an argon2id each).
 */
async function newRecoveryCodes(): Promise<{
  codes: string[];
  stored: { codeId: string; codeHash: string }[];
}> {
  const byId = new Map<string, string>();
  while (byId.size < recoveryCodeCount) {
    const code = newRecoveryCode();
    if (!byId.has(recoveryCodeId(code))) byId.set(recoveryCodeId(code), code);
  }
  const codes = [...byId.values()];
  const hashes = await Promise.all(codes.map((code) => hashPassword(normalised(code))));
  return {
    codes,
    stored: codes.map((code, i) => ({ codeId: recoveryCodeId(code), codeHash: hashes[i] ?? "" })),
  };
}

/**
 * Uses up the unused recovery code of a user that `code` is, if any. One argon2id check for a
 * code of this release (one row per id), plus a SHA-256 for each code stored before.
 */
async function useRecoveryCode(ctx: AuthContext, userId: string, code: string) {
  const { services } = ctx;
  if (!/^[a-z0-9]{10}$/.test(normalised(code))) return false;
  const candidates = await q.recoveryCodeCandidates(services.db, userId, recoveryCodeId(code));
  for (const row of candidates) {
    const right =
      row.code_id === null
        ? row.code_hash === legacyRecoveryHash(userId, code)
        : await verifyPassword(row.code_hash, normalised(code));
    if (right) return q.useRecoveryCode(services.db, row.id, services.now());
  }
  return false;
}

/** POST /api/me/mfa/totp/confirm: the first right code turns MFA on; the codes are shown once. */
export async function confirmTotp(
  ctx: AuthContext,
  userId: string,
  ip: string | null,
  { code }: z.output<typeof mfaConfirmSchema>,
): Promise<{ recoveryCodes: string[] }> {
  const { services } = ctx;
  const row = await users.findUserById(services.db, userId);
  if (!row) throw unauthenticated(securityMessages.mfaNotStarted);
  if (mfaEnabled(row)) throw conflict(securityMessages.mfaAlreadyOn);
  const plain = row.mfa_pending_secret ? box(ctx.keys).open(row.mfa_pending_secret) : undefined;
  if (!plain) throw invalid(securityMessages.mfaNotStarted);
  const recoveryCodes = await countCodeTry(ctx, userId, async () => {
    const step = matchingStep(plain, code, services.now());
    if (step === undefined) throw invalidEnrolmentCode();
    const { codes, stored } = await newRecoveryCodes();
    const done = await q.enableMfa(services.db, userId, {
      secret: row.mfa_pending_secret as string,
      step,
      now: services.now(),
      recoveryCodes: stored,
    });
    if (!done) throw conflict(securityMessages.mfaAlreadyOn);
    services.database.usersChanged();
    return codes;
  });
  await auditOwn(services.db, row, "auth.mfa_enabled", ip);
  return { recoveryCodes };
}

function matchingStep(base32: string, code: string, now: Date): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const secret = Secret.fromBase32(base32);
  const timestamp = now.getTime();
  const delta = TOTP.validate({ token: code, secret, period: 30, digits: 6, timestamp, window });
  if (delta === null) return undefined;
  return TOTP.counter({ period: 30, timestamp }) + delta;
}

/** Wrong codes are counted per account before the check, so parallel guesses cannot slip by. */
async function countCodeTry<T>(ctx: AuthContext, userId: string, work: () => Promise<T>) {
  const { services } = ctx;
  if (!services.config.rateLimits) return work();
  const hold = {
    key: `mfa-account:${userId}`,
    max: codeLimits.max,
    options: {
      windowMs: codeLimits.windowMs,
      backoffAfter: codeLimits.max,
      maxWindowMs: codeLimits.maxWindowMs,
    },
  };
  const wrongCode = (error: unknown) => hasCode(error, "invalid_code");
  return guarded(services, [hold], wrongCode, work);
}

/**
 * Checks a second factor of an enrolled user: a TOTP code (each 30-second step once) or an
 * unused recovery code (then used up). Throws invalid_code or rate_limited.
 */
export async function checkSecondFactor(
  ctx: AuthContext,
  row: UserRow,
  code: string,
): Promise<"totp" | "recovery"> {
  const { services } = ctx;
  return countCodeTry(ctx, row.id, async () => {
    const trimmed = code.trim();
    if (/^[0-9]{6}$/.test(trimmed)) {
      const plain = row.mfa_secret ? box(ctx.keys).open(row.mfa_secret) : undefined;
      const step = plain ? matchingStep(plain, trimmed, services.now()) : undefined;
      if (step === undefined || !(await q.useTotpStep(services.db, row.id, step))) {
        throw invalidMfaCode();
      }
      return "totp" as const;
    }
    if (await useRecoveryCode(ctx, row.id, trimmed)) return "recovery" as const;
    throw invalidMfaCode();
  });
}

/**
 * Between a right password (or a sign-in at the school's provider) and the code: a signed,
 * 5-minute note naming the user and how the first step was made ("password" or "oidc:<name>").
 */
export async function signChallenge(
  keys: SigningKeys,
  userId: string,
  now: Date,
  via = "password",
) {
  return signNote(
    keys,
    challengeAudience,
    { subject: userId, seconds: challengeMinutes * 60, claims: { via } },
    now,
  );
}

export async function challengeUser(
  keys: SigningKeys,
  challenge: string,
  now: Date,
): Promise<{ userId: string; via: string }> {
  const payload = await readNote(keys, challenge, challengeAudience, now);
  if (typeof payload?.sub === "string") {
    return { userId: payload.sub, via: typeof payload.via === "string" ? payload.via : "password" };
  }
  throw unauthenticated(securityMessages.mfaChallengeExpired);
}

export async function mfaStatus(ctx: AuthContext, userId: string) {
  const row = await users.findUserById(ctx.services.db, userId);
  if (!row) throw unauthenticated(securityMessages.mfaNotOn);
  return {
    enabled: mfaEnabled(row),
    required: row.role === "admin",
    recoveryCodesLeft: mfaEnabled(row) ? await q.countRecoveryCodes(ctx.services.db, row.id) : 0,
  };
}

/** Turns MFA off (the caller re-authenticated: reauth.ts); audited with who did it. */
export async function turnOffMfa(
  ctx: AuthContext,
  actor: { id: string; email: string; ip: string | null },
  userId: string,
  action: "auth.mfa_disabled" | "admin.mfa_reset",
): Promise<boolean> {
  const { services } = ctx;
  const row = await q.disableMfa(services.db, userId, services.now());
  if (!row) return false;
  services.database.usersChanged();
  await audit(services.db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    target: userId,
    details: { email: row.email },
    ip: actor.ip,
  });
  return true;
}
