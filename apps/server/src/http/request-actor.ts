import type { FastifyRequest } from "fastify";
import type { Actor } from "../auth/actor.ts";

/** The signed-in caller of a route the access hook let through, as the services take it. */
export function actorOf(request: FastifyRequest): Actor {
  return { user: request.user!, ip: request.ip ?? null };
}
