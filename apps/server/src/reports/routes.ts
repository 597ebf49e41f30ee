import { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../http/errors.ts";
import { perAccount } from "../http/rate-limits.ts";
import type { Services } from "../services.ts";
import {
  type Actor,
  createReport,
  editReport,
  exportCsv,
  getReport,
  listPage,
  parseListQuery,
  removeReport,
} from "./service.ts";

// Student reports (issue 4): teachers and admins file, list, search, open and export them; the
// author or an admin edits and deletes. The access hook has checked the role before each handler.

function actorOf(request: FastifyRequest): Actor {
  return { user: request.user!, ip: request.ip ?? null };
}

type IdParams = { Params: { id: string } };

const exportLimit = 2;
export const exportBusyMessage = "Other exports are being prepared. Try again in a few seconds.";

export async function reportRoutes(app: FastifyInstance, services: Services) {
  // An export reads every matching report. At most two run at once on an instance, others are
  // told to come back: on PGlite every batch runs in this process, and twenty exports of 30,000
  // reports at once held every other call, health included, for 10 to 18 s (measured).
  let exporting = 0;

  // Five a second: far above any teacher's pace, it keeps a script from flooding the table.
  const filing = perAccount(services, "reports", 300, 60_000);
  app.post(
    "/api/reports",
    { config: { access: "POST /api/reports", ...filing } },
    async (request, reply) => {
      const report = await createReport(services, actorOf(request), request.body);
      return reply.code(201).send({ report });
    },
  );

  app.get("/api/reports", { config: { access: "GET /api/reports" } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return listPage(services, parseListQuery(request.query));
  });

  app.get(
    "/api/reports/export.csv",
    { config: { access: "GET /api/reports/export.csv" } },
    async (request, reply) => {
      const { search, sort } = parseListQuery(request.query);
      if (exporting >= exportLimit) {
        reply.header("retry-after", "5");
        throw new AppError(429, "rate_limited", exportBusyMessage);
      }
      const day = services.now().toISOString().slice(0, 10);
      reply
        .header("cache-control", "no-store")
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="student-reports-${day}.csv"`);
      exporting++;
      const csv = Readable.from(exportCsv(services, { search, sort }));
      // Ended, failed or cut off by the client: the slot is free again.
      csv.once("close", () => {
        exporting--;
      });
      return reply.send(csv);
    },
  );

  app.get<IdParams>(
    "/api/reports/:id",
    { config: { access: "GET /api/reports/:id" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { report: await getReport(services, request.params.id) };
    },
  );

  app.patch<IdParams>(
    "/api/reports/:id",
    { config: { access: "PATCH /api/reports/:id" } },
    async (request) => ({
      report: await editReport(services, actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete<IdParams>(
    "/api/reports/:id",
    { config: { access: "DELETE /api/reports/:id" } },
    async (request, reply) => {
      await removeReport(services, actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
