import {
  reauthMinutes,
  type reauthSchema,
  securityMessages,
} from "@gradecast/contract/account-security";
import type { z } from "zod";
import { auditOwn } from "../audit/audit.ts";
import * as users from "../db/users.ts";
import { forbidden, limited, unauthenticated } from "../domain-errors.ts";
import type { AuthUser } from "./access-hook.ts";
import { loginLimits } from "./login-guard.ts";
import { checkSecondFactor, invalidMfaCode, mfaEnabled } from "./mfa.ts";
import { verifyPassword } from "./passwords.ts";
import * as q from "./queries.ts";
import type { AuthContext } from "./service.ts";

// Re-authentication ("sudo mode", ASVS 6.4 / 7.5.1): changing one's password or turning MFA
// off, and an admin changing another account's role or MFA, need a sign-in or a
// re-authentication of this session within the last 10 minutes. Otherwise the call answers 403
// reauth_required; the web app asks for the password (and code), calls POST /api/auth/reauth,
// and retries. One confirmation covers a queue of approvals for ten minutes.

export const reauthRequired = () => forbidden(securityMessages.reauthRequired, "reauth_required");

export async function requireRecentAuth(ctx: AuthContext, user: AuthUser): Promise<void> {
  const at = await q.lastAuthenticatedAt(ctx.services.db, user.id, user.sessionId);
  const now = ctx.services.now().getTime();
  if (!at || now - at.getTime() > reauthMinutes * 60_000) throw reauthRequired();
}

/** POST /api/auth/reauth {password, code?}: 204, or 401 naming the wrong field. */
export async function reauthenticate(
  ctx: AuthContext,
  user: AuthUser,
  ip: string | null,
  input: z.output<typeof reauthSchema>,
): Promise<void> {
  const { services } = ctx;
  const row = await users.findUserById(services.db, user.id);
  if (!row) throw unauthenticated(securityMessages.wrongPassword);
  // Guessing with a stolen ID token is as slow as guessing a sign-in.
  const key = `reauth-account:${row.id}`;
  if (services.config.rateLimits) {
    const hit = await services.attempts.hit(key, {
      windowMs: loginLimits.windowMs,
      backoffAfter: loginLimits.account,
      maxWindowMs: loginLimits.maxWindowMs,
    });
    if (hit.count > loginLimits.account) throw limited(hit.ttlMs);
  }
  if (!(await verifyPassword(row.password_hash, input.password))) {
    await auditOwn(services.db, row, "auth.reauth_failed", ip);
    throw unauthenticated(securityMessages.wrongPassword, "invalid_credentials", {
      password: securityMessages.wrongPassword,
    });
  }
  if (mfaEnabled(row)) {
    if (!input.code) throw invalidMfaCode();
    await checkSecondFactor(ctx, row, input.code);
  }
  if (services.config.rateLimits) await services.attempts.undo(key);
  await q.markReauthenticated(services.db, row.id, user.sessionId, services.now());
}
