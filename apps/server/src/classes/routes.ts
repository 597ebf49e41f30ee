import { classMessages, rosterLimits } from "@gradecast/contract/classes";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { acceptFileBody } from "../http/file-body.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { classFirst } from "./class-first.ts";
import { createJoinGuard } from "./join-guard.ts";
import {
  acceptInvitation,
  addCoTeacher,
  cancelInvitation,
  classMembers,
  createClass,
  declineInvitation,
  disableJoinCode,
  editClass,
  getClass,
  importRoster,
  joinClass,
  leaveClass,
  listClasses,
  myInvitations,
  removeClass,
  removeCoTeacher,
  removeStudent,
  rotateJoinCode,
} from "./service.ts";

// Classes and enrolment (issue 17). The access hook has checked the role and the verified email
// before each handler; the class policy (policy.ts) checks the relationship, once per request:
// in the service, or before the body is read (`classFirst`), whose answer the handler hands on.

export async function classRoutes(app: FastifyInstance, services: Services) {
  // Requests typed by the route schemas (http/route-schemas.ts), validated before the handler.
  // A caller who does not reach the class learns that (404) before anything about the body.
  const manageFirst = classFirst(services, "manage");

  // Issue 26: class creation is limited per account (30 an hour; a school's term start stays far
  // below it).
  const creating = perAccount(services, "class-create", 30, 3_600_000);
  serve(app, routes.classes.create, { config: { ...creating } }, async (request, reply) => {
    const created = await createClass(services, actorOf(request), request.body);
    return reply.code(201).send({ class: created });
  });

  serve(app, routes.classes.list, async (request) => {
    return { items: await listClasses(services, actorOf(request)) };
  });

  const joinGuard = createJoinGuard(services);
  serve(app, routes.classes.join, async (request, reply) => {
    const result = await joinGuard(request, () =>
      joinClass(services, actorOf(request), request.body),
    );
    return reply.code(result.joined ? 201 : 200).send({
      class: result.class,
      message: result.joined ? classMessages.joined : classMessages.alreadyJoined,
    });
  });

  // A student's answer to a class's invitation, and leaving a class (issue 26).
  serve(app, routes.classes.myInvitations, async (request) => {
    return myInvitations(services, actorOf(request));
  });
  serve(app, routes.classes.acceptInvitation, async (request) => {
    return acceptInvitation(services, actorOf(request), request.params.id);
  });
  for (const [entry, change] of [
    [routes.classes.declineInvitation, declineInvitation],
    [routes.classes.leave, leaveClass],
  ] as const) {
    serve(app, entry, async (request, reply) => {
      await change(services, actorOf(request), request.params.id);
      return reply.code(204).send();
    });
  }

  serve(app, routes.classes.get, async (request) => {
    return { class: await getClass(services, actorOf(request), request.params.id) };
  });

  // Editing a class and adding a co-teacher: the class's managers, checked before the body.
  const managing = { preValidation: manageFirst.preValidation };
  const manager = (request: FastifyRequest) =>
    [services, actorOf(request), manageFirst.checked(request)] as const;
  serve(app, routes.classes.update, managing, async (request) => {
    return { class: await editClass(...manager(request), request.body) };
  });

  serve(app, routes.classes.remove, async (request, reply) => {
    await removeClass(services, actorOf(request), request.params.id);
    return reply.code(204).send();
  });

  serve(app, routes.classes.members, async (request) => {
    return classMembers(services, actorOf(request), request.params.id);
  });

  serve(app, routes.classes.addTeacher, managing, async (request) => {
    return { class: await addCoTeacher(...manager(request), request.body) };
  });

  // Taking a co-teacher or a student out of a class: the same call on another list.
  for (const [entry, remove] of [
    [routes.classes.removeTeacher, removeCoTeacher],
    [routes.classes.removeStudent, removeStudent],
  ] as const) {
    serve(app, entry, async (request, reply) => {
      await remove(services, actorOf(request), request.params.id, request.params.uid);
      return reply.code(204).send();
    });
  }

  serve(app, routes.classes.cancelInvitation, async (request, reply) => {
    const { id, email } = request.params;
    await cancelInvitation(services, actorOf(request), id, email);
    return reply.code(204).send();
  });

  // A new join code, or none: the class as it is then.
  for (const [entry, change] of [
    [routes.classes.newJoinCode, rotateJoinCode],
    [routes.classes.closeJoinCode, disableJoinCode],
  ] as const) {
    serve(app, entry, async (request) => {
      return { class: await change(services, actorOf(request), request.params.id) };
    });
  }

  // Roster files arrive as the CSV bytes themselves (Content-Type: text/csv), read here only:
  // every other route still takes JSON alone. The file may be larger than a JSON body.
  await app.register(async (roster) => {
    acceptFileBody(roster, "text/csv", rosterLimits.bytes, classMessages.rosterTooLarge);
    // Twenty files a minute: a teacher fixing lines and uploading again stays far below it.
    const uploads = perAccount(services, "roster", 20, 60_000);
    for (const dryRun of [true, false]) {
      const entry = dryRun ? routes.classes.previewRoster : routes.classes.importRoster;
      serve(roster, entry, { config: { ...uploads } }, async (request) => {
        return importRoster(services, actorOf(request), request.params.id, request.body, dryRun);
      });
    }
  });
}
