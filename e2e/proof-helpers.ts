import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";

// Small helpers shared by the fault, crash and multi-instance tests (issue 9): JSON calls over
// real HTTP, a teacher account, and a PostgreSQL database of the test's own.
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

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

/** Registers a teacher through the API and signs in; returns the ID token and refresh cookie. */
export async function teacherSession(baseUrl: string, name = "Crash Teacher") {
  const email = `teacher-${randomBytes(5).toString("hex")}@example.com`;
  const reg = await call(baseUrl, "POST", "/api/auth/register", {
    body: { name, email, password, role: "teacher" },
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await call(baseUrl, "POST", "/api/auth/login", { body: { email, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return {
    email,
    token: (login.body as { token: string }).token,
    cookie: refreshCookieOf(login),
  };
}

/** A new empty database on the test PostgreSQL; drop() removes it, connections and all. */
export async function createPostgresDatabase(prefix = "gradecast_proof") {
  if (!testDatabaseUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    /** Runs one statement as the administrative user on the test database. */
    async admin(statement: string) {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        return await client.query(statement);
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      try {
        await client.query(`alter database ${name} allow_connections true`);
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
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
