import type { FastifyRequest } from "fastify";
import { guarded, type Hold, hour } from "../limits/guarded.ts";
import type { Services } from "../services.ts";
import { isUnknownJoinCode } from "./service.ts";

// Wrong join codes, counted before the code is looked up (so parallel guesses cannot all slip
// under the limit) and taken back when the code was right or not a guess at all:
// - per account: 10 in 15 minutes, then each further try doubles the wait, up to an hour;
// - per client address: 200 an hour, enough for a whole school behind one address mistyping.
// 31^8 codes and these limits put a guesser years away from any class.
export const joinLimits = {
  windowMs: 15 * 60_000,
  account: 10,
  address: 200,
  addressWindowMs: hour,
  maxWindowMs: hour,
} as const;

export function createJoinGuard(services: Services) {
  return async <T>(request: FastifyRequest, work: () => Promise<T>) => {
    if (!services.config.rateLimits) return work();
    const holds: Hold[] = [
      {
        key: `join-account:${request.user?.id ?? request.ip}`,
        max: joinLimits.account,
        options: {
          windowMs: joinLimits.windowMs,
          backoffAfter: joinLimits.account,
          maxWindowMs: joinLimits.maxWindowMs,
        },
      },
      {
        key: `join-address:${request.ip}`,
        max: joinLimits.address,
        options: { windowMs: joinLimits.addressWindowMs },
      },
    ];
    return guarded(services, holds, isUnknownJoinCode, work);
  };
}
