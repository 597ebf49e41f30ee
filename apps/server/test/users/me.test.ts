import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import { sendRefreshCookie, signIn, testPassword } from "../support/accounts.ts";
import { callApi } from "../support/api-call.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// The signed-in user's own account: profile, name change, password change.
const tests = apiTests({});

describe.each(dialects)("/api/me (%s)", (dialect) => {
  const test = tests[dialect];

  const login = (t: TestApp, email: string, password: string) =>
    callApi(t, "POST", "/api/auth/login", undefined, { email, password });
  const refresh = (t: TestApp, token: string) => sendRefreshCookie(t, "refresh", token);

  test("GET answers {uid,name,email,role,pendingRole,emailVerified,createdAt,locale} and nothing else", async ({
    t,
  }) => {
    for (const role of ["student", "teacher", "admin"] as const) {
      const s = await signIn(t, role, { name: `Me ${role}` });
      const res = await callApi(t, "GET", "/api/me", s.auth);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(
        [
          "createdAt",
          "email",
          "emailVerified",
          "locale",
          "name",
          "pendingRole",
          "role",
          "uid",
        ].sort(),
      );
      expect(body).toMatchObject({
        uid: s.user.uid,
        name: `Me ${role}`,
        email: s.email,
        role,
        pendingRole: null,
      });
      expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  test("PUT /api/me/locale keeps the language chosen, null follows the browser again", async ({
    t,
  }) => {
    const s = await signIn(t, "student");
    expect((await callApi(t, "GET", "/api/me", s.auth)).json().locale).toBeNull();
    const chosen = await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: "pt-PT" });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ uid: s.user.uid, locale: "pt-PT" });
    expect((await callApi(t, "GET", "/api/me", s.auth)).json().locale).toBe("pt-PT");

    const refused = await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: "pt-BR" });
    expect(refused.statusCode).toBe(400);
    expect((await callApi(t, "GET", "/api/me", s.auth)).json().locale).toBe("pt-PT");

    const cleared = await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: null });
    expect(cleared.json().locale).toBeNull();
    expect(
      (await callApi(t, "PUT", "/api/me/locale", undefined, { locale: "en" })).statusCode,
    ).toBe(401);
  });

  test("GET, PATCH and password change need a signed-in caller", async ({ t }) => {
    expect((await callApi(t, "GET", "/api/me")).statusCode).toBe(401);
    expect((await callApi(t, "PATCH", "/api/me", undefined, { name: "X" })).statusCode).toBe(401);
    const res = await callApi(t, "POST", "/api/me/password", undefined, {
      currentPassword: "a",
      newPassword: "b long enough",
    });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res.body)).toEqual({ code: "unauthorized", message: messages.signInRequired });
  });

  test("PATCH changes the name (trimmed) and answers the updated user", async ({ t }) => {
    const s = await signIn(t, "student");
    const res = await callApi(t, "PATCH", "/api/me", s.auth, { name: "  Grace Hopper  " });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uid: s.user.uid, name: "Grace Hopper", email: s.email });
    expect((await callApi(t, "GET", "/api/me", s.auth)).json().name).toBe("Grace Hopper");
  });

  test("PATCH refuses an empty or too long name, and refuses attempts to change role or email by name", async ({
    t,
  }) => {
    const s = await signIn(t, "student");
    const empty = await callApi(t, "PATCH", "/api/me", s.auth, { name: "  " });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty.body).fields).toEqual({ name: "Enter your name." });
    const long = await callApi(t, "PATCH", "/api/me", s.auth, { name: "x".repeat(101) });
    expect(long.statusCode).toBe(400);
    const sneaky = await callApi(t, "PATCH", "/api/me", s.auth, {
      name: "Eve",
      role: "admin",
      email: "eve@example.com",
    });
    expect(sneaky.statusCode).toBe(400);
    expect(Object.keys(errorOf(sneaky.body).fields ?? {}).sort()).toEqual(["email", "role"]);
    const me = await callApi(t, "GET", "/api/me", s.auth);
    expect(me.json()).toMatchObject({ role: "student", email: s.email });
    expect(me.json().name).not.toBe("Eve");
  });

  test("password change: 204, the new password works, the old one not, other sessions end, this one lives", async ({
    t,
  }) => {
    const s = await signIn(t, "teacher");
    // A second session of the same account, as on another device.
    const second = await login(t, s.email, testPassword);
    const secondRefresh = second.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";

    const newPassword = "my new teacher passphrase";
    const res = await callApi(t, "POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");

    expect((await login(t, s.email, testPassword)).statusCode).toBe(401);
    expect((await login(t, s.email, newPassword)).statusCode).toBe(200);
    expect((await refresh(t, secondRefresh)).statusCode).toBe(401);
    // The other device's ID token ends with its session; this device's goes on.
    const secondToken = (second.json() as { token: string }).token;
    expect(
      (await callApi(t, "GET", "/api/me", { authorization: `Bearer ${secondToken}` })).statusCode,
    ).toBe(401);
    expect((await callApi(t, "GET", "/api/me", s.auth)).statusCode).toBe(200);
    expect((await refresh(t, s.refreshToken)).statusCode).toBe(200);

    const audit = await auditOf(t, "auth.password_changed", s.user.uid);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(newPassword);
  });

  test("password change: 10 tries in 15 minutes per account, then 429, so a stolen token cannot guess", async ({
    t,
  }) => {
    const s = await signIn(t, "teacher");
    const attempt = () =>
      callApi(t, "POST", "/api/me/password", s.auth, {
        currentPassword: "a wrong guess",
        newPassword: "something else entirely",
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(401);
    const res = await attempt();
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(errorOf(res.body).code).toBe("rate_limited");
  });

  test("password change: 401 with a clear message on a wrong current password, nothing changes", async ({
    t,
  }) => {
    const s = await signIn(t, "student");
    const res = await callApi(t, "POST", "/api/me/password", s.auth, {
      currentPassword: "not my password",
      newPassword: "something else entirely",
    });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res.body)).toEqual({
      code: "invalid_credentials",
      message: "Your current password is incorrect.",
    });
    expect((await login(t, s.email, testPassword)).statusCode).toBe(200);
    expect((await refresh(t, s.refreshToken)).statusCode).toBe(200);
  });

  test("password change: 400 for a common or too short new password, or missing fields", async ({
    t,
  }) => {
    const s = await signIn(t, "student");
    const common = await callApi(t, "POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword: "baseball1",
    });
    expect(common.statusCode).toBe(400);
    expect(errorOf(common.body).fields?.newPassword).toMatch(/too common/);
    const short = await callApi(t, "POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword: "short",
    });
    expect(errorOf(short.body).fields?.newPassword).toBe("Use at least 8 characters.");
    const missing = await callApi(t, "POST", "/api/me/password", s.auth, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(errorOf(missing.body).fields ?? {}).sort()).toEqual([
      "currentPassword",
      "newPassword",
    ]);
    expect((await login(t, s.email, testPassword)).statusCode).toBe(200);
  });
});
