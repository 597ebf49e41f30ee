import type { FastifyRequest } from "fastify";
import { limited } from "../domain-errors.ts";
import type { Services } from "../services.ts";

// Route rate limits (429 with Retry-After, counted in Redis when REDIS_URL is set), listed in
// docs/operations.md. RATE_LIMITS=off turns them off, for benchmarks only.

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
      // After the access hook, so that the signed-in account is known, and before the body is
      // checked against the route's schema, so that a refused body counts as a try too.
      hook: "preValidation" as const,
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
 * from one address. The attempt is counted before the work, in one atomic step, and taken back
 * when `counts` says its answer uses none of the allowance (pupils signing in from behind one
 * school address use none of it when their passwords are right).
 */
export function addressLimit(
  services: Services,
  name: string,
  max: number,
  windowMs: number,
  counts: (error: unknown) => boolean = () => true,
) {
  return async <T>(request: FastifyRequest, work: () => Promise<T>) => {
    if (!services.config.rateLimits) return work();
    const key = `${name}:${request.ip}`;
    const hit = await services.attempts.hit(key, { windowMs });
    if (hit.count > max) throw limited(hit.ttlMs);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (!counts(error)) await services.attempts.undo(key);
      throw error;
    }
    if (!counts(undefined)) await services.attempts.undo(key);
    return result;
  };
}
