import { messages } from "@gradecast/contract/messages";
import { describe, expect, it } from "vitest";
import { randomIp, sendRefreshCookie, signIn, testPassword } from "../support/accounts.ts";
import { auditOf, dialects, errorOf } from "../support/helpers.ts";
import { testAppFor } from "../support/shared-app.ts";

// The signed-in user's own account: profile, name change, password change.
describe.each(dialects)("/api/me (%s)", (dialect) => {
  const t = testAppFor(dialect);

  const call = (method: "GET" | "PATCH" | "POST", url: string, auth?: object, payload?: object) =>
    t.app.inject({ method, url, headers: { ...auth }, payload, remoteAddress: randomIp() });
  const login = (email: string, password: string) =>
    call("POST", "/api/auth/login", undefined, { email, password });
  const refresh = (token: string) => sendRefreshCookie(t, "refresh", token);

  it("GET answers {uid,name,email,role,pendingRole,emailVerified,createdAt} and nothing else", async () => {
    for (const role of ["student", "teacher", "admin"] as const) {
      const s = await signIn(t, role, { name: `Me ${role}` });
      const res = await call("GET", "/api/me", s.auth);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(
        ["createdAt", "email", "emailVerified", "name", "pendingRole", "role", "uid"].sort(),
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

  it("GET, PATCH and password change need a signed-in caller", async () => {
    expect((await call("GET", "/api/me")).statusCode).toBe(401);
    expect((await call("PATCH", "/api/me", undefined, { name: "X" })).statusCode).toBe(401);
    const res = await call("POST", "/api/me/password", undefined, {
      currentPassword: "a",
      newPassword: "b long enough",
    });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res.body)).toEqual({ code: "unauthorized", message: messages.signInRequired });
  });

  it("PATCH changes the name (trimmed) and answers the updated user", async () => {
    const s = await signIn(t, "student");
    const res = await call("PATCH", "/api/me", s.auth, { name: "  Grace Hopper  " });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uid: s.user.uid, name: "Grace Hopper", email: s.email });
    expect((await call("GET", "/api/me", s.auth)).json().name).toBe("Grace Hopper");
  });

  it("PATCH refuses an empty or too long name, and refuses attempts to change role or email by name", async () => {
    const s = await signIn(t, "student");
    const empty = await call("PATCH", "/api/me", s.auth, { name: "  " });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty.body).fields).toEqual({ name: "Enter your name." });
    const long = await call("PATCH", "/api/me", s.auth, { name: "x".repeat(101) });
    expect(long.statusCode).toBe(400);
    const sneaky = await call("PATCH", "/api/me", s.auth, {
      name: "Eve",
      role: "admin",
      email: "eve@example.com",
    });
    expect(sneaky.statusCode).toBe(400);
    expect(Object.keys(errorOf(sneaky.body).fields ?? {}).sort()).toEqual(["email", "role"]);
    const me = await call("GET", "/api/me", s.auth);
    expect(me.json()).toMatchObject({ role: "student", email: s.email });
    expect(me.json().name).not.toBe("Eve");
  });

  it("password change: 204, the new password works, the old one not, other sessions end, this one lives", async () => {
    const s = await signIn(t, "teacher");
    // A second session of the same account, as on another device.
    const second = await login(s.email, testPassword);
    const secondRefresh = second.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";

    const newPassword = "my new teacher passphrase";
    const res = await call("POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");

    expect((await login(s.email, testPassword)).statusCode).toBe(401);
    expect((await login(s.email, newPassword)).statusCode).toBe(200);
    expect((await refresh(secondRefresh)).statusCode).toBe(401);
    // The other device's ID token ends with its session; this device's goes on.
    const secondToken = (second.json() as { token: string }).token;
    expect(
      (await call("GET", "/api/me", { authorization: `Bearer ${secondToken}` })).statusCode,
    ).toBe(401);
    expect((await call("GET", "/api/me", s.auth)).statusCode).toBe(200);
    expect((await refresh(s.refreshToken)).statusCode).toBe(200);

    const audit = await auditOf(t, "auth.password_changed", s.user.uid);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(newPassword);
  });

  it("password change: 10 tries in 15 minutes per account, then 429, so a stolen token cannot guess", async () => {
    const s = await signIn(t, "teacher");
    const attempt = () =>
      call("POST", "/api/me/password", s.auth, {
        currentPassword: "a wrong guess",
        newPassword: "something else entirely",
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(401);
    const res = await attempt();
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(errorOf(res.body).code).toBe("rate_limited");
  });

  it("password change: 401 with a clear message on a wrong current password, nothing changes", async () => {
    const s = await signIn(t, "student");
    const res = await call("POST", "/api/me/password", s.auth, {
      currentPassword: "not my password",
      newPassword: "something else entirely",
    });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res.body)).toEqual({
      code: "invalid_credentials",
      message: "Your current password is incorrect.",
    });
    expect((await login(s.email, testPassword)).statusCode).toBe(200);
    expect((await refresh(s.refreshToken)).statusCode).toBe(200);
  });

  it("password change: 400 for a common or too short new password, or missing fields", async () => {
    const s = await signIn(t, "student");
    const common = await call("POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword: "baseball1",
    });
    expect(common.statusCode).toBe(400);
    expect(errorOf(common.body).fields?.newPassword).toMatch(/too common/);
    const short = await call("POST", "/api/me/password", s.auth, {
      currentPassword: testPassword,
      newPassword: "short",
    });
    expect(errorOf(short.body).fields?.newPassword).toBe("Use at least 8 characters.");
    const missing = await call("POST", "/api/me/password", s.auth, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(errorOf(missing.body).fields ?? {}).sort()).toEqual([
      "currentPassword",
      "newPassword",
    ]);
    expect((await login(s.email, testPassword)).statusCode).toBe(200);
  });
});
