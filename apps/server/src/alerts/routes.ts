import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { classFirst } from "../classes/class-first.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import {
  classPlans,
  createPlan,
  flagSummary,
  judgeFlag,
  markRead,
  myDigest,
  myFlags,
  myNotifications,
  setMyDigest,
  unsubscribe,
  updatePlan,
} from "./service.ts";

// Early warning (issue 32): notifications and the digest setting (the caller's own), the
// unsubscribe link (no sign-in), flags and intervention plans (the class's teachers: the class
// check, verb `note`, runs before the body is read, as for intervention notes).
export async function alertRoutes(app: FastifyInstance, services: Services) {
  const teachersFirst = classFirst(services, "note");
  const first = { preValidation: teachersFirst.preValidation };

  serve(app, routes.notifications.list, async (request) => {
    return myNotifications(services, actorOf(request));
  });

  serve(app, routes.notifications.markRead, async (request) => {
    return markRead(services, actorOf(request), request.body);
  });

  serve(app, routes.notifications.digest, async (request) => {
    return myDigest(services, actorOf(request));
  });

  serve(app, routes.notifications.setDigest, async (request) => {
    return setMyDigest(services, actorOf(request), request.body.digest);
  });

  serve(app, routes.notifications.unsubscribe, async (request) => {
    return unsubscribe(services, request.body.token, request.ip ?? null);
  });

  serve(app, routes.notifications.flags, first, async (request) => {
    return myFlags(services, actorOf(request), teachersFirst.checked(request));
  });

  serve(app, routes.notifications.judgeFlag, first, async (request) => {
    return judgeFlag(
      services,
      actorOf(request),
      teachersFirst.checked(request),
      request.params.uid,
      request.body,
    );
  });

  serve(app, routes.notifications.flagSummary, async (request) => {
    return flagSummary(services, actorOf(request));
  });

  serve(app, routes.notifications.plans, first, async (request) => {
    return classPlans(services, teachersFirst.checked(request));
  });

  serve(app, routes.notifications.createPlan, first, async (request, reply) => {
    const plan = await createPlan(
      services,
      actorOf(request),
      teachersFirst.checked(request),
      request.params.uid,
      request.body,
    );
    return reply.code(201).send({ plan });
  });

  serve(app, routes.notifications.updatePlan, first, async (request) => {
    const plan = await updatePlan(
      services,
      actorOf(request),
      teachersFirst.checked(request),
      request.params.planId,
      request.body,
    );
    return { plan };
  });
}
