import type { FastifyRequest } from "fastify";
import { actorOf } from "../http/request-actor.ts";
import type { Services } from "../services.ts";
import { type ClassAccess, type ClassVerb, classAccess } from "./policy.ts";

/**
 * The class check run before a route reads its body, so a caller who does not reach the class
 * learns that (404) before anything about what they sent. The handler takes the answer from
 * `checked(request)` instead of checking again: the check runs once per request.
 */
export function classFirst<V extends ClassVerb>(services: Services, verb: V) {
  const answers = new WeakMap<FastifyRequest, ClassAccess<V>>();
  return {
    preValidation: async (request: FastifyRequest) => {
      const { id } = request.params as { id: string };
      answers.set(request, await classAccess(services, actorOf(request), id, verb));
    },
    checked: (request: FastifyRequest): ClassAccess<V> => {
      const answer = answers.get(request);
      if (!answer) throw new Error("The class was not checked before this handler.");
      return answer;
    },
  };
}
