import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { mailedCode } from "./harness.ts";

// Small helpers shared by the fault, crash and multi-instance tests (issue 9): JSON calls over
// real HTTP, a teacher account, and a PostgreSQL database of the test's own.
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/** The databases a test runs on: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set. */
export const dialects = [
  { dialect: "pglite" },
  ...(testDatabaseUrl ? [{ dialect: "postgres" }] : []),
] as const;

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
  ms: number;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    body?: unknown;
    token?: string;
    cookie?: string;
    timeoutMs?: number;
    ip?: string;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.ip) headers["x-forwarded-for"] = options.ip;
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
}

/** The refresh cookie of a login or refresh answer, as a Cookie header value. */
export function refreshCookieOf(answer: Answer): string | undefined {
  for (const line of answer.headers.getSetCookie()) {
    const [pair] = line.split(";");
    if (pair?.startsWith("gradecast_refresh=") && pair.length > "gradecast_refresh=".length) {
      return pair;
    }
  }
  return undefined;
}

export const password = "correct horse battery staple";

/**
 * Registers a teacher through the API (the server runs with TEACHER_SIGNUP=open), signs in and
 * verifies the email with the emailed code; returns the ID token and refresh cookie.
 */
export async function teacherSession(
  server: { url: string; outboxDir: string },
  name = "Crash Teacher",
) {
  const baseUrl = server.url;
  const email = `teacher-${randomBytes(5).toString("hex")}@example.com`;
  const reg = await call(baseUrl, "POST", "/api/auth/register", {
    body: { name, email, password, role: "teacher" },
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await call(baseUrl, "POST", "/api/auth/login", { body: { email, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const token = (login.body as { token: string; user: { role: string } }).token;
  if ((login.body as { user: { role: string } }).user.role !== "teacher") {
    throw new Error(
      "the teacher sign-up was held for an admin: start the server with TEACHER_SIGNUP=open",
    );
  }
  const code = await mailedCode(server, email);
  const verified = await call(baseUrl, "POST", "/api/verify", { body: { code }, token });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status}`);
  return { email, token, cookie: refreshCookieOf(login) };
}

/**
 * A new empty database on the test PostgreSQL (or the server `adminUrl` names); drop() removes
 * it, connections and all.
 */
export async function createPostgresDatabase(
  prefix = "gradecast_proof",
  adminUrl = testDatabaseUrl,
) {
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  /** Runs one statement as the administrative user on the server. */
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin(`alter database ${name} allow_connections true`);
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * The server's database settings on `dialect`: none on PGlite (its DATA_DIR); on PostgreSQL a
 * database of the test's own (DATABASE_URL), which `cleanups` drops.
 */
export async function databaseFor(
  dialect: string,
  prefix: string,
  cleanups: Array<() => Promise<unknown>>,
): Promise<Record<string, string>> {
  if (dialect !== "postgres") return {};
  const db = await createPostgresDatabase(prefix);
  cleanups.push(() => db.drop());
  return { DATABASE_URL: db.url };
}

/** The Redis of the shared rate-limit tests (the machine's own, unless TEST_REDIS_URL says). */
export const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis answers at `url`, without retrying: tests that need one are skipped if not. */
export async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
