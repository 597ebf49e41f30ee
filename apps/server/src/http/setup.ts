import { routes } from "@gradecast/contract/routes/index";
import type { SetupState } from "@gradecast/contract/site";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { Services } from "../services.ts";
import { serve } from "./route-schemas.ts";

// GET /api/setup (issue 28): whether the installation has an active admin yet. A fresh install
// has none, and the first teacher would wait for an approval nobody can give: the login page
// and the start-up banner say to run `npm run admin:create` until one exists.

/** Whether an admin who can sign in exists. */
export async function adminExists(db: Kysely<DB>): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .where("disabled", "=", false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setupRoutes(app: FastifyInstance, services: Services) {
  // Once an admin exists the answer stays true (the last active admin cannot be demoted or
  // disabled), so the query stops then; until then each call asks, because on PostgreSQL
  // `admin:create` may run beside the server.
  let known = false;
  serve(app, routes.site.setup, async (_request, reply): Promise<SetupState> => {
    if (!known) known = await adminExists(services.db);
    reply.header("cache-control", "no-store");
    return {
      adminExists: known,
      teacherSignup: services.config.teacherSignup,
      oidcName: services.config.oidc?.name ?? null,
      legalBasis: services.config.legalBasis,
    };
  });
}
