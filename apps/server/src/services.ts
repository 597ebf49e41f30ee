import { type GradeModel, loadDefaultModel } from "@gradecast/model";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { AppOptions } from "./app.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { DB } from "./db/schema.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";

// What route handlers reach: the configuration, the database and the app's services. Built
// once per app; tests override parts of it through AppOptions.services.
export interface Services {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** The current time; tests move it to expire tokens and codes. */
  now: () => Date;
  /** Shared store for rate limits across instances, when REDIS_URL is set. */
  redis: Redis | undefined;
  /** Outgoing mail: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox/. */
  mailer: Mailer;
  /** The grade model, loaded once at start (tests may pass their own). */
  model: GradeModel;
  close(): Promise<void>;
}

export async function createServices(
  options: AppOptions,
  log: FastifyBaseLogger,
): Promise<Services> {
  const { config, database } = options;
  // ioredis is loaded only when REDIS_URL is set (start-up time).
  const redis = config.redisUrl
    ? new (await import("ioredis")).Redis(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
      })
    : undefined;
  redis?.on("error", (err) => log.warn({ err }, "redis error"));
  const base: Services = {
    config,
    database,
    db: database.db,
    log,
    now: () => new Date(),
    redis,
    mailer: options.services?.mailer ?? createMailer(config, log),
    model: options.services?.model ?? loadDefaultModel(),
    async close() {
      redis?.disconnect();
      base.mailer.close();
    },
  };
  return { ...base, ...options.services };
}
