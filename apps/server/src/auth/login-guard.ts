import type { FastifyRequest } from "fastify";
import { guarded, type Hold, hour } from "../limits/guarded.ts";
import { cookieName, deviceCookie } from "./cookies.ts";
import { deviceNonce } from "./device-cookie.ts";
import { type AuthContext, isInvalidCredentials } from "./service.ts";
import { sha256 } from "./tokens.ts";

// Failed sign-ins, counted before the password is checked (so parallel guesses cannot all slip
// under a limit) and taken back when the password was right:
// - per account, from any number of addresses: 10 in 15 minutes, then 429 with a wait that
//   doubles with each further try, up to an hour;
// - per client address, high enough for a whole school behind one address;
// - a browser holding the account's device cookie (device-cookie.ts) is held by neither: its own
//   wrong tries are counted per cookie, so a guesser cannot lock the owner out.
export const loginLimits = {
  windowMs: 15 * 60_000,
  account: 10,
  address: 500,
  device: 10,
  maxWindowMs: hour,
} as const;

export function createLoginGuard(ctx: AuthContext) {
  const { services } = ctx;
  return async <T>(request: FastifyRequest, email: string, work: () => Promise<T>): Promise<T> => {
    if (!services.config.rateLimits) return work();
    const cookie = request.cookies[cookieName(services, deviceCookie)];
    const nonce = await deviceNonce(ctx.keys, cookie, email, services.now());
    const { windowMs } = loginLimits;
    const holds: Hold[] = nonce
      ? [{ key: `login-device:${nonce}`, max: loginLimits.device, options: { windowMs } }]
      : [
          { key: `login-address:${request.ip}`, max: loginLimits.address, options: { windowMs } },
          ...(email
            ? [
                {
                  key: `login-account:${sha256(email)}`,
                  max: loginLimits.account,
                  options: {
                    windowMs,
                    backoffAfter: loginLimits.account,
                    maxWindowMs: loginLimits.maxWindowMs,
                  },
                },
              ]
            : []),
        ];
    return guarded(services, holds, isInvalidCredentials, work);
  };
}
