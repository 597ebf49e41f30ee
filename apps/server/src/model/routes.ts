import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { pseudonymOf } from "../evaluation/pseudonym.ts";
import { dayOf, sendAttachment } from "../http/attachment.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { modelState, outcomesExport, requestTraining, switchVersion } from "./service.ts";

// The model's versions (issue 30), for admins only: the access hook has refused every other
// caller before these handlers run. Promotion and rollback need a recent sign-in or
// re-authentication, as other sensitive admin calls do.
export async function modelRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;

  serve(app, routes.model.state, async (request) => {
    return modelState(services, actorOf(request));
  });

  serve(app, routes.model.train, async (request, reply) => {
    const job = await requestTraining(services, actorOf(request));
    return reply.code(202).send({ job });
  });

  serve(app, routes.model.promote, async (request) => {
    await requireRecentAuth(ctx, actorOf(request).user);
    return switchVersion(services, actorOf(request), request.body.version, "promote");
  });

  serve(app, routes.model.rollback, async (request) => {
    await requireRecentAuth(ctx, actorOf(request).user);
    return switchVersion(services, actorOf(request), request.body.version, "rollback");
  });

  serve(app, routes.model.outcomes, async (request, reply) => {
    const csv = await outcomesExport(services, actorOf(request), (id) => pseudonymOf(ctx.keys, id));
    return sendAttachment(reply, `outcomes-${dayOf(services.now())}.csv`, csv);
  });
}
