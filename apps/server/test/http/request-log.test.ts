import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { createTestDatabase, dialects, type TestApp } from "../support/helpers.ts";

// The request log at info level: one line per request with its id, and nothing personal
// (searches for a student's name or an account's email) or secret (tokens in links).
describe.each(dialects)("request log (%s)", (dialect) => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let t: TestApp;
  let dataDir: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-log-"));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "info" });
    const made = await createTestDatabase(dialect);
    drop = made.drop;
    app = await buildApp({
      config,
      database: made.database,
      logger: true,
      logStream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    await app.ready();
    t = {
      app,
      config,
      database: made.database,
      dataDir,
      now: () => new Date(),
      close: async () => {},
    };
  });

  afterAll(async () => {
    await app?.close();
    await t?.database.close();
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("names each request by its id and keeps search terms, emails and tokens out", async () => {
    const admin = await signIn(t, "admin");
    const email = "pupil.person@example.com";
    lines.length = 0;
    const searched = await app.inject({
      method: "GET",
      url: `/api/admin/users?search=${encodeURIComponent(email)}&limit=5`,
      headers: admin.auth,
    });
    expect(searched.statusCode).toBe(200);
    await app.inject({ method: "GET", url: "/api/analytics/report?token=abc.def.ghi" });
    await app.inject({ method: "GET", url: "/api/reports?search=Ana%20Lopes&sort=name" });

    const requests = lines.filter((l) => l.msg === "request completed");
    expect(requests).toHaveLength(3);
    for (const line of requests) expect(line.reqId).toEqual(expect.any(String));
    expect(new Set(requests.map((l) => l.reqId)).size).toBe(3);
    const urls = requests.map((l) => (l.req as { url: string }).url);
    expect(urls).toEqual([
      "/api/admin/users?search=[redacted]&limit=5",
      "/api/analytics/report?token=[redacted]",
      "/api/reports?search=[redacted]&sort=name",
    ]);
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain("pupil.person");
    expect(everything).not.toContain("Ana");
    expect(everything).not.toContain("abc.def.ghi");
  });

  it("shows an email in the path as [redacted] and keeps the ids (issue 26)", async () => {
    const admin = await signIn(t, "admin");
    const teacher = await signIn(t, "teacher");
    const classId = await makeClass(t, { teachers: [teacher.user.uid] });
    const pupil = "pia.pupil@example.com";
    lines.length = 0;
    const cancelled = await app.inject({
      method: "DELETE",
      url: `/api/classes/${classId}/invitations/${encodeURIComponent(pupil)}`,
      headers: teacher.auth,
    });
    expect(cancelled.statusCode).toBe(404);
    await app.inject({
      method: "DELETE",
      url: "/api/admin/invitations/pia.pupil%40example.com",
      headers: admin.auth,
    });

    const requests = lines.filter((l) => l.msg === "request completed");
    expect(requests.map((l) => (l.req as { url: string }).url)).toEqual([
      `/api/classes/${classId}/invitations/[redacted]`,
      "/api/admin/invitations/[redacted]",
    ]);
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain("pia.pupil");
  });
});
