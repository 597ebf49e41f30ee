import type { EmbedAnswer } from "@gradecast/contract/analytics";
import { analyticsMessages } from "@gradecast/contract/analytics";
import { messages } from "@gradecast/contract/messages";
import type { Role } from "@gradecast/contract/roles";
import { routes } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { AuthContext } from "../auth/service.ts";
import { classAllows, classRelation } from "../classes/policy.ts";
import { forbidden, notFound, unauthenticated } from "../domain-errors.ts";
import { allowOpaqueOrigin, opaqueOriginRoute } from "../http/opaque-origin.ts";
import { actorOf } from "../http/request-actor.ts";
import { serve } from "../http/route-schemas.ts";
import type { Services } from "../services.ts";
import { scopeForRole, staffReport, studentReport } from "./service.ts";

// The analytics report (issue 7): the frame's address, the report's data (the embed token is its
// only credential), and the /report page itself, the one page that may be framed (by us).
// classId: a teacher's view of one of their classes (an admin's of any); without it a teacher
// sees all of theirs, an admin the school (issue 17).
const reportQuerySchema = z.object({
  token: z.string().min(1).max(4096).optional(),
  classId: z.string().max(100).optional(),
});

const badToken = () => unauthenticated(analyticsMessages.badToken, "invalid_token");

/**
 * Whether a staff member reaches a class's report: those who manage the class (the class
 * policy: its teachers, and admins for every class). Anything else is answered as if the class
 * did not exist (404).
 */
async function reachesClass(services: Services, viewer: { id: string; role: Role }, id: string) {
  const found = await classRelation(services, { user: viewer }, id);
  return found !== undefined && classAllows(found.relation, "manage");
}

export async function analyticsRoutes(app: FastifyInstance, ctx: AuthContext, page = "") {
  const { services, embed: signer } = ctx;

  serve(app, routes.analytics.embed, async (request): Promise<EmbedAnswer> => {
    const external = services.config.analyticsEmbedUrl;
    if (external) return { url: external, expiresAt: null, external: true };
    const user = actorOf(request).user;
    const { classId } = request.query;
    const scope = scopeForRole(user.role);
    // One class's report, for staff: the class is checked now and carried by the token.
    if (classId !== undefined) {
      if (scope !== "staff") throw forbidden();
      if (!(await reachesClass(services, user, classId))) throw notFound();
    }
    const { token, expiresAt } = await signer.sign(
      { userId: user.id, sessionId: user.sessionId, scope, classId },
      services.now(),
    );
    return {
      url: `/report?token=${encodeURIComponent(token)}`,
      expiresAt: expiresAt.toISOString(),
      external: false,
    };
  });

  serve(app, routes.analytics.report, async (request, reply) => {
    allowOpaqueOrigin(reply);
    const query = reportQuerySchema.safeParse(request.query);
    if (!query.success) throw badToken();
    // The embed token was checked as every credential is (auth/authenticate.ts): a user only
    // while the account is enabled and the session it was made for is live. Its scope must
    // still be the user's (a changed role ends it), and the report needs a verified email.
    const viewer = request.user;
    const claims = request.embed;
    if (!viewer || !claims || !viewer.emailVerified || scopeForRole(viewer.role) !== claims.scope) {
      throw badToken();
    }
    if (claims.scope === "student") {
      if (query.data.classId !== undefined) throw forbidden();
      return studentReport(services, { id: viewer.id, name: viewer.name });
    }
    // The class of the token (chosen in the host page), or of the address; not two different.
    const { classId: tokenClass } = claims;
    if (tokenClass && query.data.classId && query.data.classId !== tokenClass) throw forbidden();
    const classId = tokenClass ?? query.data.classId;
    if (classId === undefined) {
      return staffReport(
        services,
        viewer.role === "admin" ? { kind: "school" } : { kind: "teacher", teacherId: viewer.id },
      );
    }
    // Checked again: a teacher who has left the class since the token was made sees nothing.
    if (!(await reachesClass(services, viewer, classId))) throw notFound();
    return staffReport(services, { kind: "class", classId });
  });

  // The preflight of a data call that sends its token as a bearer token from the frame.
  // Not an operation of the API document: the browser sends it, no client calls it.
  app.options(opaqueOriginRoute, { schema: { hide: true } }, async (_request, reply) => {
    allowOpaqueOrigin(reply);
    reply.header("access-control-allow-methods", "GET");
    reply.header("access-control-allow-headers", "authorization");
    reply.header("access-control-max-age", "600");
    return reply.code(204).send();
  });

  // The report page: the web app's index.html like any client route, but framable by this
  // origin only. Helmet has already set the app-wide headers (frame-ancestors 'none', DENY);
  // this route relaxes exactly those two and keeps the rest of the policy as app.ts wrote it.
  // Its CSP also sandboxes it (scripts only, no allow-same-origin) wherever it is opened, framed
  // or in a tab of its own: the report never shares the application's origin or storage.
  app.get("/report", async (_request, reply) => {
    reportPageHeaders(reply);
    reply.header("cache-control", "no-cache");
    if (page === "") {
      return reply.code(404).type("text/plain").send(messages.webNotBuilt);
    }
    // The same page as every client route, so it names the deployment's language too.
    return reply.type("text/html; charset=utf-8").send(page);
  });
}

export function reportPageHeaders(reply: FastifyReply) {
  const current = String(reply.raw.getHeader("content-security-policy") ?? "");
  const directives = current
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "" && !/^frame-ancestors\b/i.test(d));
  directives.push("frame-ancestors 'self'", "sandbox allow-scripts");
  reply.header("content-security-policy", directives.join(";"));
  reply.header("x-frame-options", "SAMEORIGIN");
}
