import type { FastifyInstance, FastifyReply } from "fastify";
import { forbidden } from "../domain-errors.ts";

// The built-in report runs sandboxed without allow-same-origin, in an opaque origin: its own
// scripts and its data call arrive with `Origin: null`. Only the report's data route answers
// such a caller (the embed token is its one credential; it reads no cookie), with the CORS
// headers an opaque origin needs and never with credentials. Every other API route refuses
// `Origin: null`, so no sandboxed page (ours or another site's) can use the API through it.
export const opaqueOriginRoute = "/api/analytics/report";

/** CORS for the report's data: any origin may read it with a valid token, without cookies. */
export function allowOpaqueOrigin(reply: FastifyReply) {
  reply.header("access-control-allow-origin", "*");
}

export function installOpaqueOriginGuard(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => {
    if (request.headers.origin !== "null") return;
    const path = request.url.split("?")[0] ?? "";
    if (path !== "/api" && !path.startsWith("/api/")) return;
    const method = request.method;
    if (path === opaqueOriginRoute && (method === "GET" || method === "OPTIONS")) return;
    throw forbidden();
  });
}
