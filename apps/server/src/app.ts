import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { installErrorHandlers } from "./http/errors.ts";
import { installNulGuard } from "./http/nul-guard.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { registerRoutes } from "./routes.ts";
import type { Services } from "./services.ts";
import { createServices } from "./services.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** Overrides for tests (a mail transport, a clock, a model). */
  services?: Partial<Services>;
  logger?: boolean;
  /** The built web app; omitted means apps/web/dist. */
  webDist?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultWebDist = path.resolve(here, "../../web/dist");

// Request log lines without the secrets links carry in their query string (the reset link's and
// the embedded report's `token`).
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&](?:token|code)=)[^&#]*/gi, "$1[redacted]"),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Builds the whole app as a plugin tree; main.ts only listens and shuts down. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: [
                "req.headers.authorization",
                "req.headers.cookie",
                'res.headers["set-cookie"]',
                "*.password",
                "*.currentPassword",
                "*.newPassword",
                "*.token",
              ],
              censor: "[redacted]",
            },
            serializers: { req: serializeRequest },
          },
    bodyLimit: 1024 * 1024,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 72_000,
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Errors of the router itself (a malformed %-escape, a path parameter over 100 characters)
    // in the uniform error shape too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      return (reply as FastifyReply).code(tooLong ? 414 : 400).send({
        error: {
          code: "validation_failed",
          message: tooLong ? "The address is too long." : "The address is not valid.",
        },
      });
    },
  });

  // The API takes JSON only: a text/plain body (which a cross-site form can send) gets 415.
  app.removeContentTypeParser("text/plain");

  // Stage 1: external plugins.
  installSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        frameSrc: [
          "'self'",
          ...(config.analyticsEmbedUrl ? [new URL(config.analyticsEmbedUrl).origin] : []),
        ],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl?.startsWith("https:") ? undefined : false,
  });
  await app.register(cookie);
  const services = await createServices(options, app.log);
  await app.register(rateLimit, {
    global: false,
    ...(services.redis ? { redis: services.redis, nameSpace: config.redisKeyPrefix } : {}),
    skipOnError: false,
    errorResponseBuilder: (_req, context) => {
      const err = new Error("rate limited") as Error & { statusCode: number };
      err.statusCode = context.statusCode;
      return err;
    },
  });
  app.addHook("onClose", async () => {
    await services.close();
  });

  // Stage 2 and 3: services, then routes.
  installErrorHandlers(app);
  installNulGuard(app);
  await registerRoutes(app, services);

  // The web app: static files, and index.html for every other path so that client routes work.
  const webDist = options.webDist ?? defaultWebDist;
  const hasWeb = existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      // Every file's cache-control is set here (the plugin's own would override it).
      cacheControl: false,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader("cache-control", "public, max-age=31536000, immutable");
        } else if (filePath.endsWith(".html")) {
          // The page names the current build's scripts: an hour-old copy would ask for chunks
          // a new version has replaced, and /report's address carries a token.
          res.setHeader("cache-control", "no-cache");
        } else {
          res.setHeader("cache-control", "public, max-age=3600");
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith("/api/") || request.url === "/api") {
      return reply.code(404).send({
        error: {
          code: "not_found",
          message: `No API route ${request.method} ${request.url.split("?")[0]}.`,
        },
      });
    }
    if (!hasWeb) {
      return reply
        .code(404)
        .type("text/plain")
        .send("The web app is not built: run npm run build.");
    }
    // A missing script or style (an old page asking for a chunk a new build replaced) is a 404,
    // not the app's HTML, which the browser would refuse as a script anyway.
    if (
      (request.method !== "GET" && request.method !== "HEAD") ||
      request.url.startsWith("/assets/")
    ) {
      return reply.code(404).send({ error: { code: "not_found", message: "Not found." } });
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });

  return app;
}
