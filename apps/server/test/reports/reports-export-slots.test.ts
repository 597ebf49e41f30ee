import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import { seedSyntheticReports } from "../../scripts/synthetic-reports.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf } from "../support/helpers.ts";

// Exports read every matching report: at most two run at once on an instance, so that a few
// users exporting a large school cannot hold every other call (issue 4's export, and the
// security review that froze the server with twenty at once).
const tests = apiTests();

describe.each(dialects)("CSV export slots on %s", (dialect) => {
  const test = tests[dialect];

  test.beforeAll(async ({ t }) => {
    await seedSyntheticReports(t.database.db, 6_000);
  });

  test("runs two exports at once, asks a third to come back, and frees the slots when done", async ({
    t,
    admin,
  }) => {
    // An admin reads every report (a teacher, only theirs and their classes': none of these).
    const exportAll = () =>
      t.app.inject({ method: "GET", url: "/api/reports/export.csv", headers: admin.auth });

    const answers = await Promise.all([exportAll(), exportAll(), exportAll()]);
    const done = answers.filter((r) => r.statusCode === 200);
    const busy = answers.filter((r) => r.statusCode === 429);
    expect(done).toHaveLength(2);
    expect(busy).toHaveLength(1);
    expect(busy[0]!.headers["retry-after"]).toBe("5");
    expect(errorOf(busy[0]!.body)).toEqual({ code: "rate_limited", message: messages.exportBusy });
    for (const res of done) expect(res.body.trimEnd().split("\r\n")).toHaveLength(6_001);

    const again = await exportAll();
    expect(again.statusCode).toBe(200);
  });
});
