import { routes } from "@gradecast/contract/routes/index";
import { recordImportLimits, recordMessages } from "@gradecast/contract/school-record";
import type { FastifyInstance } from "fastify";
import { classFirst } from "../classes/class-first.ts";
import { acceptFileBody } from "../http/file-body.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { classRecord, importRecordFile, recordHistory, setRecordCell } from "./service.ts";

// The gradebook (issue 29): a class's school record. The access hook has checked role and
// verified email; the class policy checks the relationship once per request (a write's before
// its body is read, so a caller who does not reach the class learns only that: 404).

export async function recordRoutes(app: FastifyInstance, services: Services) {
  const recordFirst = classFirst(services, "record");

  serve(app, routes.record.get, async (request) => {
    return classRecord(services, actorOf(request), request.params.id);
  });

  serve(app, routes.record.history, async (request) => {
    return recordHistory(services, actorOf(request), request.params.id, request.params.uid);
  });

  serve(
    app,
    routes.record.setCell,
    { preValidation: recordFirst.preValidation },
    async (request) => {
      return setRecordCell(
        services,
        actorOf(request),
        recordFirst.checked(request),
        request.params.uid,
        request.body,
      );
    },
  );

  // Import files arrive as the CSV bytes themselves (Content-Type: text/csv), read here only.
  await app.register(async (files) => {
    acceptFileBody(files, "text/csv", recordImportLimits.bytes, recordMessages.importTooLarge);
    // Twenty files a minute: a teacher fixing lines and uploading again stays far below it.
    const uploads = perAccount(services, "record-import", 20, 60_000);
    serve(
      files,
      routes.record.importRecord,
      { config: { ...uploads }, preValidation: recordFirst.preValidation },
      async (request) => {
        return importRecordFile(
          services,
          actorOf(request),
          recordFirst.checked(request),
          request.body,
          request.query.dryRun === "true",
        );
      },
    );
  });
}
