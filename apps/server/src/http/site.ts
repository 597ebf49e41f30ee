import { routes } from "@gradecast/contract/routes/index";
import type { SiteInfo } from "@gradecast/contract/site";
import type { FastifyInstance } from "fastify";
import type { Services } from "../services.ts";
import { serve } from "./route-schemas.ts";

// GET /api/site: what the public pages show about this installation (its name, its contact
// address; null when the school has not set them), and the questions a student may leave out.
// The same for every caller and fixed until a restart, so browsers may keep it a few minutes.
export async function siteRoutes(app: FastifyInstance, services: Services) {
  const info: SiteInfo = {
    contactEmail: services.config.contactEmail ?? null,
    schoolName: services.config.schoolName ?? null,
    optionalQuestions: [...services.config.optionalQuestions],
  };
  serve(app, routes.site.site, async (_request, reply) => {
    reply.header("cache-control", "public, max-age=300");
    return info;
  });
}
