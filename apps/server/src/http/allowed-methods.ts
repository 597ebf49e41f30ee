import { messages } from "@gradecast/contract/messages";
import { routeList } from "@gradecast/contract/routes/index";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { translateMessage } from "../i18n/translate.ts";
import { localeOf } from "./locale.ts";

// Which methods an API path is served with, from the contract's route entries: a known path
// called with another method answers 405 with this list in `Allow` (RFC 9110), not 404.
const patterns = routeList.map(({ method, path }) => {
  const source = path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.]/g, "\\.")))
    .join("/");
  return { method: method as string, path, regex: new RegExp(`^${source}$`) };
});

/** The methods `path` is served with (HEAD with GET), or none for a path the API lacks. */
export function allowedMethods(path: string): string[] {
  // A literal route wins over a parameter one (/api/reports/export.csv against /:id).
  const matches = patterns.filter((p) => p.regex.test(path));
  const literal = matches.filter((p) => !p.path.includes(":"));
  const chosen = literal.length > 0 ? literal : matches;
  const methods = new Set(chosen.map((p) => p.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/** True for a request to the API (the not-found handler answers other paths with the web app). */
export function isApiRequest(request: FastifyRequest): boolean {
  const path = request.url.split("?")[0] ?? "";
  return path === "/api" || path.startsWith("/api/");
}

/** The answer for an API path no route serves with this method: 405 with Allow, or 404. */
export function answerApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split("?")[0] ?? "";
  const allow = allowedMethods(path);
  if (allow.length > 0) {
    return reply
      .code(405)
      .header("allow", allow.join(", "))
      .send({
        error: {
          code: "method_not_allowed",
          message: translateMessage(
            messages.methodNotAllowed(request.method, allow),
            localeOf(request),
          ),
        },
      });
  }
  const message = translateMessage(messages.noApiRoute(request.method, path), localeOf(request));
  return reply.code(404).send({ error: { code: "not_found", message } });
}

/**
 * Answers an API path no route serves as soon as it arrives, before any body is read: Fastify
 * would otherwise refuse a QUERY without Content-Type (400), or a body it cannot parse, before
 * the not-found handler could say which methods the path takes.
 */
export function installApiNotFound(app: FastifyInstance) {
  app.addHook("onRequest", async (request, reply) => {
    if (request.is404 && isApiRequest(request)) return answerApiNotFound(request, reply);
  });
}
