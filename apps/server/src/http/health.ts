import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import type { Services } from "../services.ts";
import { serve } from "./route-schemas.ts";

export async function healthRoutes(app: FastifyInstance, services: Services) {
  serve(app, routes.site.health, async (_request, reply) => {
    const dbOk = await withTimeout(services.database.ping(), 2_000);
    // The model is loaded (and its artifact validated) before the server listens; its version
    // tells which artifact answers predictions.
    const model = services.model;
    const modelOk = typeof model.version === "string" && model.features.length > 0;
    const ok = dbOk && modelOk;
    return reply.code(ok ? 200 : 503).send({
      status: ok ? "ok" : "degraded",
      db: dbOk ? "ok" : "unavailable",
      dialect: services.database.kind,
      model: modelOk ? "ok" : "unavailable",
      modelVersion: model.version ?? null,
    });
  });
}

async function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
