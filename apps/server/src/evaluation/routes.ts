import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../auth/service.ts";
import { csvFormatOf } from "../csv/csv.ts";
import { dayOf, sendAttachment } from "../http/attachment.ts";
import { localeOf } from "../http/locale.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { pseudonymOf } from "./pseudonym.ts";
import { evaluation, evaluationCsv } from "./service.ts";

// How the model did for this school (issue 29): the page's figures and the CSV export. The
// access hook lets verified staff through; the service narrows to the caller's classes and the
// class policy answers 404 for a class that is not theirs.
export async function evaluationRoutes(app: FastifyInstance, auth: AuthContext) {
  const { services } = auth;

  serve(app, routes.evaluation.get, async (request) => {
    return evaluation(services, actorOf(request), request.query.classId);
  });

  serve(app, routes.evaluation.csv, async (request, reply) => {
    const csv = await evaluationCsv(
      services,
      actorOf(request),
      request.query.classId,
      (id) => pseudonymOf(auth.keys, id),
      csvFormatOf(localeOf(request)),
    );
    return sendAttachment(reply, `evaluation-${dayOf(services.now())}.csv`, csv);
  });
}
