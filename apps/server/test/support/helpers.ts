import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { type AppOptions, buildApp } from "../../src/app.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { type Database, migrate, openDatabase } from "../../src/db/database.ts";
import type { Mailer, MailMessage } from "../../src/mail/mailer.ts";
import type { Services } from "../../src/services.ts";

// API tests run against a real database: embedded PGlite always, and PostgreSQL too when
// TEST_DATABASE_URL is set (.ci/run sets it). Each test app gets a database of its own.
export type DialectName = "pglite" | "postgres";

export const dialects: DialectName[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  /** PostgreSQL only: the test database, for a second connection playing another process. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** The server's clock (a test may move it): TOTP codes are made for its time. */
  now(): Date;
  close(): Promise<void>;
}

/** A new empty database on TEST_DATABASE_URL's server (not migrated), and how to drop it. */
export async function createPostgresDatabase(
  prefix = "gradecast_test",
): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A fresh empty database of the given dialect, migrated. */
export async function createTestDatabase(
  dialect: DialectName,
  dataDir?: string,
): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  if (dialect === "pglite") {
    const database = await openDatabase({ dataDir });
    await migrate(database.db);
    return { database, drop: async () => {} };
  }
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ url, poolSize: 5 });
  await migrate(database.db);
  return { database, url, drop };
}

export async function createTestApp(
  dialect: DialectName,
  options: {
    env?: Record<string, string>;
    services?: Partial<Services>;
    /** Job handlers of the test, by kind, and the runner's settings (a shorter retry pause). */
    jobHandlers?: AppOptions["jobHandlers"];
    jobOptions?: AppOptions["jobOptions"];
    /** False: the app runs no job; what was queued stays queued (see buildApp). */
    runJobs?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-test-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", ...options.env });
  const { database, url, drop } = await createTestDatabase(dialect);
  const app = await buildApp({
    config,
    database,
    logger: false,
    services: options.services,
    jobHandlers: options.jobHandlers,
    jobOptions: options.jobOptions,
    runJobs: options.runJobs,
    // Every answer of every API test is checked against its documented schema.
    checkResponses: true,
  });
  await app.ready();
  return {
    app,
    config,
    database,
    databaseUrl: url,
    dataDir,
    now: () => options.services?.now?.() ?? new Date(),
    async close() {
      await app.close();
      await database.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the uniform error shape, { error: { code, message } }, and returns the error. */
export function errorOf(body: string): {
  code: string;
  message: string;
  fields?: Record<string, string>;
} {
  const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
  if (
    !parsed.error ||
    typeof parsed.error.code !== "string" ||
    typeof parsed.error.message !== "string"
  ) {
    throw new Error(`Not the uniform error shape: ${body}`);
  }
  return parsed.error as { code: string; message: string; fields?: Record<string, string> };
}

/** The audit entries of an action on a target, newest first. */
export async function auditOf(t: TestApp, action: string, target: string) {
  return t.database.db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .where("target", "=", target)
    .orderBy("at", "desc")
    .execute();
}

/** A mailer that keeps every message it is given (in `sent`) instead of sending it. */
export function recordingMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
    close() {},
  };
}

/** Runs `use` against a test app of its own, closed afterwards even when `use` fails. */
export async function withTestApp<T>(
  dialect: DialectName,
  options: Parameters<typeof createTestApp>[1],
  use: (t: TestApp) => Promise<T>,
): Promise<T> {
  const t = await createTestApp(dialect, options);
  try {
    return await use(t);
  } finally {
    await t.close();
  }
}

/**
 * Sign-in with a school's provider switched on, at an address where nothing answers: its routes
 * are served (a redirect back to the login page saying the provider cannot be reached) for the
 * tests that walk every route.
 */
export const unreachableOidcEnv = {
  PUBLIC_URL: "http://localhost:3000",
  OIDC_ISSUER: "http://127.0.0.1:9",
  OIDC_CLIENT_ID: "gradecast",
} as const;
