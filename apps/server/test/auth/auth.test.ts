import { generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { messages } from "@gradecast/contract/messages";
import * as argon2 from "@node-rs/argon2";
import { jwtVerify, SignJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { commonPasswords, isCommonPassword } from "../../src/auth/passwords.ts";
import { loadSigningKeys, signIdToken, verifyIdToken } from "../../src/auth/tokens.ts";
import { loadConfig } from "../../src/config.ts";
import {
  enrolMfa,
  randomIp,
  readOutbox,
  sendRefreshCookie,
  signIn,
  testPassword,
  uniqueEmail,
} from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp, withTestApp } from "../support/helpers.ts";

// Registration, sign-in, ID tokens, refresh rotation, logout and rate limits (issue 3).
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

const tests = apiTests({ clock: true });

describe.each(dialects)("auth API (%s)", (dialect) => {
  const test = tests[dialect];
  /** Disables an account as an admin would, straight in the table. */
  const disable = (t: TestApp, uid: string) =>
    t.database.db.updateTable("users").set({ disabled: true }).where("id", "=", uid).execute();

  const post = (t: TestApp, url: string, payload?: unknown, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: "POST",
      url,
      payload: payload as object,
      remoteAddress: randomIp(),
      ...extra,
    });
  const register = (t: TestApp, body: Record<string, unknown>) =>
    post(t, "/api/auth/register", body);
  /** A new address, the test password, and this name and role. */
  const registerAs = (t: TestApp, name: string, role: string) =>
    register(t, { name, email: uniqueEmail(name.toLowerCase()), password: testPassword, role });
  const login = (t: TestApp, email: string, password: string, remoteAddress = randomIp()) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
      remoteAddress,
    });
  const me = (t: TestApp, token: string) =>
    t.app.inject({ method: "GET", url: "/api/me", headers: { authorization: `Bearer ${token}` } });

  describe("register", () => {
    test("creates a student by default, trims and lower-cases the email, and never returns a hash", async ({
      t,
    }) => {
      const email = uniqueEmail("reg");
      const res = await register(t, {
        name: "  Ada Lovelace ",
        email: `  ${email.toUpperCase()} `,
        password: testPassword,
      });
      expect(res.statusCode).toBe(201);
      const { user } = res.json();
      expect(user).toEqual({
        uid: expect.any(String),
        name: "Ada Lovelace",
        email,
        role: "student",
        pendingRole: null,
        emailVerified: false,
        createdAt: expect.any(String),
        locale: null,
      });
      expect(res.body).not.toMatch(/argon2|password/i);
    });

    test("holds a teacher sign-up for an admin by default (TEACHER_SIGNUP=approval)", async ({
      t,
    }) => {
      const res = await registerAs(t, "T", "teacher");
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ role: "student", pendingRole: "teacher" });
    });

    test("refuses a duplicate email written in another case with 409", async ({ t }) => {
      const email = uniqueEmail("dup");
      expect((await register(t, { name: "A", email, password: testPassword })).statusCode).toBe(
        201,
      );
      const res = await register(t, {
        name: "B",
        email: email.toUpperCase(),
        password: testPassword,
      });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res.body)).toEqual({ code: "conflict", message: messages.emailTaken });
    });

    test("refuses role admin with 400", async ({ t }) => {
      const res = await registerAs(t, "Mallory", "admin");
      expect(res.statusCode).toBe(400);
      const error = errorOf(res.body);
      expect(error.code).toBe("validation_failed");
      expect(error.fields?.role).toBeDefined();
    });

    test("refuses a common password with 400, whatever its case", async ({ t }) => {
      for (const password of ["password1", "Iloveyou1", "qwertyuiop"]) {
        const res = await register(t, { name: "C", email: uniqueEmail("c"), password });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res.body).fields?.password).toMatch(/too common/);
      }
    });

    test("applies the length rules (8 to 128) without composition rules", async ({ t }) => {
      const short = await register(t, { name: "S", email: uniqueEmail("s"), password: "a7c!x2z" });
      expect(short.statusCode).toBe(400);
      expect(errorOf(short.body).fields?.password).toBe("Use at least 8 characters.");
      const long = await register(t, {
        name: "L",
        email: uniqueEmail("l"),
        password: "x".repeat(129),
      });
      expect(long.statusCode).toBe(400);
      expect(errorOf(long.body).fields?.password).toBe("Use at most 128 characters.");
      const lower = await register(t, {
        name: "P",
        email: uniqueEmail("p"),
        password: "only lower case words here",
      });
      expect(lower.statusCode).toBe(201);
      const max = await register(t, {
        name: "M",
        email: uniqueEmail("m"),
        password: "z".repeat(128),
      });
      expect(max.statusCode).toBe(201);
    });

    test("names each bad field: empty name, bad email, name over 100 characters", async ({ t }) => {
      const res = await register(t, { name: "   ", email: "not-an-email", password: testPassword });
      expect(res.statusCode).toBe(400);
      const error = errorOf(res.body);
      expect(error.fields).toMatchObject({
        name: "Enter your name.",
        email: "Enter a valid email address.",
      });
      const long = await register(t, {
        name: "n".repeat(101),
        email: uniqueEmail("n"),
        password: testPassword,
      });
      expect(errorOf(long.body).fields?.name).toBe("Use at most 100 characters.");
    });

    test("refuses a name with line breaks or control characters: it is printed in emails", async ({
      t,
    }) => {
      for (const name of [
        "Evil\nClick http://evil.example to verify",
        "Tab\there",
        "Bell\u0007",
        "Mirror \u202Eevil",
      ]) {
        const email = uniqueEmail("ctl");
        const res = await register(t, { name, email, password: testPassword });
        expect(res.statusCode, JSON.stringify(name)).toBe(400);
        expect(errorOf(res.body).fields?.name).toBe(
          "Use one line of letters, numbers, spaces and punctuation.",
        );
        expect((await login(t, email, testPassword)).statusCode).toBe(401);
      }
      expect(
        (
          await register(t, {
            name: "Zoë O'Brien-Ngũgĩ",
            email: uniqueEmail("ok"),
            password: testPassword,
          })
        ).statusCode,
      ).toBe(201);
    });

    test("emails a 6-digit verification code (outbox when no SMTP_URL)", async ({ t }) => {
      const email = uniqueEmail("mail");
      await register(t, { name: "Mail", email, password: testPassword });
      const outbox = path.join(t.dataDir, "outbox");
      const mail = (await readOutbox(t.dataDir)).find((m) => m.to.includes(email));
      expect(mail?.subject).toMatch(/verification code: \d{6}$/);
      expect(mail?.text).toMatch(/Your Gradecast verification code is \d{6}\./);
      expect((await stat(outbox)).isDirectory()).toBe(true);
    });
  });

  describe("login", () => {
    test("answers {token, expiresIn, user} and sets an httpOnly SameSite=Strict refresh cookie on /api/auth", async ({
      t,
    }) => {
      const email = uniqueEmail("login");
      await register(t, { name: "Lin", email, password: testPassword });
      const res = await login(t, ` ${email.toUpperCase()} `, testPassword);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.expiresIn).toBe(900);
      expect(body.user.email).toBe(email);
      expect(body.token.split(".")).toHaveLength(3);
      const header = JSON.parse(Buffer.from(body.token.split(".")[0], "base64url").toString());
      expect(header.alg).toBe("EdDSA");
      const cookie = res.cookies.find((c) => c.name === "gradecast_refresh");
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/api/auth" });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await me(t, body.token)).json().email).toBe(email);
    });

    test("gives the same 401 for an unknown email and a wrong password", async ({ t }) => {
      const email = uniqueEmail("same");
      await register(t, { name: "Same", email, password: testPassword });
      const wrong = await login(t, email, "not the right password");
      const unknown = await login(t, uniqueEmail("nobody"), "not the right password");
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(errorOf(wrong.body)).toEqual({
        code: "invalid_credentials",
        message: messages.invalidCredentials,
      });
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.cookies).toHaveLength(0);
    });

    test("does the same argon2 work for an unknown email (timing does not tell)", async ({ t }) => {
      const email = uniqueEmail("timing");
      await register(t, { name: "Tim", email, password: testPassword });
      const verified = vi.mocked(argon2.verify);
      const hashVerifiedBy = async (who: string) => {
        const before = verified.mock.calls.length;
        const res = await login(t, who, "wrong password here");
        expect(res.statusCode).toBe(401);
        const calls = verified.mock.calls.slice(before);
        // One verification per failed sign-in, whether or not the account exists.
        expect(calls).toHaveLength(1);
        return String(calls[0]?.[0]);
      };
      const known = await hashVerifiedBy(email);
      const unknown = await hashVerifiedBy(uniqueEmail("nobody"));
      // The unknown email verifies a real argon2id hash made with the same parameters, not a
      // shortcut: the same work, so the answer's timing cannot tell the two apart.
      const parameters = (h: string) => h.split("$").slice(1, 4).join("$");
      expect(unknown).toMatch(/^\$argon2id\$/);
      expect(parameters(unknown)).toBe(parameters(known));
      expect(unknown).not.toBe(known);
    });

    test("writes sign-ins and failures to the audit log, never the password", async ({ t }) => {
      const email = uniqueEmail("audit");
      await register(t, { name: "Aud", email, password: testPassword });
      await login(t, email, "bad password value");
      await login(t, email, testPassword);
      const rows = await t.database.db
        .selectFrom("audit_log")
        .select(["action", "details", "actor_email"])
        .where("actor_email", "=", email)
        .orderBy("id")
        .execute();
      expect(rows.map((r) => r.action)).toEqual([
        "auth.register",
        "auth.login_failed",
        "auth.login",
      ]);
      expect(JSON.stringify(rows)).not.toContain("bad password value");
      expect(JSON.stringify(rows)).not.toContain(testPassword);
    });

    test("refuses a disabled account, and its live ID token stops working at once", async ({
      t,
    }) => {
      const s = await signIn(t, "student");
      await disable(t, s.user.uid);
      const res = await me(t, s.token);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body)).toEqual({
        code: "account_disabled",
        message: messages.accountDisabled,
      });
      const again = await login(t, s.email, s.password);
      expect(again.statusCode).toBe(401);
      expect(errorOf(again.body).code).toBe("account_disabled");
    });

    test("takes a changed role into account on the next call", async ({ t }) => {
      const s = await signIn(t, "student");
      await t.database.db
        .updateTable("users")
        .set({ role: "teacher" })
        .where("id", "=", s.user.uid)
        .execute();
      expect((await me(t, s.token)).json().role).toBe("teacher");
    });
  });

  describe("ID token", () => {
    test("refuses a missing, malformed or expired token with 401", async ({ t, clock }) => {
      expect((await t.app.inject({ method: "GET", url: "/api/me" })).statusCode).toBe(401);
      expect((await me(t, "not.a.token")).statusCode).toBe(401);
      const s = await signIn(t, "student");
      clock.tick(14 * 60_000);
      expect((await me(t, s.token)).statusCode).toBe(200);
      clock.tick(60_001);
      const res = await me(t, s.token);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("unauthorized");
    });

    test("refuses a tampered token (payload or signature)", async ({ t }) => {
      const s = await signIn(t, "student");
      const [h, p, sig] = s.token.split(".") as [string, string, string];
      const payload = JSON.parse(Buffer.from(p, "base64url").toString());
      const forged = `${h}.${b64({ ...payload, role: "admin" })}.${sig}`;
      expect((await me(t, forged)).statusCode).toBe(401);
      const flipped = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`;
      expect((await me(t, flipped)).statusCode).toBe(401);
    });

    test("refuses alg none and HS256 tokens, even keyed with the server's own key material", async ({
      t,
    }) => {
      const s = await signIn(t, "admin");
      const payload = JSON.parse(Buffer.from(s.token.split(".")[1] ?? "", "base64url").toString());
      const none = `${b64({ alg: "none", typ: "JWT" })}.${b64(payload)}.`;
      expect((await me(t, none)).statusCode).toBe(401);
      const pem = await readFile(path.join(t.dataDir, "jwt-ed25519.pem"), "utf8");
      for (const secret of [randomBytes(32), new TextEncoder().encode(pem)]) {
        const hs = await new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(secret);
        const res = await me(t, hs);
        expect(res.statusCode).toBe(401);
      }
      expect((await me(t, s.token)).statusCode).toBe(200);
    });

    test("sees a role change, a disable and a sign-out made through the services on the very next call", async ({
      t,
    }) => {
      const s = await signIn(t, "student");
      const admin = await signIn(t, "admin");
      // Admins need MFA on (issue 18): this student has it before being promoted.
      await enrolMfa(t, s.auth);
      const adminList = () =>
        t.app.inject({ method: "GET", url: "/api/predictions", headers: s.auth });
      const change = (payload: Record<string, unknown>) =>
        t.app.inject({
          method: "PATCH",
          url: `/api/admin/users/${s.user.uid}`,
          headers: admin.auth,
          payload,
        });
      // Signed-in calls before the change (the user as it was may be remembered).
      expect((await me(t, s.token)).statusCode).toBe(200);
      expect((await adminList()).statusCode).toBe(403);

      expect((await change({ role: "admin" })).statusCode).toBe(200);
      expect((await adminList()).statusCode).toBe(200);
      expect((await me(t, s.token)).json()).toMatchObject({ role: "admin" });

      expect((await change({ disabled: true })).statusCode).toBe(200);
      const refused = await me(t, s.token);
      expect(refused.statusCode).toBe(401);
      expect(errorOf(refused.body).code).toBe("account_disabled");
      expect((await adminList()).statusCode).toBe(401);

      // A second session of one account, remembered, then ended from the first.
      const other = await signIn(t, "teacher");
      const again = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: randomIp(),
        payload: { email: other.email, password: other.password },
      });
      const second = (again.json() as { token: string }).token;
      expect((await me(t, second)).statusCode).toBe(200);
      const ended = await t.app.inject({
        method: "DELETE",
        url: "/api/me/sessions",
        headers: other.auth,
      });
      expect(ended.statusCode).toBeLessThan(300);
      expect((await me(t, second)).statusCode).toBe(401);
      expect((await me(t, other.token)).statusCode).toBe(200);
    });

    test("keeps its signing key in DATA_DIR/jwt-ed25519.pem with mode 0600", async ({ t }) => {
      const info = await stat(path.join(t.dataDir, "jwt-ed25519.pem"));
      expect(info.mode & 0o777).toBe(0o600);
    });
  });

  describe("refresh and logout", () => {
    const refresh = (t: TestApp, token: string | undefined) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/refresh",
        ...(token ? { cookies: { gradecast_refresh: token } } : {}),
      });
    const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
      res.cookies.find((c) => c.name === "gradecast_refresh")?.value;

    test("rotates the refresh token and answers a fresh session", async ({ t }) => {
      const s = await signIn(t, "teacher");
      const res = await refresh(t, s.refreshToken);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.uid).toBe(s.user.uid);
      expect(body.expiresIn).toBe(900);
      const next = cookieOf(res);
      expect(next).toBeDefined();
      expect(next).not.toBe(s.refreshToken);
      expect((await me(t, body.token)).statusCode).toBe(200);
      expect((await refresh(t, next)).statusCode).toBe(200);
    });

    test("revokes the whole session when a used refresh token comes back", async ({ t }) => {
      const s = await signIn(t, "student");
      const first = await refresh(t, s.refreshToken);
      const rotated = cookieOf(first);
      const reuse = await refresh(t, s.refreshToken);
      expect(reuse.statusCode).toBe(401);
      expect(errorOf(reuse.body).code).toBe("unauthorized");
      // The thief's reuse killed the legitimate holder's newer token too.
      expect((await refresh(t, rotated)).statusCode).toBe(401);
    });

    test("refuses a missing, unknown or expired refresh token", async ({ t, clock }) => {
      expect((await refresh(t, undefined)).statusCode).toBe(401);
      expect((await refresh(t, "x".repeat(43))).statusCode).toBe(401);
      const s = await signIn(t, "student");
      clock.tick(30 * 86_400_000 + 1000);
      expect((await refresh(t, s.refreshToken)).statusCode).toBe(401);
    });

    test("logout answers 204, clears the cookie and revokes the session and its ID token", async ({
      t,
    }) => {
      const s = await signIn(t, "student");
      const other = await signIn(t, "student", { email: uniqueEmail("other") });
      expect((await me(t, s.token)).statusCode).toBe(200);
      const res = await sendRefreshCookie(t, "logout", s.refreshToken);
      expect(res.statusCode).toBe(204);
      const cleared = res.cookies.find((c) => c.name === "gradecast_refresh");
      expect(cleared?.value).toBe("");
      expect((await refresh(t, s.refreshToken)).statusCode).toBe(401);
      // A copy of the ID token (say, taken from the browser) no longer works either; another
      // account's session is untouched.
      const stale = await me(t, s.token);
      expect(stale.statusCode).toBe(401);
      expect(errorOf(stale.body).code).toBe("unauthorized");
      expect((await me(t, other.token)).statusCode).toBe(200);
      // Logging out twice, or with no cookie, is harmless.
      expect((await t.app.inject({ method: "POST", url: "/api/auth/logout" })).statusCode).toBe(
        204,
      );
    });

    test("refuses a refresh for a disabled account", async ({ t }) => {
      const s = await signIn(t, "student");
      await disable(t, s.user.uid);
      const res = await refresh(t, s.refreshToken);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("account_disabled");
    });
  });

  describe("rate limits", () => {
    test("login: 10 a minute per IP and email, then 429 with Retry-After", async ({ t }) => {
      const email = uniqueEmail("rl");
      const ip = randomIp();
      for (let i = 0; i < 10; i++)
        expect((await login(t, email, "wrong password!", ip)).statusCode).toBe(401);
      const res = await login(t, email, "wrong password!", ip);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(errorOf(res.body)).toEqual({
        code: "rate_limited",
        message: messages.tooManyRequests,
      });
      // Another email from the same address still gets through; the same email from another
      // address is held by the account's own limit (10 failures in 15 minutes, throttling.test).
      expect((await login(t, uniqueEmail("rl2"), "wrong password!", ip)).statusCode).toBe(401);
      expect((await login(t, email, "wrong password!", randomIp())).statusCode).toBe(429);
    });

    test("forgot-password: 30 an hour per address whatever the emails, then 429", async ({ t }) => {
      const ip = randomIp();
      const forgot = (email: string, remoteAddress: string) =>
        post(t, "/api/auth/forgot-password", { email }, { remoteAddress });
      for (let i = 0; i < 30; i++)
        expect((await forgot(uniqueEmail(`spam${i}`), ip)).statusCode).toBe(202);
      expect((await forgot(uniqueEmail("spam"), ip)).statusCode).toBe(429);
      expect((await forgot(uniqueEmail("spam"), randomIp())).statusCode).toBe(202);
    });

    test("register: 20 an hour per IP", async ({ t }) => {
      const ip = randomIp();
      const attempt = () =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/register",
          remoteAddress: ip,
          payload: { name: "R", email: "bad", password: "short" },
        });
      for (let i = 0; i < 20; i++) expect((await attempt()).statusCode).toBe(400);
      const res = await attempt();
      expect(res.statusCode).toBe(429);
      expect(res.headers["retry-after"]).toBeDefined();
    });
  });
});

describe("common passwords", () => {
  it("ships a list of at least 10,000 and refuses each of them", async () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    for (const p of ["password", "12345678", "football", "iloveyou"]) {
      expect(isCommonPassword(p.toUpperCase())).toBe(true);
    }
    expect(isCommonPassword("correct horse battery staple")).toBe(false);
  });
});

describe("signing key", () => {
  it("is generated once into DATA_DIR and reused by the next start", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-key-"));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = await loadSigningKeys(config);
      const second = await loadSigningKeys(config);
      const spki = (k: KeyObject) => k.export({ type: "spki", format: "der" }).toString("hex");
      expect(spki(second.publicKey)).toBe(spki(first.publicKey));
      const token = await signIdToken(first, { sub: "u", role: "student", sid: "s" }, new Date());
      expect(await verifyIdToken(second, token, new Date())).toEqual({ sub: "u", sid: "s" });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("comes from JWT_PRIVATE_KEY when set, and then no key file is written", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    await withTestApp("pglite", { env: { JWT_PRIVATE_KEY: pem } }, async (t) => {
      const s = await signIn(t, "student");
      const { payload, protectedHeader } = await jwtVerify(s.token, publicKey, {
        issuer: "gradecast",
        audience: "gradecast",
      });
      expect(protectedHeader.alg).toBe("EdDSA");
      expect(payload).toMatchObject({ sub: s.user.uid, role: "student" });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(900);
      await expect(stat(path.join(t.dataDir, "jwt-ed25519.pem"))).rejects.toThrow();
    });
  });
});

describe("teacher sign-up with TEACHER_SIGNUP=open and closed", () => {
  const signUp = (t: TestApp, role: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name: "Tess", email: uniqueEmail("tess"), password: testPassword, role },
    });

  it("open: a teacher sign-up is a teacher at once", async () => {
    await withTestApp("pglite", { env: { TEACHER_SIGNUP: "open" } }, async (t) => {
      const res = await signUp(t, "teacher");
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ role: "teacher", pendingRole: null });
    });
  });

  it("closed: a teacher sign-up is refused beside the role and creates nothing", async () => {
    await withTestApp("pglite", { env: { TEACHER_SIGNUP: "closed" } }, async (t) => {
      const res = await signUp(t, "teacher");
      expect(res.statusCode).toBe(400);
      expect(errorOf(res.body).fields?.role).toBe(messages.teacherSignupClosed);
      const users = await t.database.db.selectFrom("users").select("id").execute();
      expect(users).toHaveLength(0);
      // Students still sign up.
      expect((await signUp(t, "student")).statusCode).toBe(201);
    });
  });
});

describe("teacher sign-up with TEACHER_SIGNUP=approval", () => {
  it("registers a teacher as a student waiting for an admin", async () => {
    await withTestApp("pglite", { env: { TEACHER_SIGNUP: "approval" } }, async (t) => {
      const email = uniqueEmail("pending");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: { name: "Pending", email, password: testPassword, role: "teacher" },
      });
      expect(res.statusCode).toBe(201);
      // The answer says the request waits, so the screens can tell the teacher.
      expect(res.json().user).toMatchObject({ role: "student", pendingRole: "teacher" });
      const row = await t.database.db
        .selectFrom("users")
        .select(["role", "pending_role"])
        .where("email", "=", email)
        .executeTakeFirst();
      expect(row).toEqual({ role: "student", pending_role: "teacher" });
    });
  });
});

describe("auth with RATE_LIMITS=off (benchmarks only)", () => {
  it("never answers 429", async () => {
    await withTestApp("pglite", { env: { RATE_LIMITS: "off" } }, async (t) => {
      for (let i = 0; i < 12; i++) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: "same@example.com", password: "whatever123" },
        });
        expect(res.statusCode).toBe(401);
      }
    });
  });
});
