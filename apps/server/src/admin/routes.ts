import { adminMessages } from "@gradecast/contract/admin";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import {
  changeUser,
  listAuditPage,
  listUserPage,
  rejectTeacherRequest,
  sendPasswordReset,
} from "./service.ts";

// User management and the audit log (issue 8), for admins only: the access hook has refused
// every other caller before these handlers run.

export async function adminRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;

  serve(app, routes.admin.users, async (request) => {
    return listUserPage(services, request.query);
  });

  serve(app, routes.admin.updateUser, async (request) => {
    // A role change needs a sign-in or re-authentication in the last 10 minutes.
    if (request.body.role !== undefined) {
      await requireRecentAuth(ctx, actorOf(request).user);
    }
    const user = await changeUser(services, actorOf(request), request.params.uid, request.body);
    return { user };
  });

  serve(app, routes.admin.rejectTeacher, async (request) => {
    // Deciding on a teacher request, like approving one, needs a recent sign-in or
    // re-authentication (one covers a queue of requests).
    await requireRecentAuth(ctx, actorOf(request).user);
    const user = await rejectTeacherRequest(services, actorOf(request), request.params.uid);
    return { user };
  });

  serve(app, routes.admin.resetPassword, async (request, reply) => {
    await sendPasswordReset(ctx, actorOf(request), request.params.uid);
    return reply.code(202).send({ message: adminMessages.resetSent });
  });

  serve(app, routes.admin.audit, async (request) => {
    return listAuditPage(services, request.query);
  });
}
