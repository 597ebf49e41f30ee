import type { FastifyInstance } from "fastify";
import { bearerOf } from "../auth/authenticate.ts";
import { type AuthContext, changePassword, getMe, updateMe } from "../auth/service.ts";
import { perAccount } from "../http/rate-limits.ts";

// The signed-in user's own account: GET/PATCH /api/me {uid,name,email,role,emailVerified,
// createdAt}, and POST /api/me/password (204; revokes the other sessions).
export async function meRoutes(app: FastifyInstance, ctx: AuthContext) {
  app.get("/api/me", { config: { access: "GET /api/me" } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return getMe(ctx, request.user!.id);
  });

  app.patch("/api/me", { config: { access: "PATCH /api/me" } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    return updateMe(ctx, request.user!.id, request.body);
  });

  app.post(
    "/api/me/password",
    // Guessing the current password with a stolen ID token: as slow as guessing a sign-in.
    {
      config: {
        access: "POST /api/me/password",
        ...perAccount(ctx.services, "password", 10, 15 * 60_000),
      },
    },
    async (request, reply) => {
      await changePassword(
        ctx,
        { ip: request.ip ?? null },
        request.user!.id,
        bearerOf(request),
        request.body,
      );
      return reply.code(204).send();
    },
  );
}
