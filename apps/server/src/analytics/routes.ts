import type { EmbedAnswer } from "@gradecast/contract/analytics";
import { analyticsMessages } from "@gradecast/contract/analytics";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { findAuthUser } from "../auth/queries.ts";
import { AppError } from "../http/errors.ts";
import type { Services } from "../services.ts";
import { createEmbedSigner } from "./embed-token.ts";
import { scopeForRole, staffReport, studentReport } from "./service.ts";

// The analytics report (issue 7): the frame's address, the report's data (the embed token is its
// only credential), and the /report page itself, the one page that may be framed (by us).
const reportQuerySchema = z.object({ token: z.string().min(1).max(4096) });
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const badToken = () => new AppError(401, "invalid_token", analyticsMessages.badToken);

export async function analyticsRoutes(app: FastifyInstance, services: Services) {
  const signer = await createEmbedSigner(services.config);

  app.get(
    "/api/analytics/embed",
    { config: { access: "GET /api/analytics/embed" } },
    async (request, reply): Promise<EmbedAnswer> => {
      reply.header("cache-control", "no-store");
      const external = services.config.analyticsEmbedUrl;
      if (external) return { url: external, expiresAt: null, external: true };
      const user = request.user!;
      const { token, expiresAt } = await signer.sign(
        { userId: user.id, sessionId: user.sessionId, scope: scopeForRole(user.role) },
        services.now(),
      );
      return {
        url: `/report?token=${encodeURIComponent(token)}`,
        expiresAt: expiresAt.toISOString(),
        external: false,
      };
    },
  );

  app.get(
    "/api/analytics/report",
    { config: { access: "GET /api/analytics/report" } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const query = reportQuerySchema.safeParse(request.query);
      if (!query.success) throw badToken();
      const claims = await signer.verify(query.data.token, services.now());
      if (!claims || !uuid.test(claims.userId)) throw badToken();
      // The token is short-lived, but a disabled account, a changed role or the end of the
      // session it was made for (sign-out, a password change or reset) ends it at once.
      const viewer = await findAuthUser(services.db, claims.userId, claims.sessionId);
      if (!viewer?.session_live || viewer.disabled || scopeForRole(viewer.role) !== claims.scope) {
        throw badToken();
      }
      return claims.scope === "staff"
        ? staffReport(services)
        : studentReport(services, { id: viewer.id, name: viewer.name });
    },
  );

  // The report page: the web app's index.html like any client route, but framable by this
  // origin only. Helmet has already set the app-wide headers (frame-ancestors 'none', DENY);
  // this route relaxes exactly those two and keeps the rest of the policy as app.ts wrote it.
  app.get("/report", async (_request, reply) => {
    allowSameOriginFraming(reply);
    reply.header("cache-control", "no-cache");
    if (typeof reply.sendFile !== "function") {
      return reply
        .code(404)
        .type("text/plain")
        .send("The web app is not built: run npm run build.");
    }
    return reply.sendFile("index.html");
  });
}

export function allowSameOriginFraming(reply: FastifyReply) {
  const current = String(reply.raw.getHeader("content-security-policy") ?? "");
  const directives = current
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "" && !/^frame-ancestors\b/i.test(d));
  directives.push("frame-ancestors 'self'");
  reply.header("content-security-policy", directives.join(";"));
  reply.header("x-frame-options", "SAMEORIGIN");
}
