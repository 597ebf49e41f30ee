import { type Locale, negotiateLocale } from "@gradecast/contract/locale";
import type { FastifyInstance, FastifyRequest } from "fastify";

// The caller's language (issue 33), one way for every handler and the error handler: the
// signed-in person's setting, else the request's Accept-Language, else DEFAULT_LOCALE. An answer
// that followed Accept-Language says so in Vary, so a cache never serves it to another language.

declare module "fastify" {
  interface FastifyInstance {
    /** DEFAULT_LOCALE. */
    defaultLocale: Locale;
  }
  interface FastifyRequest {
    /** Set when the answer's language came from Accept-Language (Vary then names it). */
    localeFromHeader: boolean;
  }
}

export function installLocale(app: FastifyInstance, defaultLocale: Locale) {
  app.decorate("defaultLocale", defaultLocale);
  app.decorateRequest("localeFromHeader", false);
  app.addHook("onSend", async (request, reply) => {
    if (request.localeFromHeader) reply.header("vary", varyWith(reply.getHeader("vary")));
  });
}

function varyWith(current: unknown): string {
  const list = String(current ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return list.some((v) => v.toLowerCase() === "accept-language" || v === "*")
    ? list.join(", ")
    : [...list, "Accept-Language"].join(", ");
}

/** The language to answer `request` in. */
export function localeOf(request: FastifyRequest): Locale {
  const own = request.user?.locale;
  if (own) return own;
  request.localeFromHeader = true;
  return negotiateLocale(request.headers["accept-language"], request.server.defaultLocale);
}
