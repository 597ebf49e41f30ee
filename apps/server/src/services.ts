import { once } from "node:events";
import { type GradeModel, loadDefaultModel } from "@gradecast/model";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import { settleAlerts } from "./alerts/backlog.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { DB } from "./db/schema.ts";
import { createJobRunner, type JobRunner, type JobRunnerOptions } from "./jobs/runner.ts";
import { type AttemptCounter, memoryAttempts, redisAttempts } from "./limits/attempts.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createModelRegistry, type ModelRegistry } from "./model/registry.ts";
import type { TrainSettings } from "./model/train-task.ts";

// What route handlers reach: the configuration, the database and the app's services. Built
// once per app; tests override parts of it through `overrides`.
export interface Services {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** The current time; tests move it to expire tokens and codes. */
  now: () => Date;
  /** Shared store for rate limits across instances, when REDIS_URL is set. */
  redis: Redis | undefined;
  /** Counted guesses (failed sign-ins, reset emails): in Redis when REDIS_URL is set. */
  attempts: AttemptCounter;
  /** Outgoing mail: SMTP when SMTP_URL is set, else .eml files under DATA_DIR/outbox/. */
  mailer: Mailer;
  /**
   * The grade model in use: the database's active version (model/registry.ts), read again every
   * few seconds (tests may pass their own fixed model).
   */
  model: GradeModel;
  /** The model's versions: the one in use, loading others (issue 30). */
  models: ModelRegistry;
  /** Training settings other than the defaults (tests train small candidates). */
  modelTraining?: Partial<TrainSettings>;
  /** This instance's job runner (jobs/runner.ts), started by the app with its handlers. */
  jobs: JobRunner;
  close(): Promise<void>;
}

/** What services are built from: the app's options without the HTTP parts. */
export interface ServiceOptions {
  config: Config;
  database: Database;
  /** Overrides for tests (a mail transport, a clock, a model). */
  services?: Partial<Services> | undefined;
  /** The job runner's lease, poll and retry settings (tests shorten the retry pause). */
  jobOptions?: Partial<Omit<JobRunnerOptions, "db" | "log">> | undefined;
}

export async function createServices(
  options: ServiceOptions,
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
  if (redis) await redisReady(redis, log);
  const models =
    options.services?.models ??
    createModelRegistry(database.db, options.services?.model ?? loadDefaultModel(), log);
  await models.refresh(true).catch((err) => log.warn({ err }, "could not read the model in use"));
  models.start();
  const base: Services = {
    config,
    database,
    db: database.db,
    log,
    now: () => new Date(),
    redis,
    attempts: redis
      ? redisAttempts(redis, config.redisKeyPrefix)
      : memoryAttempts(() => (options.services?.now?.() ?? new Date()).getTime()),
    mailer: options.services?.mailer ?? createMailer(config, log),
    model: models.model,
    models,
    jobs: createJobRunner({ db: database.db, log, ...options.jobOptions }),
    async close() {
      // First: a running job still records its outcome while the database is open.
      await base.jobs.stop();
      // Then the alerts of the predictions stored so far (alerts/backlog.ts).
      await settleAlerts(database.db);
      models.stop();
      redis?.disconnect();
      base.mailer.close();
    },
  };
  return { ...base, ...options.services };
}

/**
 * Waits up to 3 s for Redis before the first request: with the offline queue off, a call that
 * came in while it was still connecting would answer 503. If Redis does not answer in time the
 * server starts anyway; limited calls answer 503 until ioredis reconnects.
 */
async function redisReady(redis: Redis, log: FastifyBaseLogger): Promise<void> {
  if (redis.status === "ready") return;
  try {
    await once(redis, "ready", { signal: AbortSignal.timeout(3000) });
  } catch {
    log.warn("Redis is not answering yet: rate-limited calls answer 503 until it does");
  }
}
