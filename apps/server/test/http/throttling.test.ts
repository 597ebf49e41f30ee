import { messages } from "@gradecast/contract/messages";
import * as argon2 from "@node-rs/argon2";
import { describe, expect, it, vi } from "vitest";
import { loginLimits } from "../../src/auth/login-guard.ts";
import { hashConcurrency, hashLoad, hashQueueLimit } from "../../src/auth/passwords.ts";
import { findUserByEmail } from "../../src/db/users.ts";
import { memoryAttempts } from "../../src/limits/attempts.ts";
import {
  randomIp,
  type SignedInUser,
  signIn,
  testPassword,
  uniqueEmail,
} from "../support/accounts.ts";
import { apiTest, apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp, withTestApp } from "../support/helpers.ts";

// The account-protecting limits attacked as a reviewer would: guesses spread over addresses,
// guesses in parallel, and the owner's own browser during an attack.

const tests = apiTests();

describe.each(dialects)("sign-in throttling (%s)", (dialect) => {
  const test = tests[dialect];
  const login = (
    t: TestApp,
    email: string,
    password: string,
    opts: { ip?: string; cookie?: string } = {},
  ) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: opts.ip ?? randomIp(),
      payload: { email, password },
      ...(opts.cookie ? { cookies: { gradecast_device: opts.cookie } } : {}),
    });

  async function ownerWithDevice(t: TestApp): Promise<{ owner: SignedInUser; device: string }> {
    const owner = await signIn(t, "student");
    const res = await login(t, owner.email, owner.password);
    expect(res.statusCode).toBe(200);
    const device = res.cookies.find((c) => c.name === "gradecast_device");
    expect(device?.httpOnly).toBe(true);
    return { owner, device: device?.value ?? "" };
  }

  test("30 wrong passwords from 30 addresses throttle the account; the owner's browser still signs in", async ({
    t,
    signedIn,
  }) => {
    const { owner, device } = await ownerWithDevice(t);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await login(t, owner.email, `wrong ${i}`)).statusCode);
    expect(statuses.slice(0, loginLimits.account)).toEqual(Array(loginLimits.account).fill(401));
    expect(statuses.slice(loginLimits.account).every((s) => s === 429)).toBe(true);

    // A new browser, even with the right password, waits like the guesser...
    const stranger = await login(t, owner.email, owner.password);
    expect(stranger.statusCode).toBe(429);
    expect(errorOf(stranger.body).message).toBe(messages.tooManyRequests);
    expect(Number(stranger.headers["retry-after"])).toBeGreaterThanOrEqual(15 * 60);
    expect(Number(stranger.headers["retry-after"])).toBeLessThanOrEqual(60 * 60);
    // ...but the browser that signed in before is not locked out by someone else's guesses.
    const mine = await login(t, owner.email, owner.password, { cookie: device });
    expect(mine.statusCode).toBe(200);
    // A device cookie is for its own account only.
    const other = await signedIn("student");
    expect((await login(t, other.email, "wrong again", { cookie: device })).statusCode).toBe(401);
  });

  test("the wait doubles with each try past the limit, up to an hour", async ({ t }) => {
    const email = uniqueEmail("doubling");
    const waits: number[] = [];
    for (let i = 0; i < loginLimits.account + 4; i++) {
      const res = await login(t, email, "guess");
      if (res.statusCode === 429) waits.push(Number(res.headers["retry-after"]));
    }
    expect(waits).toHaveLength(4);
    expect(waits[0]).toBeGreaterThan(25 * 60);
    expect(waits.at(-1)).toBe(60 * 60);
  });

  test("50 parallel wrong sign-ins get no more than the limit through to the password check", async ({
    t,
    signedIn,
  }) => {
    const owner = await signedIn("student");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(t, owner.email, `parallel ${i}`)),
    );
    const checked = results.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(loginLimits.account);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(50 - checked);
  });

  test("right passwords from one school address use none of its allowance", async ({
    t,
    signedIn,
  }) => {
    const ip = randomIp();
    const pupils = await Promise.all(Array.from({ length: 3 }, () => signedIn("student")));
    for (let round = 0; round < 4; round++) {
      for (const pupil of pupils) {
        expect((await login(t, pupil.email, pupil.password, { ip })).statusCode).toBe(200);
      }
    }
    expect((await login(t, pupils[0]!.email, testPassword, { ip })).statusCode).toBe(200);
  });
});

describe("failed sign-ins per address", () => {
  it(`${loginLimits.address} failures in 15 minutes from one address, whatever the emails, then 429; right passwords count nothing`, async () => {
    const attempts = memoryAttempts();
    await withTestApp("pglite", { services: { attempts } }, async (t) => {
      const ip = randomIp();
      const u = await signIn(t, "student");
      const login = (email: string, password: string, remoteAddress = ip) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress,
          payload: { email, password },
        });
      // Right passwords use none of the allowance (a school's pupils share one address).
      for (let i = 0; i < 3; i++) expect((await login(u.email, u.password)).statusCode).toBe(200);
      // The address has already failed all but twice, against many accounts (counted directly:
      // each real failure costs a password hash).
      for (let i = 0; i < loginLimits.address - 2; i++) {
        await attempts.hit(`login-address:${ip}`, { windowMs: loginLimits.windowMs });
      }
      for (let i = 0; i < 2; i++) {
        expect((await login(uniqueEmail(`spread${i}`), "wrong password!")).statusCode).toBe(401);
      }
      for (const attempt of [
        () => login(uniqueEmail("spread"), "wrong password!"),
        () => login(u.email, u.password),
      ]) {
        const res = await attempt();
        expect(res.statusCode).toBe(429);
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        expect(errorOf(res.body)).toEqual({
          code: "rate_limited",
          message: messages.tooManyRequests,
        });
      }
      expect((await login(u.email, u.password, randomIp())).statusCode).toBe(200);
    });
  });
});

describe.each(dialects)("the owner's browser and the per-address limit (%s)", (dialect) => {
  it("a browser holding the account's device cookie signs in from an address that is held", async () => {
    const attempts = memoryAttempts();
    await withTestApp(dialect, { services: { attempts } }, async (t) => {
      const school = randomIp();
      const owner = await signIn(t, "student");
      const login = (password: string, cookie?: string) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress: school,
          payload: { email: owner.email, password },
          ...(cookie ? { cookies: { gradecast_device: cookie } } : {}),
        });
      // The owner signed in from this school's address before: the browser keeps its cookie.
      const first = await login(owner.password);
      expect(first.statusCode).toBe(200);
      const device = first.cookies.find((c) => c.name === "gradecast_device")?.value;
      expect(device).toEqual(expect.any(String));
      // Then the address used up its allowance of failures (others' guesses, counted directly:
      // each real failure costs a password hash).
      for (let i = 0; i < loginLimits.address; i++) {
        await attempts.hit(`login-address:${school}`, { windowMs: loginLimits.windowMs });
      }
      // Another browser at the address waits, even with the right password...
      const stranger = await login(owner.password);
      expect(stranger.statusCode).toBe(429);
      expect(Number(stranger.headers["retry-after"])).toBeGreaterThan(0);
      // ...the owner's browser does not: its right password signs in, a wrong one is told so.
      expect((await login(owner.password, device)).statusCode).toBe(200);
      const typo = await login("not my password", device);
      expect(typo.statusCode).toBe(401);
      expect(errorOf(typo.body).code).toBe("invalid_credentials");
    });
  });
});

const queueTests = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("the password-hash queue (%s)", (dialect) => {
  const test = queueTests[dialect];
  test("answers 503 with Retry-After once it is full, and serves again once it drains", async ({
    t,
  }) => {
    // Verifications wait on a gate the test opens, so the queue fills without a race against
    // hashes finishing (argon2's verify is watched by setup/cheap-hashes.ts).
    const verify = vi.mocked(argon2.verify);
    const real = verify.getMockImplementation();
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    try {
      const owner = await signIn(t, "student");
      const login = (password: string, email = owner.email) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          remoteAddress: randomIp(),
          payload: { email, password },
        });
      verify.mockImplementation(async (...args) => {
        await gate;
        return real!(...args);
      });
      const held = Array.from({ length: hashConcurrency + hashQueueLimit }, (_, i) =>
        login(`wrong password ${i}`),
      );
      await expect
        .poll(hashLoad, { timeout: 60_000, interval: 20 })
        .toEqual({ running: hashConcurrency, waiting: hashQueueLimit });

      // Full: a sign-in (verify) and a registration (hash) are answered at once, and store nothing.
      const signInNow = await login(owner.password);
      const newcomer = uniqueEmail("queue-full");
      const register = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        remoteAddress: randomIp(),
        payload: { name: "Queue Full", email: newcomer, password: testPassword, role: "student" },
      });
      for (const res of [signInNow, register]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(errorOf(res.body)).toEqual({ code: "service_unavailable", message: messages.busy });
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      }
      expect(await findUserByEmail(t.database.db, newcomer)).toBeUndefined();

      // The queue drains: the held sign-ins get their answer, and the next one is served.
      open();
      const answers = await Promise.all(held);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 401));
      expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
      expect((await login(owner.password)).statusCode).toBe(200);
    } finally {
      open();
      if (real) verify.mockImplementation(real);
    }
  }, 180_000);
});

const floodTest = apiTest("pglite");

describe("reset-password under a flood of made-up tokens", () => {
  const test = floodTest;

  test("200 concurrent bogus resets queue no password hash, and a correct sign-in still answers", async ({
    t,
    signedIn,
  }) => {
    const owner = await signedIn("student");
    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/reset-password",
          remoteAddress: randomIp(),
          payload: {
            token: `made-up-token-${i}-${"x".repeat(40)}`,
            password: "a brand new password 1",
          },
        }),
      ),
    );
    // What made the sign-in slow would be hashes queued behind the flood: the hash queue is
    // watched while it runs (a wall-clock limit here failed on a busy 2-core machine). Only the
    // sign-in's own password check may be in it.
    let busiest = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const load = hashLoad();
        busiest = Math.max(busiest, load.running + load.waiting);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: randomIp(),
      payload: { email: owner.email, password: owner.password },
    });
    expect(res.statusCode).toBe(200);
    const answers = await flood;
    watching = false;
    await watcher;
    expect(busiest).toBeLessThanOrEqual(1);
    expect(answers.every((a) => a.statusCode === 400)).toBe(true);
    expect(errorOf(answers[0]!.body).code).toBe("invalid_token");
  });

  test("limits reset tries per address", async ({ t }) => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        remoteAddress: ip,
        payload: { token: `made-up-${i}-${"y".repeat(40)}`, password: "a brand new password 1" },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
  });
});

const codeTests = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("verification codes in parallel (%s)", (dialect) => {
  const test = codeTests[dialect];
  test("10 parallel wrong codes: no more than the 5 allowed are ever tried", async ({ t }) => {
    const user = await signIn(t, "student", { verified: false });
    const attempts = async () =>
      (
        await t.database.db
          .selectFrom("email_codes")
          .select("attempts")
          .where("user_id", "=", user.user.uid)
          .executeTakeFirstOrThrow()
      ).attempts;
    expect(await attempts()).toBe(0);
    const wrong = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/api/verify",
          headers: user.auth,
          payload: { code: String(100000 + i) },
        }),
      ),
    );
    expect(wrong.every((r) => r.statusCode === 400)).toBe(true);
    expect(await attempts()).toBe(5);
  });
});
