import type { FastifyInstance } from "fastify";
import { perAccount } from "../http/rate-limits.ts";
import type { Services } from "../services.ts";
import { allPredictions, myPredictions, parseStore, predict } from "./service.ts";

// The grade prediction (issue 6): any signed-in user may predict; `?store=false` is the
// what-if mode that answers without storing. The history is the caller's own; admins alone read
// everyone's through GET /api/predictions.

export async function predictionRoutes(app: FastifyInstance, services: Services) {
  const perUser = perAccount(services, "predict", 120, 60_000);

  app.post(
    "/api/predict",
    { config: { access: "POST /api/predict", ...perUser } },
    async (request) => {
      const store = parseStore(request.query);
      return predict(services, request.user!, request.body, store);
    },
  );

  app.get(
    "/api/predictions/mine",
    { config: { access: "GET /api/predictions/mine" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return myPredictions(services, request.user!);
    },
  );

  app.get(
    "/api/predictions",
    { config: { access: "GET /api/predictions" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { items: await allPredictions(services, request.query) };
    },
  );
}
