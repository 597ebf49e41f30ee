import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { randomIp, signIn, testPassword, uniqueEmail } from "../support/accounts.ts";
import { apiTest } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";

// Every counter the server keeps in Redis carries REDIS_KEY_PREFIX, so that several instances
// or applications can share one Redis (a key once seen in use was "undefinedundefined-login-failed").
// Needs Redis on 127.0.0.1:6379, as .ci/run provides.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found.sort();
}

/** Each database's app counts in Redis under a prefix of its own. */
const prefixes = Object.fromEntries(
  dialects.map((dialect) => [dialect, `gradecast-test-${randomBytes(4).toString("hex")}:`]),
);
const tests = Object.fromEntries(
  dialects.map((dialect) => [
    dialect,
    apiTest(dialect, {
      env: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefixes[dialect]!, RATE_LIMITS: "on" },
    }),
  ]),
);

describe.each(dialects)("rate-limit keys in Redis (%s)", (dialect) => {
  const test = tests[dialect]!;
  const prefix = prefixes[dialect]!;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });

  afterAll(async () => {
    const ours = await keysMatching(redis, `${prefix}*`);
    if (ours.length > 0) await redis.del(...ours);
    redis.disconnect();
  });

  test("names every counter of sign-up, sign-in, reset and per-account limits with the prefix", async ({
    t,
  }) => {
    const ip = randomIp();
    const email = uniqueEmail("keys");
    const post = (url: string, payload: Record<string, string>) =>
      t.app.inject({ method: "POST", url, payload, remoteAddress: ip });

    const registered = await post("/api/auth/register", {
      name: "Key Test",
      email,
      password: testPassword,
      role: "student",
    });
    expect(registered.statusCode).toBe(201);
    const wrong = await post("/api/auth/login", { email, password: "not the password at all" });
    expect(wrong.statusCode).toBe(401);
    expect((await post("/api/auth/forgot-password", { email })).statusCode).toBe(202);
    const student = await signIn(t, "student");
    const resent = await t.app.inject({
      method: "POST",
      url: "/api/verify/resend",
      headers: { authorization: `Bearer ${student.token}` },
    });
    expect(resent.statusCode).toBeLessThan(500);

    const ours = await keysMatching(redis, `${prefix}*`);
    const names = ours.map((k) => k.slice(prefix.length));
    expect(names).toEqual(
      expect.arrayContaining([
        `POST/api/auth/register-register:${ip}`,
        expect.stringMatching(/^POST\/api\/auth\/login-login:/),
        `attempts:login-address:${ip}`,
        expect.stringMatching(/^attempts:login-account:[0-9a-f]{64}$/),
        expect.stringMatching(/^POST\/api\/auth\/forgot-password-forgot:/),
        `attempts:forgot-address:${ip}`,
        expect.stringMatching(/^POST\/api\/verify\/resend-resend:/),
      ]),
    );
    // Nothing about this client lies outside the prefix, and no key names an undefined part.
    const aboutClient = await keysMatching(redis, `*${ip}*`);
    expect(aboutClient.length).toBeGreaterThan(0);
    expect(aboutClient.filter((k) => !k.startsWith(prefix))).toEqual([]);
    expect(ours.filter((k) => k.includes("undefined"))).toEqual([]);
  });
});
