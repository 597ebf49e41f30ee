import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { sendRefreshCookie } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { createTestDatabase, dialects, errorOf } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";
import { hostileTexts } from "../support/security-payloads.ts";

// Security checks a client can observe: response headers, the refresh cookie's flags, hostile
// text stored verbatim and never interpreted, static files that stay inside the web build, and
// bodies that are too large, malformed or of the wrong type, all answered in the error shape.

const cspOf = (headers: Record<string, unknown>) =>
  String(headers["content-security-policy"] ?? "");

function expectStrictHeaders(headers: Record<string, unknown>, where: string) {
  const csp = cspOf(headers);
  expect(csp, where).toMatch(/default-src 'self'/);
  expect(csp, where).toMatch(/script-src 'self'(;|$)/);
  expect(csp, where).toMatch(/object-src 'none'/);
  // No <base> may move relative addresses elsewhere; forms post only here.
  expect(csp, where).toMatch(/base-uri 'none'/);
  expect(csp, where).toMatch(/form-action 'self'/);
  expect(csp, where).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(csp, where).toMatch(/frame-ancestors 'none'/);
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["referrer-policy"], where).toBe("no-referrer");
}

interface SetCookie {
  name: string;
  value: string;
  attrs: Map<string, string | true>;
}

function setCookies(headers: Record<string, unknown>): SetCookie[] {
  const raw = headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  return list.map((line: string) => {
    const [pair = "", ...rest] = line.split(";").map((p) => p.trim());
    const eq = pair.indexOf("=");
    const attrs = new Map<string, string | true>();
    for (const a of rest) {
      const i = a.indexOf("=");
      attrs.set((i < 0 ? a : a.slice(0, i)).toLowerCase(), i < 0 ? true : a.slice(i + 1));
    }
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attrs };
  });
}

const tests = apiTests();

describe.each(dialects)("security on %s", (dialect) => {
  const test = tests[dialect];
  test("sends strict headers on API answers, errors included", async ({ t, teacher }) => {
    const cases = [
      { method: "GET" as const, url: "/api/health" },
      { method: "GET" as const, url: "/api/me", headers: teacher.auth },
      { method: "GET" as const, url: "/api/me" },
      { method: "GET" as const, url: "/api/no-such-route" },
      { method: "POST" as const, url: "/api/auth/login", payload: { email: "x" } },
    ];
    for (const c of cases) {
      const res = await t.app.inject(c);
      expectStrictHeaders(res.headers, `${c.method} ${c.url} (${res.statusCode})`);
      expect(res.headers["x-powered-by"]).toBeUndefined();
    }
  });

  test("sets the refresh cookie HttpOnly, SameSite=Strict, on /api/auth only, and clears it on logout", async ({
    t,
    teacher,
  }) => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: "10.99.0.1",
      payload: { email: teacher.email, password: teacher.password },
    });
    expect(login.statusCode).toBe(200);
    const [cookie] = setCookies(login.headers).filter((c) => c.name === "gradecast_refresh");
    expect(cookie).toBeDefined();
    expect(cookie!.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie!.attrs.get("httponly")).toBe(true);
    expect(String(cookie!.attrs.get("samesite")).toLowerCase()).toBe("strict");
    expect(cookie!.attrs.get("path")).toBe("/api/auth");
    expect(Number(cookie!.attrs.get("max-age"))).toBeGreaterThan(0);
    expect(cookie!.attrs.has("domain")).toBe(false);
    // The refresh token is never in the JSON body, where scripts could read it.
    expect(login.body).not.toContain(cookie!.value);
    expect(login.headers["cache-control"]).toMatch(/no-store/);

    const refreshed = await sendRefreshCookie(t, "refresh", cookie!.value);
    expect(refreshed.statusCode).toBe(200);
    const [rotated] = setCookies(refreshed.headers).filter((c) => c.name === "gradecast_refresh");
    expect(rotated!.attrs.get("httponly")).toBe(true);
    expect(String(rotated!.attrs.get("samesite")).toLowerCase()).toBe("strict");
    expect(rotated!.value).not.toBe(cookie!.value);

    const out = await sendRefreshCookie(t, "logout", rotated!.value);
    expect(out.statusCode).toBe(204);
    const [cleared] = setCookies(out.headers).filter((c) => c.name === "gradecast_refresh");
    expect(cleared!.value).toBe("");
    expect(cleared!.attrs.get("path")).toBe("/api/auth");
    const again = await sendRefreshCookie(t, "refresh", rotated!.value);
    expect(again.statusCode).toBe(401);
    errorOf(again.body);
  });

  test("stores injection and script payloads in report fields verbatim, and searches them literally", async ({
    t,
    teacher,
  }) => {
    const ids: Array<{ id: string; text: string }> = [];
    for (const text of hostileTexts) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: teacher.auth,
        payload: { ...validReport, studentName: text, course: text, feedback: text },
      });
      expect(res.statusCode, `${text}: ${res.body}`).toBe(201);
      const { report } = res.json() as { report: { id: string } };
      ids.push({ id: report.id, text });
    }
    for (const { id, text } of ids) {
      const res = await t.app.inject({ url: `/api/reports/${id}`, headers: teacher.auth });
      expect(res.statusCode).toBe(200);
      const { report } = res.json() as { report: Record<string, unknown> };
      expect(report).toMatchObject({ studentName: text, course: text, feedback: text });
      // JSON answers are never sniffed as HTML.
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
    }
    // Every payload is a literal substring: searching it finds exactly the reports whose name
    // contains it, never every report, and never an error.
    for (const text of hostileTexts) {
      const res = await t.app.inject({
        url: `/api/reports?limit=100&search=${encodeURIComponent(text.slice(0, 100))}`,
        headers: teacher.auth,
      });
      expect(res.statusCode, text).toBe(200);
      const body = res.json() as { items: Array<{ studentName: string }> };
      const expected = hostileTexts.filter((h) =>
        h.toLowerCase().includes(text.slice(0, 100).toLowerCase()),
      ).length;
      expect(body.items.length, text).toBe(expected);
      for (const item of body.items) {
        expect(item.studentName.toLowerCase()).toContain(text.slice(0, 100).toLowerCase());
      }
    }
    // The tables the payloads name are still there and whole.
    const all = await t.app.inject({ url: "/api/reports?limit=100", headers: teacher.auth });
    expect((all.json() as { items: unknown[] }).items.length).toBe(hostileTexts.length);
    const me = await t.app.inject({ url: "/api/me", headers: teacher.auth });
    expect(me.statusCode).toBe(200);
  });

  test("stores injection and script payloads in user names verbatim", async ({
    t,
    signedIn,
    teacher,
  }) => {
    for (const text of hostileTexts) {
      const patched = await t.app.inject({
        method: "PATCH",
        url: "/api/me",
        headers: teacher.auth,
        payload: { name: text },
      });
      expect(patched.statusCode, `${text}: ${patched.body}`).toBe(200);
      const me = await t.app.inject({ url: "/api/me", headers: teacher.auth });
      expect((me.json() as { name: string }).name).toBe(text);
    }
    // Registration stores them the same way.
    const text = hostileTexts[0]!;
    const student = await signedIn("student", { name: text });
    expect(student.user.name).toBe(text);
  });

  test("refuses a NUL character in any text with 400 naming the field, and stores nothing", async ({
    t,
    teacher,
  }) => {
    const before = await t.app.inject({ url: "/api/reports", headers: teacher.auth });
    const report = {
      studentName: "Nul Student",
      course: "Math",
      marks: 50,
      attendance: 90,
      assignments: 3,
      behavior: "Good",
      feedback: "before\u0000after",
    };
    const calls = [
      { method: "POST", url: "/api/reports", payload: report, field: "feedback" },
      { method: "PATCH", url: "/api/me", payload: { name: "A\u0000B" }, field: "name" },
      { method: "GET", url: "/api/reports?search=%00", field: "search" },
      { method: "GET", url: "/api/reports/export.csv?search=a%00", field: "search" },
    ] as const;
    for (const call of calls) {
      const res = await t.app.inject({
        method: call.method,
        url: call.url,
        headers: teacher.auth,
        ...("payload" in call ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${call.url}: ${res.body}`).toBe(400);
      const error = errorOf(res.body);
      expect(error.code).toBe("validation_failed");
      expect(error.fields?.[call.field]).toMatch(/NUL/);
    }
    const after = await t.app.inject({ url: "/api/reports", headers: teacher.auth });
    expect(after.json()).toEqual(before.json());
    const me = await t.app.inject({ url: "/api/me", headers: teacher.auth });
    expect((me.json() as { name: string }).name).not.toContain("\u0000");
  });

  test("answers an oversized body with 413 in the error shape", async ({ t, teacher }) => {
    for (const url of ["/api/reports", "/api/auth/register"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { ...teacher.auth, "content-type": "application/json" },
        payload: JSON.stringify({ ...validReport, feedback: "x".repeat(1024 * 1024 + 1) }),
      });
      expect(res.statusCode, url).toBe(413);
      expect(errorOf(res.body).code).toBe("payload_too_large");
    }
  });

  test("answers addresses the router cannot take in the error shape", async ({ t, teacher }) => {
    const cases = [
      { method: "GET" as const, url: "/api/reports/%E0%A4%A", status: 400 },
      { method: "GET" as const, url: `/api/reports/${"a".repeat(500)}`, status: 414 },
      {
        method: "POST" as const,
        url: `/api/admin/users/${"9".repeat(200)}/reset-password`,
        status: 414,
      },
    ];
    for (const { method, url, status } of cases) {
      const res = await t.app.inject({ method, url, headers: teacher.auth });
      expect(res.statusCode, url).toBe(status);
      expect(errorOf(res.body).code).toBe("validation_failed");
    }
  });

  test("answers malformed JSON with 400 in the error shape", async ({ t, teacher }) => {
    const bodies = [
      '{"studentName": ',
      "{studentName: 'x'}",
      '{"a":1,}',
      '{"marks": NaN}',
      "\u0000",
      '{"__proto__": {"isAdmin": true}}',
      '{"constructor": {"prototype": {"isAdmin": true}}}',
      "[".repeat(5000),
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: { ...teacher.auth, "content-type": "application/json" },
        payload,
      });
      expect(res.statusCode, payload.slice(0, 40)).toBe(400);
      expect(errorOf(res.body).code).toBe("validation_failed");
    }
    // Nothing was created by any of them.
    const list = await t.app.inject({ url: "/api/reports?limit=100", headers: teacher.auth });
    for (const item of (list.json() as { items: Array<Record<string, unknown>> }).items) {
      expect(item).not.toHaveProperty("isAdmin");
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  test("answers a body that is not JSON with 415 in the error shape", async ({ t, teacher }) => {
    const cases = [
      ["application/xml", "<report/>"],
      ["application/x-www-form-urlencoded", "studentName=x&marks=1"],
      [
        "multipart/form-data; boundary=b",
        "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--",
      ],
      ["text/plain", JSON.stringify(validReport)],
      ["text/html", "<script>1</script>"],
    ] as const;
    for (const url of ["/api/reports", "/api/auth/login"]) {
      for (const [type, payload] of cases) {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { ...teacher.auth, "content-type": type },
          payload,
        });
        expect(res.statusCode, `${url} ${type}`).toBe(415);
        expect(errorOf(res.body).code).toBe("unsupported_media_type");
      }
    }
  });
});

describe("static files and page headers", () => {
  let root: string;
  let app: FastifyInstance;
  let close: () => Promise<void>;
  const secret = "SECRET-OUTSIDE-THE-WEB-BUILD-7f3a";
  const indexHtml =
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body>INDEX</body></html>';

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "gradecast-static-"));
    const web = path.join(root, "www", "dist");
    await mkdir(path.join(web, "assets"), { recursive: true });
    await writeFile(path.join(web, "index.html"), indexHtml);
    await writeFile(path.join(web, "assets", "app.js"), "console.log('app');");
    await writeFile(path.join(root, "www", "secret.txt"), secret);
    await writeFile(path.join(root, "secret.txt"), secret);
    await writeFile(path.join(root, "package.json"), JSON.stringify({ secret }));
    const { database, drop } = await createTestDatabase("pglite");
    const config = loadConfig({ DATA_DIR: root, LOG_LEVEL: "silent" });
    app = await buildApp({ config, database, logger: false, webDist: web });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
      await drop();
      await rm(root, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await close();
  });

  it("never serves a file outside the web build, whatever the encoding of ../", async () => {
    const targets = ["secret.txt", "package.json", "etc/passwd"];
    const prefixes = [
      "/../",
      "/../../",
      "/assets/../../",
      "/..%2f",
      "/..%2f..%2f",
      "/%2e%2e/",
      "/%2e%2e%2f",
      "/%2e%2e%2f%2e%2e%2f",
      "/assets/%2e%2e/%2e%2e/",
      "/assets/..%2f..%2f",
      "/..%5c",
      "/assets/..%5c..%5c",
      "/%252e%252e%252f",
      "/.%2e/",
      "/%2e./%2e./",
      "/....//",
      "/..;/",
      "/assets/%c0%ae%c0%ae/",
      "//",
      "/%2f",
    ];
    let checked = 0;
    for (const prefix of prefixes) {
      for (const target of targets) {
        const url = `${prefix}${target}`;
        const res = await t2(url);
        checked += 1;
        expect(res.body, url).not.toContain(secret);
        expect(res.body, url).not.toMatch(/root:.*:0:0:/);
        expect([200, 400, 403, 404], url).toContain(res.statusCode);
        // A 200 is the app's own index.html (a client route), nothing else.
        if (res.statusCode === 200) expect(res.body, url).toBe(indexHtml);
      }
    }
    expect(checked).toBe(prefixes.length * targets.length);
    // The build's own files are served.
    const asset = await t2("/assets/app.js");
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toContain("app");
    const nul = await t2("/index.html%00.js");
    expect(nul.body).not.toContain(secret);
  });

  it("answers a missing script with 404, not the app's page, and any other path with the app", async () => {
    const missing = await t2("/assets/index-OLDBUILD.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: "not_found", message: "Not found." } });
    const page = await t2("/no/such/page");
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(indexHtml);
  });

  async function t2(url: string) {
    return app.inject({ method: "GET", url });
  }

  it("sends strict headers on pages and assets, and lets only /report be framed, by this origin", async () => {
    for (const url of ["/", "/login", "/teacher-dashboard", "/assets/app.js"]) {
      const res = await t2(url);
      expect(res.statusCode, url).toBe(200);
      expectStrictHeaders(res.headers, url);
    }
    const report = await t2("/report?token=abc");
    expect(report.statusCode).toBe(200);
    const csp = cspOf(report.headers);
    expect(csp).toMatch(/frame-ancestors 'self'/);
    expect(csp).not.toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(report.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(report.headers["x-content-type-options"]).toBe("nosniff");
    expect(report.headers["referrer-policy"]).toBe("no-referrer");
  });
});
