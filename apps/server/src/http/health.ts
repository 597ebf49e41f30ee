import type { FastifyInstance } from "fastify";
import type { Services } from "../services.ts";

export async function healthRoutes(app: FastifyInstance, services: Services) {
  app.get("/api/health", { config: { access: "GET /api/health" } }, async (_request, reply) => {
    const dbOk = await withTimeout(services.database.ping(), 2_000);
    return reply.code(dbOk ? 200 : 503).send({
      status: dbOk ? "ok" : "degraded",
      db: dbOk ? "ok" : "unavailable",
      dialect: services.database.kind,
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
