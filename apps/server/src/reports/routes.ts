import { Readable } from "node:stream";
import { messages } from "@gradecast/contract/messages";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { csvFormatOf } from "../csv/csv.ts";
import { limited } from "../domain-errors.ts";
import { dayOf, sendAttachment } from "../http/attachment.ts";
import { localeOf } from "../http/locale.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import {
  createReport,
  editReport,
  exportCsv,
  getReport,
  listPage,
  listQuery,
  removeReport,
  viewerOf,
} from "./service.ts";

// Student reports (issue 4): teachers and admins file, list, search, open and export them; the
// author or an admin edits and deletes. The access hook has checked the role before each handler;
// the service scopes a teacher to their own reports and their classes' (issue 17).

const exportLimit = 2;

export async function reportRoutes(app: FastifyInstance, services: Services) {
  // An export reads every matching report. At most two run at once on an instance, others are
  // told to come back: on PGlite every batch runs in this process, and twenty exports of 30,000
  // reports at once held every other call, health included, for 10 to 18 s (measured).
  let exporting = 0;

  // Five a second: far above any teacher's pace, it keeps a script from flooding the table.
  const filing = perAccount(services, "reports", 300, 60_000);
  serve(app, routes.reports.create, { config: { ...filing } }, async (request, reply) => {
    const report = await createReport(services, actorOf(request), request.body);
    return reply.code(201).send({ report });
  });

  serve(app, routes.reports.list, async (request) => {
    return listPage(services, actorOf(request).user, listQuery(request.query));
  });

  serve(app, routes.reports.exportCsv, async (request, reply) => {
    const { search, sort } = listQuery(request.query);
    if (exporting >= exportLimit) {
      throw limited(5_000, messages.exportBusy);
    }
    exporting++;
    const csv = Readable.from(
      exportCsv(
        services,
        { search, sort, viewerId: viewerOf(actorOf(request).user) },
        undefined,
        csvFormatOf(localeOf(request)),
      ),
    );
    // Ended, failed or cut off by the client: the slot is free again.
    csv.once("close", () => {
      exporting--;
    });
    // The documented body is the CSV text; it is streamed, never serialized.
    return sendAttachment(reply, `student-reports-${dayOf(services.now())}.csv`, csv);
  });

  serve(app, routes.reports.get, async (request) => {
    return { report: await getReport(services, actorOf(request).user, request.params.id) };
  });

  serve(app, routes.reports.update, async (request) => ({
    report: await editReport(services, actorOf(request), request.params.id, request.body),
  }));

  serve(app, routes.reports.remove, async (request, reply) => {
    await removeReport(services, actorOf(request), request.params.id);
    return reply.code(204).send();
  });
}
