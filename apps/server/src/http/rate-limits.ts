import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";

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
