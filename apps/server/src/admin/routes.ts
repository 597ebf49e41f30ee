import { adminMessages } from "@gradecast/contract/admin";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { actorOf } from "../http/request-actor.ts";
import { route } from "../http/route-schemas.ts";
import {
  changeUser,
  listAuditPage,
  listUserPage,
  rejectTeacherRequest,
  sendPasswordReset,
} from "./service.ts";

// User management and the audit log (issue 8), for admins only: the access hook has refused
// every other caller before these handlers run.

export async function adminRoutes(fastify: FastifyInstance, ctx: AuthContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { services } = ctx;

  app.get("/api/admin/users", route("GET /api/admin/users"), async (request, reply) => {
    reply.header("cache-control", "no-store");
    return listUserPage(services, request.query);
  });

  app.patch(
    "/api/admin/users/:uid",
    route("PATCH /api/admin/users/:uid"),
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      // A role change needs a sign-in or re-authentication in the last 10 minutes.
      if (request.body.role !== undefined) {
        await requireRecentAuth(ctx, request.user!);
      }
      const user = await changeUser(services, actorOf(request), request.params.uid, request.body);
      return { user };
    },
  );

  app.post(
    "/api/admin/users/:uid/reject-teacher",
    route("POST /api/admin/users/:uid/reject-teacher"),
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      // Deciding on a teacher request, like approving one, needs a recent sign-in or
      // re-authentication (one covers a queue of requests).
      await requireRecentAuth(ctx, request.user!);
      const user = await rejectTeacherRequest(services, actorOf(request), request.params.uid);
      return { user };
    },
  );

  app.post(
    "/api/admin/users/:uid/reset-password",
    route("POST /api/admin/users/:uid/reset-password"),
    async (request, reply) => {
      await sendPasswordReset(ctx, actorOf(request), request.params.uid);
      return reply.code(202).send({ message: adminMessages.resetSent });
    },
  );

  app.get("/api/admin/audit", route("GET /api/admin/audit"), async (request, reply) => {
    reply.header("cache-control", "no-store");
    return listAuditPage(services, request.query);
  });
}
