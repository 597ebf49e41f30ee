import { generateKeyPairSync, randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { enrolMfaByApi } from "./browser-accounts.ts";
import { createByCommand } from "./command-line-accounts.ts";
import { type RunningServer, startServer } from "./harness.ts";
import {
  type Answer,
  call,
  createPostgresDatabase,
  password,
  redisAnswers,
  redisUrl,
  refreshCookieOf,
  teacherSession,
  testDatabaseUrl,
} from "./proof-helpers.ts";

// Two server processes behind no load balancer but the test itself, on one PostgreSQL database,
// with one JWT_PRIVATE_KEY and one Redis for the rate-limit counters (issue 9). A client that
// lands on either instance must see one service: sessions started on one work on the other,
// an ended session is refused by both, and the login rate limit counts across both.

async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
const haveRedis = testDatabaseUrl ? await redisAnswers(redisUrl) : false;

const sessionOver = {
  code: "unauthorized",
  message: "Your session has ended. Please log in again.",
};
const errorOf = (answer: Answer) => (answer.body as { error: Record<string, unknown> }).error;

describe.skipIf(!testDatabaseUrl)(
  "two server instances on one PostgreSQL (needs TEST_DATABASE_URL; embedded PGlite serves one process)",
  () => {
    let a: RunningServer;
    let b: RunningServer;
    let databaseUrl: string;
    // This run's own Redis keys: other runs share the machine's Redis at the same time.
    const prefix = `gradecast-test-${randomBytes(4).toString("hex")}:`;
    const cleanups: Array<() => Promise<unknown>> = [];

    beforeAll(async () => {
      const database = await createPostgresDatabase("gradecast_two");
      cleanups.push(() => database.drop());
      databaseUrl = database.url;
      const jwtKey = generateKeyPairSync("ed25519")
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString();
      const env = {
        DATABASE_URL: database.url,
        JWT_PRIVATE_KEY: jwtKey,
        TEACHER_SIGNUP: "open",
        ...(haveRedis ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } : {}),
      };
      // Both start at once on an empty database: their migrations race, as in a rolling deploy.
      [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
      cleanups.push(
        () => a.stop(),
        () => b.stop(),
      );
    });
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c().catch(() => {});
      if (haveRedis) {
        await withRedis(async (redis) => {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length > 0) await redis.del(...keys);
        });
      }
    });

    it("starts both on one empty database, each migrating at the same time", async () => {
      for (const server of [a, b]) {
        const health = await call(server.url, "GET", "/api/health");
        expect(health.body).toMatchObject({ status: "ok", db: "ok", dialect: "postgres" });
        expect(server.logs()).not.toMatch(/"level":(50|60)/);
      }
    });

    it("takes a session started on A on B, and refuses it on both once signed out on A", async () => {
      const { email, token, cookie } = await teacherSession(a, "Two Instance Teacher");
      // The ID token A signed is valid on B: one signing key.
      const me = await call(b.url, "GET", "/api/me", { token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email });

      // The refresh token rotates on B, and its successor works on A.
      const onB = await call(b.url, "POST", "/api/auth/refresh", { cookie });
      expect(onB.status).toBe(200);
      const cookieB = refreshCookieOf(onB);
      expect(cookieB).toBeDefined();
      expect(cookieB).not.toBe(cookie);
      const tokenB = (onB.body as { token: string }).token;
      expect((await call(a.url, "GET", "/api/me", { token: tokenB })).status).toBe(200);
      const onA = await call(a.url, "POST", "/api/auth/refresh", { cookie: cookieB });
      expect(onA.status).toBe(200);
      const latest = refreshCookieOf(onA);

      // Sign out on A: B refuses the session's refresh token, and so does A.
      const out = await call(a.url, "POST", "/api/auth/logout", { cookie: latest });
      expect(out.status).toBe(204);
      for (const server of [b, a]) {
        const again = await call(server.url, "POST", "/api/auth/refresh", { cookie: latest });
        expect(again.status).toBe(401);
        expect(errorOf(again)).toEqual(sessionOver);
      }
      // The design keeps the ID token stateless and short-lived: it is not revoked by sign-out
      // (the web app forgets it), and dies by itself within 15 minutes.
      expect((onA.body as { expiresIn: number }).expiresIn).toBeLessThanOrEqual(15 * 60);
    });

    it("detects the reuse of a rotated refresh token across instances and ends the session", async () => {
      const { cookie } = await teacherSession(a, "Reuse Teacher");
      const rotated = await call(b.url, "POST", "/api/auth/refresh", { cookie });
      expect(rotated.status).toBe(200);
      const successor = refreshCookieOf(rotated);
      // The old token, stolen and replayed on A, is refused and revokes the whole session...
      const replay = await call(a.url, "POST", "/api/auth/refresh", { cookie });
      expect(replay.status).toBe(401);
      // ...so the rightful successor is refused on B too.
      const after = await call(b.url, "POST", "/api/auth/refresh", { cookie: successor });
      expect(after.status).toBe(401);
      expect(errorOf(after)).toEqual(sessionOver);
    });

    it("refuses a disabled account on B once the database's notice arrives, ID token and refresh, after an admin on A", async () => {
      const adminEmail = `admin-${randomBytes(4).toString("hex")}@example.com`;
      await createByCommand(
        { email: adminEmail, name: "Two Instance Admin", password },
        { DATABASE_URL: databaseUrl },
      );
      const admin = await call(a.url, "POST", "/api/auth/login", {
        body: { email: adminEmail, password },
      });
      expect(admin.status).toBe(200);
      const adminToken = (admin.body as { token: string }).token;
      // Admins turn on two-step login before anything else (issue 18).
      await enrolMfaByApi(a.url, { email: adminEmail, password });

      const teacher = await teacherSession(b, "Disabled Teacher");
      const me = await call(b.url, "GET", "/api/me", { token: teacher.token });
      const uid = (me.body as { uid: string }).uid;
      const disable = await call(a.url, "PATCH", `/api/admin/users/${uid}`, {
        token: adminToken,
        body: { disabled: true },
      });
      expect(disable.status).toBe(200);

      // B had checked this user for the calls above; the database's change notice (migration
      // 0004) makes it read the account again, so the still-unexpired ID token is refused as
      // soon as the notice arrives (milliseconds; the 30 s limit of the cache is far away).
      await vi.waitFor(
        async () => {
          const refused = await call(b.url, "GET", "/api/reports", { token: teacher.token });
          expect(refused.status).toBe(401);
          expect(errorOf(refused)).toMatchObject({ code: "account_disabled" });
        },
        { timeout: 3_000, interval: 20 },
      );
      // Disabling ended every session of the account, whichever instance started it.
      const refresh = await call(b.url, "POST", "/api/auth/refresh", { cookie: teacher.cookie });
      expect(refresh.status).toBe(401);
      expect(errorOf(refresh)).toEqual(sessionOver);
    });

    it.skipIf(!haveRedis)(
      `counts failed logins across both instances in Redis (needs Redis at ${redisUrl})`,
      async () => {
        const split = await teacherSession(a, "Split Teacher");
        const single = await teacherSession(a, "Single Teacher");
        // Wrong passwords until refused; returns the number of the first 429 and every answer.
        // (teacherSession's own sign-in counts too, the same for both accounts.)
        const hammer = async (email: string, pick: (n: number) => RunningServer) => {
          const answers: Array<{ on: string; status: number }> = [];
          for (let n = 1; n <= 30; n++) {
            const server = pick(n);
            const res = await call(server.url, "POST", "/api/auth/login", {
              body: { email, password: "not the password at all" },
            });
            answers.push({ on: server === a ? "A" : "B", status: res.status });
            if (res.status === 429) {
              expect(errorOf(res)).toMatchObject({ code: "rate_limited" });
              expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
              return { first: n, answers };
            }
            expect(res.status).toBe(401);
          }
          return { first: Number.NaN, answers };
        };
        const alone = await hammer(single.email, () => a);
        const across = await hammer(split.email, (n) => (n % 2 ? a : b));
        expect(Number.isFinite(alone.first)).toBe(true);
        // Split between A and B, the limit falls at the same count as on one instance.
        expect(across.first, JSON.stringify(across.answers)).toBe(alone.first);
        expect(new Set(across.answers.map((x) => x.on))).toEqual(new Set(["A", "B"]));
        // And holds on both, even for the right password.
        for (const server of [a, b]) {
          const res = await call(server.url, "POST", "/api/auth/login", {
            body: { email: split.email, password },
          });
          expect(res.status).toBe(429);
        }

        // The counters live in Redis, under this deployment's prefix.
        const keys = await withRedis((redis) => redis.keys(`${prefix}*`));
        expect(keys.some((k) => k.includes(split.email))).toBe(true);
        console.log(
          `two instances: login limit reached at failed attempt ${across.first} split A/B, ${alone.first} on A alone`,
        );
      },
    );
  },
);
