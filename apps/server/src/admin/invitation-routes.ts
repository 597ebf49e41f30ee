import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import {
  cancelTeacherInvitation,
  inviteTeacher,
  listTeacherInvitations,
} from "./teacher-invitations.ts";

// Teacher invitations by email (issue 17), for admins only.
export async function teacherInvitationRoutes(app: FastifyInstance, services: Services) {
  serve(app, routes.admin.invite, async (request, reply) => {
    const invitation = await inviteTeacher(services, actorOf(request), request.body);
    return reply.code(201).send({ invitation });
  });

  serve(app, routes.admin.cancelInvitation, async (request, reply) => {
    await cancelTeacherInvitation(services, actorOf(request), request.params);
    return reply.code(204).send();
  });

  serve(app, routes.admin.invitations, async () => {
    return { items: await listTeacherInvitations(services.db) };
  });
}
