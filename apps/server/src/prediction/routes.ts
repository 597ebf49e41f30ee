import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { allPredictions, myPredictions, predict } from "./service.ts";

// The grade prediction (issue 6): any signed-in user may predict; `?store=false` is the
// what-if mode that answers without storing. The history is the caller's own; admins alone read
// everyone's through GET /api/predictions.

export async function predictionRoutes(app: FastifyInstance, services: Services) {
  const perUser = perAccount(services, "predict", 120, 60_000);

  serve(app, routes.predictions.predict, { config: { ...perUser } }, async (request) => {
    return predict(services, actorOf(request).user, request.body, request.query.store !== "false");
  });

  serve(app, routes.predictions.mine, async (request) => {
    return myPredictions(services, actorOf(request).user);
  });

  serve(app, routes.predictions.list, async (request) => {
    return { items: await allPredictions(services, request.query) };
  });
}
