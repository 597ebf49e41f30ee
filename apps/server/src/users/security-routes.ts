import { securityMessages } from "@gradecast/contract/account-security";
import { adminMessages } from "@gradecast/contract/admin";
import { isId } from "@gradecast/contract/ids";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { confirmTotp, mfaStatus, startTotp, turnOffMfa } from "../auth/mfa.ts";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { endAllSessionsOf, endOtherSessions, endSession, listSessions } from "../auth/sessions.ts";
import { notFound } from "../domain-errors.ts";
import { perAccount } from "../http/rate-limits.ts";
import { route } from "../http/route-schemas.ts";

// The signed-in user's sessions and MFA (issue 18), and an admin's two actions on another
// account: end all of its sessions, reset its MFA (that one after re-authentication).

export async function securityRoutes(fastify: FastifyInstance, ctx: AuthContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { services } = ctx;
  const ip = (request: FastifyRequest) => request.ip ?? null;

  app.get("/api/me/sessions", route("GET /api/me/sessions"), async (request) => ({
    sessions: await listSessions(ctx, request.user!),
  }));

  app.delete(
    "/api/me/sessions/:id",
    route("DELETE /api/me/sessions/:id"),
    async (request, reply) => {
      await endSession(ctx, request.user!, ip(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.delete("/api/me/sessions", route("DELETE /api/me/sessions"), async (request, reply) => {
    await endOtherSessions(ctx, request.user!, ip(request));
    return reply.code(204).send();
  });

  app.get("/api/me/mfa", route("GET /api/me/mfa"), async (request) =>
    mfaStatus(ctx, request.user!.id),
  );

  app.post(
    "/api/me/mfa/totp",
    route("POST /api/me/mfa/totp", { ...perAccount(services, "mfa-start", 20, 60 * 60_000) }),
    async (request) => startTotp(ctx, request.user!.id),
  );

  app.post("/api/me/mfa/totp/confirm", route("POST /api/me/mfa/totp/confirm"), async (request) =>
    confirmTotp(ctx, request.user!.id, ip(request), request.body),
  );

  app.delete("/api/me/mfa", route("DELETE /api/me/mfa"), async (request, reply) => {
    const user = request.user!;
    await requireRecentAuth(ctx, user);
    if (!(await turnOffMfa(ctx, { ...user, ip: ip(request) }, user.id, "auth.mfa_disabled"))) {
      throw notFound(securityMessages.mfaNotOn);
    }
    return reply.code(204).send();
  });

  app.delete(
    "/api/admin/users/:uid/sessions",
    route("DELETE /api/admin/users/:uid/sessions"),
    async (request, reply) => {
      const { uid } = request.params;
      if (!isId(uid)) throw notFound(adminMessages.userNotFound);
      await endAllSessionsOf(ctx, request.user!, ip(request), uid, adminMessages.userNotFound);
      return reply.code(204).send();
    },
  );

  app.delete(
    "/api/admin/users/:uid/mfa",
    route("DELETE /api/admin/users/:uid/mfa"),
    async (request, reply) => {
      const admin = request.user!;
      const { uid } = request.params;
      if (!isId(uid)) throw notFound(adminMessages.userNotFound);
      await requireRecentAuth(ctx, admin);
      await turnOffMfa(ctx, { ...admin, ip: ip(request) }, uid, "admin.mfa_reset");
      return reply.code(200).send({ message: securityMessages.mfaReset });
    },
  );
}
