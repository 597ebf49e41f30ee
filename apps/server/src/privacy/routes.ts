import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../auth/service.ts";
import { csvFormatOf } from "../csv/csv.ts";
import { sendAttachment } from "../http/attachment.ts";
import { localeOf } from "../http/locale.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { exportMine } from "./export.ts";
import {
  cancelDeletionOf,
  dataProtection,
  privacyNotice,
  queuePurge,
  requestDeletionOf,
  requestOwnDeletion,
  updateDataProtection,
} from "./service.ts";

// Issue 31: the privacy notice, a person's export and deletion, and the admin's data protection
// page (docs/decisions/0021-data-rights.md). The access hook checks who may call; deletions also
// need a re-authentication within the last minutes (auth/reauth.ts).
export async function privacyRoutes(app: FastifyInstance, auth: AuthContext) {
  const { services } = auth;

  serve(app, routes.privacy.notice, async (request) => {
    // Follows the retention settings: read again each time; in the caller's language.
    return privacyNotice(services, localeOf(request));
  });

  // A whole history in one answer: five an hour per account.
  serve(
    app,
    routes.privacy.exportMine,
    { config: { ...perAccount(services, "export", 5, 60 * 60_000) } },
    async (request, reply) => {
      const { zip, fileName } = await exportMine(
        services,
        actorOf(request),
        csvFormatOf(localeOf(request)),
      );
      return sendAttachment(reply, fileName, Buffer.from(zip), "application/zip");
    },
  );

  serve(app, routes.privacy.deleteMine, async (request, reply) => {
    return reply.code(202).send(await requestOwnDeletion(auth, actorOf(request)));
  });

  serve(app, routes.privacy.dataProtection, async () => {
    return dataProtection(services);
  });

  serve(app, routes.privacy.updateDataProtection, async (request) => {
    return updateDataProtection(services, actorOf(request), request.body);
  });

  serve(app, routes.privacy.purge, async (request, reply) => {
    return reply
      .code(202)
      .send(await queuePurge(services, actorOf(request), request.body.category));
  });

  serve(app, routes.privacy.deleteUser, async (request, reply) => {
    const answer = await requestDeletionOf(
      auth,
      actorOf(request),
      request.params.uid,
      request.body.reason,
    );
    return reply.code(202).send(answer);
  });

  serve(app, routes.privacy.cancelUserDeletion, async (request, reply) => {
    await cancelDeletionOf(services, actorOf(request), request.params.uid);
    return reply.code(204).send();
  });
}
