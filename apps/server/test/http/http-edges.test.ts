import net from "node:net";
import { bodyLimitOf } from "@gradecast/contract/api-routes";
import {
  escapedJson,
  largestQuestionnaire,
  largestReport,
} from "@gradecast/contract/largest-bodies";
import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import type { SignedInUser } from "../support/accounts.ts";
import { apiTest } from "../support/fixtures.ts";
import { errorOf, type TestApp } from "../support/helpers.ts";

// What a probing client meets at the edges of the API: methods a path does not serve, bodies
// that are not a UTF-8 JSON object, keys a route does not take, and requests Node itself refuses,
// all in the one error shape with the security headers.

/** The headers every answer carries (helmet's, app.ts), whatever refused the request. */
const securityHeaderNames = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];
type Headers = Record<string, string | string[] | number | undefined>;
const securityOf = (headers: Headers) =>
  Object.fromEntries(securityHeaderNames.map((name) => [name, String(headers[name])]));

const test = apiTest("pglite");

describe("the edges of the API", () => {
  /** The security headers of a normal answer. */
  let normal: Record<string, string>;
  test.beforeAll(async ({ t, teacher }) => {
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: teacher.auth });
    expect(me.statusCode).toBe(200);
    normal = securityOf(me.headers);
    expect(normal["content-security-policy"]).toContain("default-src 'self'");
  });
  const expectSecurityHeaders = (headers: Headers, what: string) =>
    expect(securityOf(headers), what).toEqual(normal);

  /** A PATCH of the teacher's own account with this body and content type. */
  const json = (
    t: TestApp,
    teacher: SignedInUser,
    payload: string | Buffer,
    contentType = "application/json",
  ) =>
    t.app.inject({
      method: "PATCH",
      url: "/api/me",
      headers: { ...teacher.auth, "content-type": contentType },
      payload,
    });

  test("answers a known path called with another method 405 with Allow", async ({ t }) => {
    for (const [method, url, allow] of [
      ["TRACE", "/api/reports", "GET, HEAD, POST"],
      // QUERY without Content-Type, which Fastify alone would refuse with 400 first.
      ["QUERY", "/api/reports", "GET, HEAD, POST"],
      ["QUERY", "/api/me", "GET, HEAD, PATCH"],
      ["PUT", "/api/reports/00000000-0000-4000-8000-000000000000", "DELETE, GET, HEAD, PATCH"],
      ["DELETE", "/api/me", "GET, HEAD, PATCH"],
      ["GET", "/api/auth/login", "POST"],
      ["POST", "/api/reports/export.csv", "GET, HEAD"],
    ] as const) {
      // TRACE and the rest are outside Fastify's list of method types, not of what it receives.
      const res = await t.app.inject({ method: method as "GET", url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      expect(errorOf(res.body)).toEqual({
        code: "method_not_allowed",
        message: messages.methodNotAllowed(method, allow.split(", ")),
      });
      expectSecurityHeaders(res.headers, `${method} ${url}`);
    }
    expect((await t.app.inject({ method: "GET", url: "/api/nothing-here" })).statusCode).toBe(404);
  });

  test("checks who calls before it reads the body: 401 whatever was sent", async ({ t }) => {
    for (const payload of ["{bad json", "null", "x".repeat(40_000)]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: { "content-type": "application/json" },
        payload,
      });
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("unauthorized");
    }
  });

  test("refuses bytes that are not UTF-8 instead of storing replacement characters", async ({
    t,
    teacher,
  }) => {
    const before = (
      await t.app.inject({ method: "GET", url: "/api/me", headers: teacher.auth })
    ).json().name;
    const res = await json(
      t,
      teacher,
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).message).toBe("The request body is not valid UTF-8.");
    expectSecurityHeaders(res.headers, "not UTF-8");
    const after = await t.app.inject({ method: "GET", url: "/api/me", headers: teacher.auth });
    expect(after.json().name).toBe(before);
  });

  test("answers another charset 415, and a body that is not an object 400", async ({
    t,
    teacher,
  }) => {
    const latin = await json(t, teacher, '{"name":"Ana"}', "application/json; charset=iso-8859-1");
    expect(latin.statusCode).toBe(415);
    expect(errorOf(latin.body).code).toBe("unsupported_media_type");
    expectSecurityHeaders(latin.headers, "another charset");
    const text = await json(t, teacher, "name=Ana", "text/plain");
    expect(text.statusCode).toBe(415);
    expect(errorOf(text.body)).toEqual({
      code: "unsupported_media_type",
      message: messages.bodyNotJsonMedia,
    });
    expectSecurityHeaders(text.headers, "text/plain");
    expect(
      (await json(t, teacher, '{"name":"Ana"}', "application/json; charset=UTF-8")).statusCode,
    ).toBe(200);
    for (const body of ["null", "[]", "42", '"text"']) {
      const res = await json(t, teacher, body);
      expect(res.statusCode, body).toBe(400);
      expect(errorOf(res.body).message, body).toBe("The request body must be a JSON object.");
    }
  });

  test("answers JSON it cannot parse 400 in the error shape, with the security headers", async ({
    t,
    teacher,
  }) => {
    const res = await json(t, teacher, '{"name": ');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body)).toEqual({
      code: "validation_failed",
      message: messages.bodyInvalidJson,
    });
    expectSecurityHeaders(res.headers, "bad JSON");
  });

  test("takes each route's largest valid body, and answers one byte over its limit 413 naming it", async ({
    t,
    teacher,
    student,
  }) => {
    const reports = bodyLimitOf("POST /api/reports");
    const students = bodyLimitOf("POST /api/students");
    expect(reports).toBeGreaterThan(students);
    // The largest valid bodies, every character escaped (the report names no account here).
    const { studentId: _s, classId: _c, ...report } = largestReport;
    for (const [user, url, body] of [
      [teacher, "/api/reports", escapedJson(report)],
      [student, "/api/students", escapedJson(largestQuestionnaire)],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { ...user.auth, "content-type": "application/json" },
        payload: body,
      });
      expect(res.statusCode, url).toBe(201);
    }
    for (const [user, method, url, limit] of [
      [teacher, "POST", "/api/reports", reports],
      [student, "POST", "/api/students", students],
      [teacher, "PATCH", "/api/me", bodyLimitOf("PATCH /api/me")],
    ] as const) {
      const over = JSON.stringify({ name: "x".repeat(limit - 11 + 1) });
      expect(Buffer.byteLength(over)).toBe(limit + 1);
      const res = await t.app.inject({
        method,
        url,
        headers: { ...user.auth, "content-type": "application/json" },
        payload: over,
      });
      expect(res.statusCode, url).toBe(413);
      expect(errorOf(res.body), url).toEqual({
        code: "payload_too_large",
        message: messages.bodyTooLarge(limit / 1024),
      });
      expectSecurityHeaders(res.headers, `413 ${url}`);
    }
  });

  test("refuses keys a route does not take, naming them, and changes nothing", async ({
    t,
    teacher,
  }) => {
    const res = await json(
      t,
      teacher,
      JSON.stringify({ name: "Mallory", role: "admin", isAdmin: true }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).fields).toEqual({
      role: "Not a field of this request: role, isAdmin.",
      isAdmin: "Not a field of this request: role, isAdmin.",
    });
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: teacher.auth });
    expect(me.json()).toMatchObject({ role: "teacher" });
    expect(me.json().name).not.toBe("Mallory");
  });

  test("answers headers over 16 KB 431 in the error shape, with the security headers", async ({
    t,
  }) => {
    const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
      });
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("close", () => resolve(data));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    const head = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n").slice(1);
    const headers = Object.fromEntries(
      head.map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
    );
    expectSecurityHeaders(headers, "431");
    const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
    expect(errorOf(body).message).toBe("The request headers are too large (16 KB at most).");
  });
});
