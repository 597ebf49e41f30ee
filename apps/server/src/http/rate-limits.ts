import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Services } from "../services.ts";
import { tooManyRequests } from "./errors.ts";

// Route rate limits (429 with Retry-After, counted in Redis when REDIS_URL is set), listed in
// docs/operations.md. RATE_LIMITS=off turns them off, for benchmarks only.

export const hour = 60 * 60 * 1000;

/** A route's limit: at most `max` calls in `timeWindow` ms per value of `key`. */
export function routeLimit(
  services: Services,
  name: string,
  max: number,
  timeWindow: number,
  key: (request: FastifyRequest) => string,
) {
  if (!services.config.rateLimits) return {};
  return {
    rateLimit: {
      max,
      timeWindow,
      // After the access hook, so that the signed-in account is known.
      hook: "preHandler" as const,
      keyGenerator: (request: FastifyRequest) => `${name}:${key(request)}`,
    },
  };
}

/** A route's limit per signed-in account (per client address for anyone else). */
export function perAccount(services: Services, name: string, max: number, timeWindow: number) {
  return routeLimit(services, name, max, timeWindow, (r) => r.user?.id ?? r.ip);
}

/**
 * A second limit per client address, beside a route's own (the plugin runs one route limit per
 * request, so this one is called by hand): guesses or reset emails spread over many accounts
 * from one address. `counts` says which answers use up the allowance, so that pupils signing in
 * from behind one school address use none of it when their passwords are right.
 */
export function addressLimit(
  app: FastifyInstance,
  services: Services,
  name: string,
  max: number,
  timeWindow: number,
  counts: (error: unknown) => boolean = () => true,
) {
  const check = services.config.rateLimits
    ? app.createRateLimit({ max, timeWindow, keyGenerator: (r) => `${name}:${r.ip}` })
    : undefined;
  return async <T>(request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>) => {
    if (!check) return work();
    const status = await check(request, { increment: false });
    if (!status.isAllowed && status.remaining === 0) {
      reply.header("retry-after", String(Math.max(1, status.ttlInSeconds)));
      throw tooManyRequests();
    }
    try {
      const result = await work();
      if (counts(undefined)) await check(request);
      return result;
    } catch (error) {
      if (counts(error)) await check(request);
      throw error;
    }
  };
}
