import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { apiAccess } from "@gradecast/contract/api-access";
import { defaultOptionalQuestions } from "@gradecast/contract/questionnaire";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { apiTests } from "../support/fixtures.ts";
import { createTestApp, dialects, errorOf } from "../support/helpers.ts";

const tests = apiTests({});

describe.each(dialects)("skeleton on %s", (dialect) => {
  const test = tests[dialect];

  test("reports health with the database and the model ok, and the model's version", async ({
    t,
  }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    const artifact = JSON.parse(
      readFileSync(
        new URL("../../../../packages/model/artifact/model.json", import.meta.url),
        "utf8",
      ),
    ) as { modelVersion: string };
    expect(res.json()).toEqual({
      status: "ok",
      db: "ok",
      dialect,
      model: "ok",
      modelVersion: artifact.modelVersion,
    });
  });

  test("describes its API at /api/docs: an OpenAPI document from the route schemas, and a page", async ({
    t,
  }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    // Every route of the access table, and nothing else.
    const described = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    expect(described.sort()).toEqual(Object.keys(apiAccess).sort());
    const register = doc.paths["/api/auth/register"]?.post as {
      security: unknown[];
      requestBody: { content: { "application/json": { schema: { properties: object } } } };
    };
    expect(register.security).toEqual([]);
    expect(Object.keys(register.requestBody.content["application/json"].schema.properties)).toEqual(
      ["name", "email", "password", "role", "dateOfBirth"],
    );
    const patch = doc.paths["/api/reports/{id}"]?.patch as {
      description: string;
      parameters: { name: string; in: string }[];
    };
    expect(patch.description).toBe("Who may call: teacher, admin.");
    expect(patch.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path" }));

    const page = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<h2>POST /api/reports</h2>");
    expect(page.body).toContain('href="/api/openapi.json"');
    expect(page.body).not.toMatch(/<script|style=/);
  });

  test("gives anyone the school's name and contact address, null (no placeholder) when unset", async ({
    t,
  }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      contactEmail: null,
      schoolName: null,
      optionalQuestions: [...defaultOptionalQuestions],
    });
    expect(res.headers["cache-control"]).toBe("public, max-age=300");

    // An app of its own: the contact address and school name are read from its environment at start.
    const school = await createTestApp(dialect, {
      env: { CONTACT_EMAIL: " helpdesk@school.example ", SCHOOL_NAME: " Hillside School " },
    });
    try {
      const own = await school.app.inject({ method: "GET", url: "/api/site" });
      expect(own.json()).toEqual({
        contactEmail: "helpdesk@school.example",
        schoolName: "Hillside School",
        optionalQuestions: [...defaultOptionalQuestions],
      });
    } finally {
      await school.close();
    }
  });

  test("answers an unknown API path with a JSON 404", async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(errorOf(res.body).code).toBe("not_found");
  });

  test("refuses a body over the route's limit with 413 in the error shape, naming the limit", async ({
    t,
  }) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.c", password: "x".repeat(10 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res.body)).toEqual({
      code: "payload_too_large",
      message: "The request body is too large (10 KB at most).",
    });
  });

  test("refuses malformed JSON with 400 in the error shape", async ({ t }) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).message).toMatch(/JSON/);
  });

  test("sends the security headers", async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
  });

  test("answers 503 with db unavailable when the database is gone", async () => {
    // A throwaway app of its own, since the test closes its database.
    const other = await createTestApp(dialect);
    await other.database.close();
    const res = await other.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ db: "unavailable" });
    await other.app.close();
  });
});

describe("configuration", () => {
  it("names every bad variable", () => {
    try {
      loadConfig({ PORT: "abc", DATABASE_URL: "mysql://x", TEACHER_SIGNUP: "maybe" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems[0]).toMatch(/^PORT="abc": /);
      expect(problems.join("\n")).toMatch(/DATABASE_URL="mysql:\/\/x"/);
      expect(problems.join("\n")).toMatch(/TEACHER_SIGNUP="maybe"/);
    }
  });

  it("refuses a CONTACT_EMAIL that is not an email address", () => {
    expect(() => loadConfig({ CONTACT_EMAIL: "help desk" })).toThrow(
      /CONTACT_EMAIL="help desk": must be an email address/,
    );
  });

  it("refuses a JWT_PRIVATE_KEY that is no Ed25519 key, and reads one written on one line", () => {
    for (const bad of [
      "-----BEGIN PRIVATE KEY-----garbage-----END PRIVATE KEY-----",
      generateKeyPairSync("rsa", { modulusLength: 1024 })
        .privateKey.export({ type: "pkcs8", format: "pem" })
        .toString(),
    ]) {
      expect(() => loadConfig({ JWT_PRIVATE_KEY: bad })).toThrow(
        /^ {2}JWT_PRIVATE_KEY=\(hidden\): must be a PEM-encoded Ed25519 private key$/m,
      );
    }
    const pem = generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    // As .env.example shows it: one line, "\n" for each line break.
    const oneLine = pem.trimEnd().replaceAll("\n", "\\n");
    expect(loadConfig({ JWT_PRIVATE_KEY: oneLine }).jwtPrivateKey).toBe(pem.trim());
    expect(loadConfig({ JWT_PRIVATE_KEY: pem }).jwtPrivateKey).toBe(pem.trim());
  });

  it("never prints a password found in a bad address", () => {
    expect(() => loadConfig({ SMTP_URL: "http://mailer:s3cret@mail.example" })).toThrow(
      /SMTP_URL="http:\/\/mailer:\*\*\*@mail\.example"/,
    );
    expect(() => loadConfig({ SMTP_URL: "http://mailer:s3cret@mail.example" })).not.toThrow(
      /s3cret/,
    );
  });

  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.teacherSignup).toBe("approval");
    expect(config.databaseUrl).toBeUndefined();
    // No made-up address: the sender is at the host people reach Gradecast by.
    expect(config.contactEmail).toBeUndefined();
    expect(config.mailFrom).toBe('"Gradecast" <no-reply@localhost>');
    expect(
      loadConfig({ SCHOOL_NAME: "Hillside School", PUBLIC_URL: "https://grades.hillside.example" })
        .mailFrom,
    ).toBe('"Hillside School" <no-reply@grades.hillside.example>');
  });
});
