import { oneRosterLimits, oneRosterMessages } from "@gradecast/contract/oneroster";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { tooLarge } from "../domain-errors.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { importOneRoster } from "./service.ts";

// OneRoster imports (issue 34), admins only: the access hook has refused anybody else. The
// bundle arrives as the ZIP's bytes (Content-Type: application/zip), up to 50 MB on this route
// alone. Applying one makes accounts teachers: like approving a teacher, it needs a sign-in or a
// re-authentication in the last 10 minutes (the preview does not).
export async function oneRosterRoutes(app: FastifyInstance, ctx: AuthContext) {
  await app.register(async (files) => {
    files.addContentTypeParser(
      "application/zip",
      { parseAs: "buffer", bodyLimit: oneRosterLimits.bytes },
      (_request, body, done) => done(null, body),
    );
    files.setErrorHandler((error) => {
      const e = error as { code?: string };
      if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw tooLarge(oneRosterMessages.tooLarge);
      throw error;
    });
    serve(files, routes.oneroster.importBundle, async (request) => {
      const dryRun = request.query.dryRun === "true";
      if (!dryRun) await requireRecentAuth(ctx, actorOf(request).user);
      return importOneRoster(
        ctx.services,
        actorOf(request),
        request.body,
        request.query.mode ?? "bulk",
        dryRun,
      );
    });
  });
}
