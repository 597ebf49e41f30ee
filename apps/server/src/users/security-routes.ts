import { securityMessages } from "@gradecast/contract/account-security";
import { adminMessages } from "@gradecast/contract/admin";
import { isId } from "@gradecast/contract/ids";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { confirmTotp, mfaStatus, startTotp, turnOffMfa } from "../auth/mfa.ts";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { endAllSessionsOf, endOtherSessions, endSession, listSessions } from "../auth/sessions.ts";
import { notFound } from "../domain-errors.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";

// The signed-in user's sessions and MFA (issue 18), and an admin's two actions on another
// account: end all of its sessions, reset its MFA (that one after re-authentication).

export async function securityRoutes(app: FastifyInstance, ctx: AuthContext) {
  const { services } = ctx;
  const ip = (request: FastifyRequest) => request.ip ?? null;

  serve(app, routes.accountSecurity.sessions, async (request) => ({
    sessions: await listSessions(ctx, actorOf(request).user),
  }));

  serve(app, routes.accountSecurity.endSession, async (request, reply) => {
    await endSession(ctx, actorOf(request).user, ip(request), request.params.id);
    return reply.code(204).send();
  });

  serve(app, routes.accountSecurity.endOtherSessions, async (request, reply) => {
    await endOtherSessions(ctx, actorOf(request).user, ip(request));
    return reply.code(204).send();
  });

  serve(app, routes.accountSecurity.mfaStatus, async (request) =>
    mfaStatus(ctx, actorOf(request).user.id),
  );

  serve(
    app,
    routes.accountSecurity.startTotp,
    { config: { ...perAccount(services, "mfa-start", 20, 60 * 60_000) } },
    async (request) => startTotp(ctx, actorOf(request).user.id),
  );

  serve(app, routes.accountSecurity.confirmTotp, async (request) =>
    confirmTotp(ctx, actorOf(request).user.id, ip(request), request.body),
  );

  serve(app, routes.accountSecurity.turnMfaOff, async (request, reply) => {
    const user = actorOf(request).user;
    await requireRecentAuth(ctx, user);
    if (!(await turnOffMfa(ctx, { ...user, ip: ip(request) }, user.id, "auth.mfa_disabled"))) {
      throw notFound(securityMessages.mfaNotOn);
    }
    return reply.code(204).send();
  });

  serve(app, routes.accountSecurity.endUserSessions, async (request, reply) => {
    const { uid } = request.params;
    if (!isId(uid)) throw notFound(adminMessages.userNotFound);
    await endAllSessionsOf(
      ctx,
      actorOf(request).user,
      ip(request),
      uid,
      adminMessages.userNotFound,
    );
    return reply.code(204).send();
  });

  serve(app, routes.accountSecurity.turnUserMfaOff, async (request, reply) => {
    const admin = actorOf(request).user;
    const { uid } = request.params;
    if (!isId(uid)) throw notFound(adminMessages.userNotFound);
    await requireRecentAuth(ctx, admin);
    await turnOffMfa(ctx, { ...admin, ip: ip(request) }, uid, "admin.mfa_reset");
    return reply.code(200).send({ message: securityMessages.mfaReset });
  });
}
