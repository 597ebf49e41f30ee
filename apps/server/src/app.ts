import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import { defaultBodyLimit } from "@gradecast/contract/api-routes";
import { messages } from "@gradecast/contract/messages";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { startDigestSchedule } from "./alerts/digest.ts";
import { answerApiNotFound, installApiNotFound, isApiRequest } from "./http/allowed-methods.ts";
import { createClientErrorHandler } from "./http/client-errors.ts";
import { installErrorHandlers } from "./http/errors.ts";
import { indexPage } from "./http/index-page.ts";
import { installJsonBody } from "./http/json-body.ts";
import { installLocale } from "./http/locale.ts";
import { installNulGuard } from "./http/nul-guard.ts";
import { installOpaqueOriginGuard } from "./http/opaque-origin.ts";
import { installOpenApi } from "./http/openapi.ts";
import { OneLineRequestLog, serializeRequest } from "./http/request-log.ts";
import { installRouteSchemas } from "./http/route-schemas.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { installUnknownKeyGuard } from "./http/unknown-keys.ts";
import { jobHandlers } from "./job-handlers.ts";
import type { JobHandler } from "./jobs/queue.ts";
import type { JobRunner } from "./jobs/runner.ts";
import { startAlertSweep } from "./prediction/alert-sweep.ts";
import { recomputeAfterModelChange } from "./prediction/recompute.ts";
import { scheduleDaily } from "./privacy/service.ts";
import { registerRoutes } from "./routes.ts";
import { createServices, type ServiceOptions } from "./services.ts";

export interface AppOptions extends ServiceOptions {
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** The built web app; omitted means apps/web/dist. */
  webDist?: string;
  /** Check every answer against its route's schema (API tests; http/route-schemas.ts). */
  checkResponses?: boolean;
  /** Job handlers by kind, added to (or replacing) the product's (tests register their own). */
  jobHandlers?: Record<string, JobHandler>;
  /**
   * False: this instance runs no job (they wait in the table). Tests that assert what was queued,
   * or that a refused call changed nothing, keep the queue still; another instance may run them.
   */
  runJobs?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The instance's job runner: tests wait for `jobs.idle()`. */
    jobs: JobRunner;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultWebDist = path.resolve(here, "../../web/dist");

/** Builds the whole app as a plugin tree; main.ts only listens and shuts down. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Set once the headers are worked out below; a request Node refuses cannot come before listen.
  let rawSecurityHeaders: [string, string][] = [];
  const app = Fastify({
    clientErrorHandler: createClientErrorHandler(() => rawSecurityHeaders),
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Secrets where a logged object could carry them. Named paths only: with wildcards
            // ("*.password") pino copies every line to redact it, 10 µs of each request's
            // 17 µs log line (bench/README.md); the request and error serializers log no
            // headers or bodies in the first place.
            redact: {
              paths: [
                "req.headers.authorization",
                "req.headers.cookie",
                'res.headers["set-cookie"]',
                "password",
                "currentPassword",
                "newPassword",
                "token",
                "err.password",
                "err.token",
              ],
              censor: "[redacted]",
            },
            serializers: { req: serializeRequest },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // Each API route has its own limit, declared in its contract entry (routes/); this one is
    // for every other path.
    bodyLimit: defaultBodyLimit,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 72_000,
    // A hop count as Fastify applies a number (its types accept no number): the last N hops.
    trustProxy:
      typeof config.trustProxy === "number"
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: () => randomUUID(),
    // One log line per request (http/request-log.ts).
    logController: new OneLineRequestLog(),
    requestIdHeader: false,
    return503OnClosing: true,
    // Errors of the router itself (a malformed %-escape, a path parameter over 100 characters)
    // in the uniform error shape too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      return (reply as FastifyReply).code(tooLong ? 414 : 400).send({
        error: {
          code: "validation_failed",
          message: tooLong ? messages.addressTooLong : messages.addressInvalid,
        },
      });
    },
  });

  // The API takes JSON only: a text/plain body (which a cross-site form can send) gets 415.
  app.removeContentTypeParser("text/plain");
  installJsonBody(app);

  // Stage 1: external plugins.
  rawSecurityHeaders = installSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
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
  installLocale(app, config.defaultLocale);
  installErrorHandlers(app);
  installNulGuard(app);
  installOpaqueOriginGuard(app);
  installApiNotFound(app);
  installUnknownKeyGuard(app);
  installRouteSchemas(app, { checkResponses: options.checkResponses === true });
  // Before the routes: the document is collected as they are registered.
  await installOpenApi(app);
  // Read once: every client route (and /report) answers the same page, naming the language.
  const webDist = options.webDist ?? defaultWebDist;
  const hasWeb = existsSync(path.join(webDist, "index.html"));
  const page = hasWeb
    ? indexPage(readFileSync(path.join(webDist, "index.html"), "utf8"), config.defaultLocale)
    : "";
  await registerRoutes(app, services, page);
  // Background jobs (jobs/runner.ts) run from now until the app closes (services.close).
  app.decorate("jobs", services.jobs);
  if (options.runJobs !== false) {
    services.jobs.start({ ...jobHandlers(services), ...options.jobHandlers });
    // Digests are asked for once a minute by every instance (alerts/digest.ts).
    // So is the sweep of alerts left unevaluated (prediction/alert-sweep.ts).
    app.addHook("onReady", async () => {
      const stops = [startDigestSchedule(services), startAlertSweep(services)];
      app.addHook("onClose", async () => {
        for (const stop of stops) stop();
      });
    });
  }
  // A new model makes the stored predictions stale: their recomputation is queued at start.
  app.addHook("onReady", async () => {
    await recomputeAfterModelChange(services).catch((err) =>
      app.log.warn({ err }, "could not queue the recomputation of predictions"),
    );
    // Issue 31: the daily purge of due deletions and retention check, on the jobs table.
    if (options.runJobs !== false) {
      await scheduleDaily(services).catch((err) =>
        app.log.warn({ err }, "could not queue the daily privacy job"),
      );
    }
  });

  // The web app: static files, and index.html for every other path so that client routes work.
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      // Every file's cache-control is set here (the plugin's own would override it).
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        // The report runs in an opaque origin (analytics/routes.ts): its scripts and styles are
        // CORS requests from `Origin: null`, its images cross-origin ones. The built files hold
        // no secrets, so any origin may load them.
        if (!filePath.endsWith(".html")) {
          reply.header("access-control-allow-origin", "*");
          reply.header("cross-origin-resource-policy", "cross-origin");
        }
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header("cache-control", "public, max-age=31536000, immutable");
        } else if (filePath.endsWith(".html")) {
          // The page names the current build's scripts: an hour-old copy would ask for chunks
          // a new version has replaced, and /report's address carries a token.
          reply.header("cache-control", "no-cache");
        } else {
          reply.header("cache-control", "public, max-age=3600");
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (isApiRequest(request)) return answerApiNotFound(request, reply);
    if (!hasWeb) {
      return reply.code(404).type("text/plain").send(messages.webNotBuilt);
    }
    // A missing script or style (an old page asking for a chunk a new build replaced) is a 404,
    // not the app's HTML, which the browser would refuse as a script anyway.
    if (
      (request.method !== "GET" && request.method !== "HEAD") ||
      request.url.startsWith("/assets/")
    ) {
      return reply.code(404).send({ error: { code: "not_found", message: messages.notFound } });
    }
    return reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(page);
  });

  return app;
}
