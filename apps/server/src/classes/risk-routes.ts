import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { csvFormatOf } from "../csv/csv.ts";
import { dayOf, sendAttachment } from "../http/attachment.ts";
import { localeOf } from "../http/locale.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { classFirst } from "./class-first.ts";
import { addNote, classRisk, classRiskCsv, mySharing, setSharing } from "./risk-service.ts";

// The class risk list (issue 20): the list and its CSV, intervention notes, and a student's
// choice to share their full explanation. Requests are validated by the route schemas
// (the contract's route entries); the access hook has checked role and verified email; the class
// policy (policy.ts) checks the relationship, once per request.

/** A class name as a file name: letters, digits and dashes only. */
const fileSafe = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "class";

export async function classRiskRoutes(app: FastifyInstance, services: Services) {
  // Notes are written by the class's teachers: checked before the body is read, then handed on.
  const noteFirst = classFirst(services, "note");

  serve(app, routes.classes.risk, async (request) => {
    return classRisk(services, actorOf(request), request.params.id);
  });

  serve(app, routes.classes.riskCsv, async (request, reply) => {
    const { csv, name } = await classRiskCsv(
      services,
      actorOf(request),
      request.params.id,
      csvFormatOf(localeOf(request)),
    );
    return sendAttachment(reply, `risk-${fileSafe(name)}-${dayOf(services.now())}.csv`, csv);
  });

  serve(
    app,
    routes.classes.addNote,
    {
      // A caller who does not reach the class learns that (404) before anything about the body.
      preValidation: noteFirst.preValidation,
    },
    async (request, reply) => {
      const note = await addNote(
        services,
        actorOf(request),
        noteFirst.checked(request),
        request.params.uid,
        request.body,
      );
      return reply.code(201).send({ note });
    },
  );

  serve(app, routes.classes.sharing, async (request) => {
    return mySharing(services, actorOf(request));
  });

  serve(app, routes.classes.updateSharing, async (request) => {
    return setSharing(services, actorOf(request), request.body);
  });
}
