import { embedTokenMinutes } from "@gradecast/contract/analytics";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { loadEmbedKey } from "../../src/analytics/embed-token.ts";
import { type SignedInUser, signIn } from "../support/accounts.ts";
import { dialects, errorOf } from "../support/helpers.ts";
import { testAppFor, testClock } from "../support/shared-app.ts";

// The report frame runs in an opaque origin (sandboxed without allow-same-origin): its data call
// arrives with `Origin: null` and its embed token as the only credential. Only that route answers
// such a caller, with CORS headers that never allow credentials; every other API route refuses it.

describe.each(dialects)("the report's data from an opaque origin (%s)", (dialect) => {
  const clock = testClock();
  const t = testAppFor(dialect, { services: { now: clock.now } });
  let student: SignedInUser;
  let teacher: SignedInUser;

  const embedFor = async (who: SignedInUser) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/analytics/embed",
      headers: who.auth,
    });
    expect(res.statusCode).toBe(200);
    const url = (res.json() as { url: string }).url;
    return new URL(url, "http://x").searchParams.get("token") ?? "";
  };
  const report = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: `/api/analytics/report${query}`,
      headers: { origin: "null", ...headers },
    });

  beforeAll(async () => {
    student = await signIn(t, "student");
    teacher = await signIn(t, "teacher");
  });

  it("answers a valid token in the address, readable by any origin and without credentials", async () => {
    const token = await embedFor(student);
    const res = await report(`?token=${encodeURIComponent(token)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scope: "student" });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("answers a valid token sent as a bearer token, after a preflight that allows exactly that", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/analytics/report",
      headers: {
        origin: "null",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET");
    expect(preflight.headers["access-control-allow-headers"]).toBe("authorization");
    expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined();

    const token = await embedFor(teacher);
    const res = await report("", { authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scope: "staff" });
  });

  it("refuses a token once it has expired", async () => {
    const token = await embedFor(student);
    clock.tick((embedTokenMinutes * 60 + 5) * 1000);
    try {
      const res = await report(`?token=${encodeURIComponent(token)}`);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("invalid_token");
    } finally {
      clock.reset();
    }
  });

  it("refuses a token signed with its key for another audience, and an ID token", async () => {
    const key = await loadEmbedKey(t.config);
    const iat = Math.floor(clock.now().getTime() / 1000);
    const foreign = await new SignJWT({ scope: "student", sid: "x" })
      .setProtectedHeader({ alg: "HS256", typ: "gradecast-embed+jwt" })
      .setSubject(student.user.uid)
      .setIssuer("gradecast")
      .setAudience("gradecast:something-else")
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .sign(key);
    for (const token of [foreign, student.token]) {
      const res = await report(`?token=${encodeURIComponent(token)}`);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("invalid_token");
      const bearer = await report("", { authorization: `Bearer ${token}` });
      expect(bearer.statusCode).toBe(401);
    }
  });

  it("ignores cookies: a refresh cookie alone reads nothing, and never changes whose report it is", async () => {
    const cookie = `gradecast_refresh=${teacher.refreshToken}`;
    const alone = await report("", { cookie });
    expect(alone.statusCode).toBe(401);
    expect(errorOf(alone.body).code).toBe("invalid_token");
    const token = await embedFor(student);
    const mixed = await report(`?token=${encodeURIComponent(token)}`, { cookie });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toMatchObject({ scope: "student" });
  });

  it("refuses Origin: null on every other API route, even with a valid ID token", async () => {
    const calls = [
      { method: "GET", url: "/api/me", headers: student.auth },
      { method: "GET", url: "/api/analytics/embed", headers: student.auth },
      { method: "GET", url: "/api/health", headers: {} },
      {
        method: "POST",
        url: "/api/auth/refresh",
        headers: { cookie: `gradecast_refresh=${student.refreshToken}` },
      },
      {
        method: "POST",
        url: "/api/auth/login",
        headers: { "content-type": "application/json" },
        payload: { email: student.email, password: student.password },
      },
      { method: "OPTIONS", url: "/api/me", headers: {} },
    ] as const;
    for (const call of calls) {
      const res = await t.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...call.headers, origin: "null" },
        ...("payload" in call ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(errorOf(res.body).code).toBe("forbidden");
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    // The same call from the app's own pages (no Origin, or a real one) still works.
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: student.auth });
    expect(me.statusCode).toBe(200);
    expect(me.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("serves /report sandboxed: scripts only, never the application's origin", async () => {
    const res = await t.app.inject({ method: "GET", url: "/report?token=x" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("frame-ancestors 'self'");
  });
});
