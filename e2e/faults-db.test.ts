import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";
import {
  type Answer,
  call,
  createPostgresDatabase,
  password,
  redisAnswers,
  redisUrl,
  teacherSession,
  testDatabaseUrl,
} from "./proof-helpers.ts";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy.ts";

// Database loss of service (issue 9): a real server process reaches PostgreSQL through a TCP
// proxy the test controls. Under steady load the proxy is cut (live connections dropped, new
// ones refused, as when PostgreSQL stops): every call must still answer, with 503 in the uniform
// error shape, and the process must live. When the proxy is back the server recovers by itself,
// and no report it acknowledged is lost. PGlite runs inside the server process: nothing to cut.
// The same for the Redis that holds the rate-limit counters, when REDIS_URL is set.
const clients = 4;
// A call that has not answered after this long counts as a hang: the failure condition, not a
// timing assertion.
const hangMs = 10_000;
const outageMs = 4_000;
const behaviors = ["Excellent", "Good", "Average", "Needs Improvement", "Poor"];

type Phase = "before" | "cut" | "restored" | "recovered";
type Kind = "health" | "login" | "list" | "create";
interface Outcome {
  kind: Kind;
  /** Phase when the call started and when it answered. */
  started: Phase;
  ended: Phase;
  status: number | "no answer";
  detail: string;
  ms: number;
}

const reportOf = (client: number, n: number) => ({
  studentName: `Fault ${client}-${n}`,
  course: `Course ${n % 5}`,
  marks: (n * 13) % 101,
  attendance: (n * 7) % 101,
  assignments: n % 7,
  behavior: behaviors[n % behaviors.length],
  feedback: `Filed by client ${client}, number ${n}.`,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!testDatabaseUrl)(
  "database loss of service (PostgreSQL only: needs TEST_DATABASE_URL; PGlite is in-process, there is no connection to cut)",
  () => {
    const cleanups: Array<() => Promise<unknown>> = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c().catch(() => {});
    });

    it("answers 503 while PostgreSQL is gone, stays up, and recovers by itself", async () => {
      const target = new URL(testDatabaseUrl as string);
      const database = await createPostgresDatabase("gradecast_faults");
      cleanups.push(() => database.drop());
      const proxy: TcpProxy = await startTcpProxy({
        host: target.hostname,
        port: Number(target.port || 5432),
      });
      cleanups.push(() => proxy.close());
      const viaProxy = new URL(database.url);
      viaProxy.hostname = "127.0.0.1";
      viaProxy.port = String(proxy.port);
      const server: RunningServer = await startServer({
        env: {
          DATABASE_URL: viaProxy.toString(),
          RATE_LIMITS: "off",
          DATABASE_POOL_SIZE: "5",
          TEACHER_SIGNUP: "open",
        },
      });
      cleanups.push(() => server.stop());
      const base = server.url;
      const sessions = await Promise.all(
        Array.from({ length: clients }, (_, i) => teacherSession(server, `Fault Teacher ${i}`)),
      );

      let phase: Phase = "before";
      let running = true;
      const outcomes: Outcome[] = [];
      const acknowledged = new Map<string, ReturnType<typeof reportOf>>();
      // Which client wrote each: a teacher reads only their own reports (issue 17).
      const authorOf = new Map<string, number>();
      const attempt = async (kind: Kind, run: () => Promise<Answer>) => {
        const started = phase;
        const t0 = performance.now();
        try {
          const answer = await run();
          outcomes.push({
            kind,
            started,
            ended: phase,
            status: answer.status,
            detail: JSON.stringify(answer.body),
            ms: answer.ms,
          });
          return answer;
        } catch (error) {
          // Timeout (a hang) or a dropped connection: the client got no HTTP answer.
          outcomes.push({
            kind,
            started,
            ended: phase,
            status: "no answer",
            detail: (error as Error).message,
            ms: performance.now() - t0,
          });
          return undefined;
        }
      };
      const client = async (i: number) => {
        const session = sessions[i]!;
        let token = session.token;
        for (let n = 0; running; n++) {
          await attempt("health", () => call(base, "GET", "/api/health", { timeoutMs: hangMs }));
          const login = await attempt("login", () =>
            call(base, "POST", "/api/auth/login", {
              body: { email: session.email, password },
              timeoutMs: hangMs,
            }),
          );
          if (login?.status === 200) token = (login.body as { token: string }).token;
          await attempt("list", () =>
            call(base, "GET", "/api/reports?limit=10", { token, timeoutMs: hangMs }),
          );
          const body = reportOf(i, n);
          const created = await attempt("create", () =>
            call(base, "POST", "/api/reports", { body, token, timeoutMs: hangMs }),
          );
          if (created?.status === 201) {
            const { report } = created.body as { report: { id: string } };
            acknowledged.set(report.id, body);
            authorOf.set(report.id, i);
          }
        }
      };
      const load = Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
      const waitFor = async (what: string, done: () => boolean | Promise<boolean>) => {
        const deadline = Date.now() + 60_000;
        while (!(await done())) {
          if (server.process.exitCode !== null || server.process.signalCode !== null) {
            throw new Error(`the server died while waiting for ${what}:\n${server.logs()}`);
          }
          if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
          await sleep(50);
        }
      };
      const countWhere = (test: (o: Outcome) => boolean) => outcomes.filter(test).length;

      // Steady traffic first, then the cut.
      await waitFor("reports before the cut", () => acknowledged.size >= 20);
      const beforeCut = acknowledged.size;
      await proxy.cut();
      phase = "cut";
      const cutAt = Date.now();
      // Stay down longer than the pool's connection timeout (3 s), and until every kind of call
      // has failed a few times.
      await waitFor(
        "calls during the cut",
        () =>
          Date.now() - cutAt > outageMs &&
          (["health", "login", "list", "create"] as const).every(
            (kind) => countWhere((o) => o.kind === kind && o.started === "cut") >= 5,
          ),
      );
      const health = await call(base, "GET", "/api/health", { timeoutMs: hangMs });
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: "degraded", db: "unavailable" });
      expect(server.process.exitCode).toBeNull();
      expect(server.process.signalCode).toBeNull();

      // Back again: nobody restarts the server; it must find the database by itself.
      await proxy.restore();
      phase = "restored";
      const restoredAt = performance.now();
      await waitFor(
        "health 200 after the restore",
        async () => (await call(base, "GET", "/api/health", { timeoutMs: hangMs })).status === 200,
      );
      const recoveryMs = performance.now() - restoredAt;
      phase = "recovered";
      const afterRecovery = acknowledged.size;
      await waitFor("reports after recovery", () => acknowledged.size >= afterRecovery + 20);
      running = false;
      await load;

      // Every call answered, none hung, none failed with a 500.
      const unanswered = outcomes.filter((o) => o.status === "no answer");
      expect(unanswered, server.logs().slice(-3000)).toEqual([]);
      const during = outcomes.filter((o) => o.started === "cut" && o.ended === "cut");
      expect(during.length).toBeGreaterThan(0);
      // With the database gone, every call needs it (sign-in, the ID token's user, the
      // reports, the health check's ping): each one is a 503 in the uniform shape.
      expect(during.filter((o) => o.status !== 503)).toEqual([]);
      const shapes = new Set<string>();
      for (const o of during) {
        const body = JSON.parse(o.detail) as Record<string, unknown>;
        if (o.kind === "health") {
          expect(body).toEqual({
            status: "degraded",
            db: "unavailable",
            dialect: "postgres",
            model: "ok",
            modelVersion: expect.any(String),
          });
          continue;
        }
        expect(body).toEqual({
          error: {
            code: "service_unavailable",
            message: "The service is unavailable. Please try again soon.",
            requestId: expect.any(String),
          },
        });
        shapes.add(o.kind);
      }
      expect([...shapes].sort()).toEqual(["create", "list", "login"]);
      // No stack trace, SQL or connection detail reaches a client, whenever it called.
      for (const o of outcomes) {
        const text = o.detail.replace(/"requestId":"[^"]*"/g, "");
        expect(text).not.toMatch(
          /ECONN|stack|\bat \S+ \(|select |insert |postgres:\/\/|127\.0\.0\.1|:5432/i,
        );
      }
      // Calls in flight at the cut or the restore answered with success or 503, nothing else.
      expect(
        outcomes.filter((o) => ![200, 201, 503].includes(o.status as number)),
        server.logs().slice(-3000),
      ).toEqual([]);
      // Once the health check says ok, everything works again.
      const afterwards = outcomes.filter((o) => o.started === "recovered");
      expect(afterwards.length).toBeGreaterThan(0);
      expect(afterwards.filter((o) => o.status !== 200 && o.status !== 201)).toEqual([]);
      expect(server.process.exitCode).toBeNull();
      expect(server.process.signalCode).toBeNull();

      // Sign-in and report creation on the recovered server, with the same process.
      const login = await call(base, "POST", "/api/auth/login", {
        body: { email: sessions[0]!.email, password },
      });
      expect(login.status).toBe(200);
      const token = (login.body as { token: string }).token;
      const created = await call(base, "POST", "/api/reports", { body: reportOf(0, 9999), token });
      expect(created.status).toBe(201);

      // Nothing acknowledged is lost: before the cut, around it, and after. Each report is read
      // by the teacher who wrote it.
      const tokens = await Promise.all(
        sessions.map(async (session) => {
          const res = await call(base, "POST", "/api/auth/login", {
            body: { email: session.email, password },
          });
          return (res.body as { token: string }).token;
        }),
      );
      const missing: string[] = [];
      for (const [id, body] of acknowledged) {
        const res = await call(base, "GET", `/api/reports/${id}`, {
          token: tokens[authorOf.get(id)!]!,
        });
        const report = (res.body as { report?: Record<string, unknown> }).report;
        if (res.status !== 200 || !Object.entries(body).every(([k, v]) => report?.[k] === v)) {
          missing.push(`${id}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      expect(missing).toEqual([]);

      const cutAnswers = during.map((o) => o.ms);
      console.log(
        `database loss: ${outcomes.length} calls from ${clients} clients, ${during.length} during the cut (all 503, slowest ${Math.round(Math.max(...cutAnswers))} ms), ${acknowledged.size} reports acknowledged (${beforeCut} before the cut), none lost; healthy ${Math.round(recoveryMs)} ms after the restore, ${proxy.accepted()} database connections opened`,
      );
    });
  },
);

// Rate-limit store loss: the server keeps its limits closed (no sign-in without a count), so the
// limited calls answer 503, everything else keeps working, and ioredis reconnects by itself.
const haveRedis = await redisAnswers(redisUrl);

describe.skipIf(!haveRedis)(`rate-limit store loss (needs Redis at ${redisUrl})`, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  it("answers 503 on rate-limited calls while Redis is gone, serves the rest, and recovers", async () => {
    const target = new URL(redisUrl);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(redisUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const prefix = `gradecast-test-${randomBytes(4).toString("hex")}:`;
    const server = await startServer({
      env: { REDIS_URL: viaProxy.toString(), REDIS_KEY_PREFIX: prefix, TEACHER_SIGNUP: "open" },
    });
    cleanups.push(() => server.stop());
    const { email, token } = await teacherSession(server, "Redis Fault Teacher");
    const signIn = () =>
      call(server.url, "POST", "/api/auth/login", {
        body: { email, password },
        timeoutMs: hangMs,
      });

    await proxy.cut();
    const refused = await signIn();
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: {
        code: "service_unavailable",
        message: "The service is unavailable. Please try again soon.",
        requestId: expect.any(String),
      },
    });
    // Calls without a rate limit do not need Redis.
    expect((await call(server.url, "GET", "/api/reports", { token })).status).toBe(200);
    expect((await call(server.url, "GET", "/api/health")).status).toBe(200);
    expect(server.process.exitCode).toBeNull();

    await proxy.restore();
    const deadline = Date.now() + 30_000;
    let back = await signIn();
    while (back.status !== 200 && Date.now() < deadline) {
      expect(back.status).toBe(503);
      await sleep(200);
      back = await signIn();
    }
    expect(back.status).toBe(200);
    expect(server.process.exitCode).toBeNull();

    const redis = new Redis(redisUrl);
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
});
