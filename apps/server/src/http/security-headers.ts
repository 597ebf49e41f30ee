import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

// Helmet's headers, worked out once. @fastify/helmet runs helmet(options) for every request,
// which parses the CSP directives and builds each header again (about 0.1 ms a call, a tenth
// of a prediction's server time); with one fixed configuration and no nonces the headers never
// change, so helmet runs once at start and each answer gets the recorded headers.
const requireHere = createRequire(import.meta.url);
// helmet itself, as the installed @fastify/helmet depends on it.
const helmet = createRequire(requireHere.resolve("@fastify/helmet"))("helmet") as (
  options: Omit<FastifyHelmetOptions, "global" | "enableCSPNonces">,
) => (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export type SecurityHeaderOptions = Omit<FastifyHelmetOptions, "global" | "enableCSPNonces">;

/** The headers helmet sets for these options, in its order. */
export function securityHeaders(options: SecurityHeaderOptions): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.push([name.toLowerCase(), String(value)]);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

export function installSecurityHeaders(
  app: FastifyInstance,
  options: SecurityHeaderOptions,
): [string, string][] {
  const headers = securityHeaders(options);
  app.addHook("onRequest", (_request, reply, done) => {
    // On the raw response, as helmet does: a route may read and adjust them (analytics embed).
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  // API answers carry personal data unless a route says otherwise (the API document, the
  // site's public details): no browser or proxy keeps a copy.
  app.addHook("onSend", (request, reply, _payload, done) => {
    if (request.url.startsWith("/api/") && !reply.hasHeader("cache-control")) {
      reply.header("cache-control", "no-store");
    }
    done();
  });
  return headers;
}
