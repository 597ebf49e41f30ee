import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { allQuestionnaires, myQuestionnaires, saveQuestionnaire } from "./service.ts";

// The student questionnaire (issue 6). The access hook has let only students and admins in;
// /mine is each caller's own records (scope "own" in the contract's table); admins alone read
// everyone's through GET /api/students.

export async function studentRoutes(app: FastifyInstance, services: Services) {
  const perUser = perAccount(services, "students", 30, 60_000);

  serve(app, routes.students.save, { config: { ...perUser } }, async (request, reply) => {
    const student = await saveQuestionnaire(services, actorOf(request).user, request.body);
    return reply.code(201).send({ student });
  });

  serve(app, routes.students.mine, async (request) => {
    return { items: await myQuestionnaires(services, actorOf(request).user) };
  });

  serve(app, routes.students.list, async (request) => {
    return { items: await allQuestionnaires(services, request.query) };
  });
}
