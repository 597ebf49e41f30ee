import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { jobStatus } from "./service.ts";

// A background job's progress (GET /api/jobs/:id): its creator or an admin; 404 for anyone else.
export async function jobStatusRoutes(app: FastifyInstance, services: Services) {
  serve(app, routes.jobs.get, async (request) => {
    // Progress changes from one call to the next: never kept by a cache.
    return jobStatus(services, actorOf(request), request.params.id);
  });
}
