import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance } from "fastify";
import { bearerOf } from "../auth/authenticate.ts";
import { changeEmail } from "../auth/email-change.ts";
import { requireRecentAuth } from "../auth/reauth.ts";
import { type AuthContext, changePassword, getMe, setLocale, updateMe } from "../auth/service.ts";
import { localeOf } from "../http/locale.ts";
import { perAccount } from "../http/rate-limits.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import { securityRoutes } from "./security-routes.ts";

// The signed-in user's own account: GET/PATCH /api/me {uid,name,email,role,emailVerified,
// createdAt}, and POST /api/me/password (204; revokes the other sessions).
export async function meRoutes(app: FastifyInstance, ctx: AuthContext) {
  serve(app, routes.users.me, async (request) => {
    return getMe(ctx, actorOf(request).user.id);
  });

  serve(app, routes.users.rename, async (request) => {
    return updateMe(ctx, actorOf(request).user.id, request.body);
  });

  serve(app, routes.users.setLocale, async (request) => {
    return setLocale(ctx, actorOf(request).user.id, request.body);
  });

  // Guessing the current password with a stolen ID token: as slow as guessing a sign-in.
  serve(
    app,
    routes.users.changePassword,
    { config: { ...perAccount(ctx.services, "password", 10, 15 * 60_000) } },
    async (request, reply) => {
      // The current password is asked too; a code as well when MFA is on (re-authentication).
      await requireRecentAuth(ctx, actorOf(request).user);
      await changePassword(
        ctx,
        { ip: request.ip ?? null },
        actorOf(request).user.id,
        bearerOf(request),
        request.body,
      );
      return reply.code(204).send();
    },
  );

  // A new address, after re-authentication (auth/email-change.ts). Each call sends two emails:
  // ten calls an hour per account.
  serve(
    app,
    routes.accountSecurity.changeEmail,
    {
      config: {
        ...perAccount(ctx.services, "email-change", 10, 60 * 60_000),
      },
    },
    async (request) =>
      changeEmail(ctx, actorOf(request).user, request.ip ?? null, request.body, localeOf(request)),
  );

  await securityRoutes(app, ctx);
}
