import { adminMessages } from "@gradecast/contract/admin";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthContext } from "../auth/service.ts";
import {
  type Actor,
  changeUser,
  listAuditPage,
  listUserPage,
  sendPasswordReset,
} from "./service.ts";

// User management and the audit log (issue 8), for admins only: the access hook has refused
// every other caller before these handlers run.

function actorOf(request: FastifyRequest): Actor {
  return { user: request.user!, ip: request.ip ?? null };
}

type UidParams = { Params: { uid: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;

  app.get(
    "/api/admin/users",
    { config: { access: "GET /api/admin/users" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return listUserPage(services, request.query);
    },
  );

  app.patch<UidParams>(
    "/api/admin/users/:uid",
    { config: { access: "PATCH /api/admin/users/:uid" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const user = await changeUser(services, actorOf(request), request.params.uid, request.body);
      return { user };
    },
  );

  app.post<UidParams>(
    "/api/admin/users/:uid/reset-password",
    { config: { access: "POST /api/admin/users/:uid/reset-password" } },
    async (request, reply) => {
      await sendPasswordReset(ctx, actorOf(request), request.params.uid);
      return reply.code(202).send({ message: adminMessages.resetSent });
    },
  );

  app.get(
    "/api/admin/audit",
    { config: { access: "GET /api/admin/audit" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return listAuditPage(services, request.query);
    },
  );
}
