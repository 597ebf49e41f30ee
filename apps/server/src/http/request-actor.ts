import type { FastifyRequest } from "fastify";
import type { Actor } from "../auth/actor.ts";
import { unauthenticated } from "../domain-errors.ts";

/**
 * The signed-in caller of a route the access hook let through, as the services take it: the one
 * way handlers name their caller (`actorOf(request).user` for the account alone).
 */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.user) throw unauthenticated();
  return { user: request.user, ip: request.ip ?? null };
}
