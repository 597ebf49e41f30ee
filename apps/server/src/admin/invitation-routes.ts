import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { route } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import {
  cancelTeacherInvitation,
  inviteTeacher,
  listTeacherInvitations,
} from "./teacher-invitations.ts";

// Teacher invitations by email (issue 17), for admins only.
export async function teacherInvitationRoutes(fastify: FastifyInstance, services: Services) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    "/api/admin/invitations",
    route("POST /api/admin/invitations"),
    async (request, reply) => {
      const invitation = await inviteTeacher(
        services,
        { user: request.user!, ip: request.ip ?? null },
        request.body,
      );
      return reply.code(201).header("cache-control", "no-store").send({ invitation });
    },
  );

  app.delete(
    "/api/admin/invitations/:email",
    route("DELETE /api/admin/invitations/:email"),
    async (request, reply) => {
      await cancelTeacherInvitation(
        services,
        { user: request.user!, ip: request.ip ?? null },
        request.params,
      );
      return reply.code(204).send();
    },
  );

  app.get(
    "/api/admin/invitations",
    route("GET /api/admin/invitations"),
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { items: await listTeacherInvitations(services.db) };
    },
  );
}
