import { embedTokenMinutes } from "@gradecast/contract/analytics";
import { SignJWT } from "jose";
import { describe, expect } from "vitest";
import { loadEmbedKey } from "../../src/analytics/embed-token.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// The report frame runs in an opaque origin (sandboxed without allow-same-origin): its data call
// arrives with `Origin: null` and its embed token as the only credential. Only that route answers
// such a caller, with CORS headers that never allow credentials; every other API route refuses it.

const tests = apiTests({ clock: true });

describe.each(dialects)("the report's data from an opaque origin (%s)", (dialect) => {
  const test = tests[dialect];

  const embedFor = async (t: TestApp, who: SignedInUser) => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/analytics/embed",
      headers: who.auth,
    });
    expect(res.statusCode).toBe(200);
    const url = (res.json() as { url: string }).url;
    return new URL(url, "http://x").searchParams.get("token") ?? "";
  };
  const report = (t: TestApp, query: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: `/api/analytics/report${query}`,
      headers: { origin: "null", ...headers },
    });

  test("answers a valid token in the address, readable by any origin and without credentials", async ({
    t,
    student,
  }) => {
    const token = await embedFor(t, student);
    const res = await report(t, `?token=${encodeURIComponent(token)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scope: "student" });
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  test("answers a valid token sent as a bearer token, after a preflight that allows exactly that", async ({
    t,
    teacher,
  }) => {
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

    const token = await embedFor(t, teacher);
    const res = await report(t, "", { authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ scope: "staff" });
  });

  test("refuses a token once it has expired", async ({ t, clock, student }) => {
    const token = await embedFor(t, student);
    clock.tick((embedTokenMinutes * 60 + 5) * 1000);
    try {
      const res = await report(t, `?token=${encodeURIComponent(token)}`);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("invalid_token");
    } finally {
      clock.reset();
    }
  });

  test("refuses a token signed with its key for another audience, and an ID token", async ({
    t,
    clock,
    student,
  }) => {
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
      const res = await report(t, `?token=${encodeURIComponent(token)}`);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("invalid_token");
      const bearer = await report(t, "", { authorization: `Bearer ${token}` });
      expect(bearer.statusCode).toBe(401);
    }
  });

  test("ignores cookies: a refresh cookie alone reads nothing, and never changes whose report it is", async ({
    t,
    student,
    teacher,
  }) => {
    const cookie = `gradecast_refresh=${teacher.refreshToken}`;
    const alone = await report(t, "", { cookie });
    expect(alone.statusCode).toBe(401);
    expect(errorOf(alone.body).code).toBe("invalid_token");
    const token = await embedFor(t, student);
    const mixed = await report(t, `?token=${encodeURIComponent(token)}`, { cookie });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json()).toMatchObject({ scope: "student" });
  });

  test("refuses Origin: null on every other API route, even with a valid ID token", async ({
    t,
    student,
  }) => {
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

  test("serves /report sandboxed: scripts only, never the application's origin", async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/report?token=x" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("sandbox allow-scripts");
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).toContain("frame-ancestors 'self'");
  });
});
