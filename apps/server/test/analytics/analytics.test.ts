import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  analyticsMessages,
  type StaffReport,
  type StudentReport,
} from "@gradecast/contract/analytics";
import { messages } from "@gradecast/contract/messages";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedSigner } from "../../src/analytics/embed-token.ts";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { DB } from "../../src/db/schema.ts";
import { sendRefreshCookie } from "../support/accounts.ts";
import { addPrediction, addUser, embedSigner, sessionOf } from "../support/analytics-fixtures.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { type apiTest, apiTests } from "../support/fixtures.ts";
import { createTestDatabase, dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { studentsRow } from "../support/questionnaire-fixture.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// The analytics report's data (GET /api/analytics/report) against small fixtures whose expected
// figures are worked out by hand below, its embed token, and the framing headers of /report.

async function addReport(
  db: Kysely<DB>,
  authorId: string,
  r: [name: string, course: string, marks: number, attendance: number, behavior: string],
  at: string,
) {
  const [student_name, course, marks, attendance, behavior] = r;
  await db
    .insertInto("student_reports")
    .values({
      author_id: authorId,
      student_name,
      course,
      marks,
      attendance,
      assignments: 3,
      behavior,
      feedback: "ok",
      created_at: at as never,
      updated_at: at as never,
    })
    .execute();
}

async function addQuestionnaire(
  db: Kysely<DB>,
  userId: string,
  g1: number,
  g2: number,
  at: string,
) {
  await db
    .insertInto("students")
    .values({
      ...studentsRow({ ...sampleQuestionnaire, G1: g1, G2: g2 }),
      user_id: userId,
      created_at: at as never,
    })
    .execute();
}

// A fresh app per block (each block counts the whole school), with the app's own signer (same
// DATA_DIR, so the same secret).
const blocks = {
  staff: apiTests(),
  totals: apiTests(),
  student: apiTests(),
  token: apiTests(),
};

function withApp(test: ReturnType<typeof apiTest>) {
  const ctx = {} as {
    t: TestApp;
    sign: (userId: string, scope: "staff" | "student", now?: Date) => Promise<string>;
    report: (token: string) => Promise<Awaited<ReturnType<TestApp["app"]["inject"]>>>;
  };
  test.beforeAll(async ({ t }) => {
    ctx.t = t;
    ctx.sign = await embedSigner(t);
    ctx.report = (token: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/analytics/report?token=${encodeURIComponent(token)}`,
      });
  });
  return ctx;
}

describe.each(dialects)("analytics report on %s", (dialect) => {
  describe("staff scope", () => {
    const ctx = withApp(blocks.staff[dialect]);
    const report = (token: string) => ctx.report(token);
    const sign = (...a: Parameters<typeof ctx.sign>) => ctx.sign(...a);
    let teacherId: string;
    let adminId: string;

    beforeAll(async () => {
      const db = ctx.t.database.db;
      teacherId = await addUser(db, "Teacher Tess", "teacher");
      adminId = await addUser(db, "Admin Ada", "admin");
      const ana = await addUser(db, "Ana", "student");
      const eve = await addUser(db, "Eve", "student");
      const finn = await addUser(db, "Finn", "student");
      const gus = await addUser(db, "Gus", "student");
      // Six reports; Ben's later Maths report ("ben", another case) replaces his earlier one for
      // the at-risk list, but both count in every aggregate.
      const reports: Parameters<typeof addReport>[2][] = [
        ["Ana", "Maths", 35, 80, "Good"],
        ["Ana", "Physics", 72, 70, "Average"],
        ["Ben", "Maths", 30, 95, "Excellent"],
        ["ben", "Maths", 100, 100, "Excellent"],
        ["Cleo", "History", 55, 60, "Needs Improvement"],
        ["Dan", "Maths", 10, 50, "Poor"],
      ];
      for (const [i, r] of reports.entries()) {
        await addReport(db, teacherId, r, `2026-01-0${i + 1}T10:00:00Z`);
      }
      await addPrediction(db, ana, 12, "2026-02-01T10:00:00Z");
      await addPrediction(db, ana, 8, "2026-02-02T10:00:00Z");
      await addPrediction(db, eve, 15, "2026-02-01T10:00:00Z");
      await addPrediction(db, finn, 6.5, "2026-02-01T10:00:00Z");
      await addPrediction(db, gus, 13.99, "2026-02-01T10:00:00Z");
      // An admin's own prediction is not a student's: it counts nowhere.
      await addPrediction(db, adminId, 3, "2026-02-01T10:00:00Z");
      // The population: verified students enrolled in a class (Tess teaches it).
      await makeClass(ctx.t, { teachers: [teacherId], students: [ana, eve, finn, gus] });
    });

    it("computes every aggregate of the fixture", async () => {
      const res = await report(await sign(teacherId, "staff"));
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const body = res.json() as StaffReport;
      expect(body.scope).toBe("staff");

      // 6 reports; students ana, ben, cleo, dan (names compared without case); 5 predictions of
      // enrolled students (the admin's is not one).
      expect(body.totals).toEqual({ reports: 6, students: 4, predictions: 5 });

      // Marks 35, 72, 30, 100, 55, 10: 10 -> 10-19; 30, 35 -> 30-39; 55 -> 50-59; 72 -> 70-79;
      // 100 -> the last bin 90-100.
      expect(body.marks.map((b) => b.count)).toEqual([0, 1, 0, 2, 0, 1, 0, 1, 0, 1]);
      expect(body.marks[0]).toEqual({ from: 0, to: 10, count: 0 });
      expect(body.marks[9]).toEqual({ from: 90, to: 100, count: 1 });

      // Least squares of marks y on attendance x, x = 80 70 95 100 60 50, y = 35 72 30 100 55 10:
      // n = 6, Σx = 455, Σy = 302, Σx² = 36425, Σxy = 24490, Σy² = 20434.
      // n·Sxx = 6·36425 − 455² = 11525; n·Sxy = 6·24490 − 455·302 = 9530;
      // n·Syy = 6·20434 − 302² = 31400.
      const slope = 9530 / 11525;
      const intercept = (302 - slope * 455) / 6;
      const r = 9530 / Math.sqrt(11525 * 31400);
      const fit = body.attendanceVsMarks.fit!;
      expect(fit.slope).toBeCloseTo(slope, 3); // 0.8269
      expect(fit.intercept).toBeCloseTo(intercept, 3); // −12.3731
      expect(fit.r!).toBeCloseTo(r, 3); // 0.5010
      // Each report falls in a cell of its own (5 by 5), so each point is a report.
      expect(
        body.attendanceVsMarks.points
          .map((p) => [p.attendance, p.marks, p.count])
          .sort((a, b) => a[0]! - b[0]!),
      ).toEqual([
        [50, 10, 1],
        [60, 55, 1],
        [70, 72, 1],
        [80, 35, 1],
        [95, 30, 1],
        [100, 100, 1],
      ]);

      // Maths: (35 + 30 + 100 + 10) / 4 = 43.75; History 55; Physics 72. Most reports first.
      expect(body.courses).toEqual([
        { course: "Maths", averageMarks: 43.8, reports: 4 },
        { course: "History", averageMarks: 55, reports: 1 },
        { course: "Physics", averageMarks: 72, reports: 1 },
      ]);
      expect(body.otherCourses).toBe(0);

      expect(body.behavior).toEqual([
        { behavior: "Excellent", count: 2 },
        { behavior: "Good", count: 1 },
        { behavior: "Average", count: 1 },
        { behavior: "Needs Improvement", count: 1 },
        { behavior: "Poor", count: 1 },
      ]);

      // Latest prediction of each student: Ana 8 (good), Eve 15 (congratulations), Finn 6.5
      // (improve), Gus 13.99 (good). The admin's 3 is not a student's.
      expect(body.bands).toEqual([
        { band: "improve", count: 1 },
        { band: "good", count: 2 },
        { band: "congratulations", count: 1 },
      ]);

      // At risk: Ana (Maths marks 35, Physics attendance 70, predicted 8: three reasons), Dan
      // (Maths marks 10 and attendance 50), Cleo (History attendance 60), Finn (predicted 6.5).
      // Ben's latest Maths report (100, 100) clears his earlier 30. Gus's 13.99 is not under 10.
      expect(body.atRisk.total).toBe(4);
      expect(body.atRisk.students).toEqual([
        {
          name: "Ana",
          reasons: [
            { kind: "marks", course: "Maths", value: 35 },
            { kind: "attendance", course: "Physics", value: 70 },
            { kind: "predicted", value: 8 },
          ],
        },
        {
          name: "Dan",
          reasons: [
            { kind: "marks", course: "Maths", value: 10 },
            { kind: "attendance", course: "Maths", value: 50 },
          ],
        },
        { name: "Cleo", reasons: [{ kind: "attendance", course: "History", value: 60 }] },
        { name: "Finn", reasons: [{ kind: "predicted", value: 6.5 }] },
      ]);

      // The model's global importance, largest first, with the questionnaire's labels.
      const factors = body.importance.factors;
      expect(factors.length).toBeGreaterThan(5);
      expect(body.importance.modelVersion).toEqual(expect.any(String));
      for (let i = 1; i < factors.length; i++) {
        expect(factors[i - 1]!.importance).toBeGreaterThanOrEqual(factors[i]!.importance);
      }
      const g2 = factors.find((f) => f.feature === "G2");
      expect(g2?.label).toMatch(/grade|G2/i);
      expect(g2?.label).not.toBe("G2");
    });

    it("gives an admin the same staff report", async () => {
      const res = await report(await sign(adminId, "staff"));
      expect(res.statusCode).toBe(200);
      expect((res.json() as StaffReport).totals.reports).toBe(6);
    });
  });

  describe("running totals under inserts, edits and deletions", () => {
    const ctx = withApp(blocks.totals[dialect]);

    it("match a direct computation over the reports after every step", async () => {
      const db = ctx.t.database.db;
      const teacher = await addUser(db, "Rollup Teacher", "teacher");
      let seed = 42;
      const rand = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      const names = ["Ana", "ANA", "ana", "Bo", "Cy", "Dee", "Eli"];
      const courseNames = ["Maths", "maths", "Art", "Music"];
      const behaviorNames = ["Excellent", "Good", "Average", "Needs Improvement", "Poor"];
      const randomReport = (): Parameters<typeof addReport>[2] => [
        pick(names),
        pick(courseNames),
        pick([0, 39, 40, 55, 99, 100, int(0, 100)]),
        pick([0, 74, 75, 100, int(0, 100)]),
        pick(behaviorNames),
      ];

      const check = async (step: string) => {
        const all = await db.selectFrom("student_reports").selectAll().execute();
        const res = await ctx.report(await ctx.sign(teacher, "staff"));
        const body = res.json() as StaffReport;
        const n = all.length;
        expect(body.totals.reports, step).toBe(n);
        expect(body.totals.students, step).toBe(
          new Set(all.map((r) => r.student_name.toLowerCase())).size,
        );
        const bins = Array.from({ length: 10 }, () => 0);
        for (const r of all) bins[Math.min(Math.floor(r.marks / 10), 9)]! += 1;
        expect(
          body.marks.map((b) => b.count),
          step,
        ).toEqual(bins);
        for (const b of body.behavior) {
          expect(b.count, step).toBe(all.filter((r) => r.behavior === b.behavior).length);
        }
        const byCourse = new Map<string, number[]>();
        for (const r of all) byCourse.set(r.course, [...(byCourse.get(r.course) ?? []), r.marks]);
        for (const c of body.courses) {
          const marks = byCourse.get(c.course)!;
          expect(c.reports, step).toBe(marks.length);
          expect(c.averageMarks, step).toBeCloseTo(
            marks.reduce((a, b) => a + b, 0) / marks.length,
            1,
          );
        }
        expect(body.courses.length, step).toBe(byCourse.size);
        expect(
          body.attendanceVsMarks.points.reduce((a, p) => a + p.count, 0),
          step,
        ).toBe(n);
        const sx = all.reduce((a, r) => a + r.attendance, 0);
        const sy = all.reduce((a, r) => a + r.marks, 0);
        const vxx = n * all.reduce((a, r) => a + r.attendance ** 2, 0) - sx * sx;
        const vxy = n * all.reduce((a, r) => a + r.attendance * r.marks, 0) - sx * sy;
        if (vxx > 0) expect(body.attendanceVsMarks.fit!.slope, step).toBeCloseTo(vxy / vxx, 3);
        else expect(body.attendanceVsMarks.fit, step).toBeNull();
        // At risk: the latest report of each (student, course), without case.
        const latest = new Map<string, (typeof all)[number]>();
        for (const r of all) {
          const key = `${r.student_name.toLowerCase()}|${r.course.toLowerCase()}`;
          const seen = latest.get(key);
          const newer =
            !seen ||
            new Date(r.created_at as never).getTime() >
              new Date(seen.created_at as never).getTime() ||
            (new Date(r.created_at as never).getTime() ===
              new Date(seen.created_at as never).getTime() &&
              r.id > seen.id);
          if (newer) latest.set(key, r);
        }
        const atRisk = new Set(
          [...latest.values()]
            .filter((r) => r.marks < 40 || r.attendance < 75)
            .map((r) => r.student_name.toLowerCase()),
        );
        expect(body.atRisk.total, step).toBe(atRisk.size);
        expect(new Set(body.atRisk.students.map((s) => s.name.toLowerCase())), step).toEqual(
          atRisk,
        );
      };

      for (let round = 0; round < 4; round++) {
        // A multi-row insert (one statement), then single inserts.
        const rows = Array.from({ length: 12 }, () => randomReport());
        await db
          .insertInto("student_reports")
          .values(
            rows.map(([student_name, course, marks, attendance, behavior]) => ({
              author_id: teacher,
              student_name,
              course,
              marks,
              attendance,
              assignments: 2,
              behavior,
              feedback: "batch",
              created_at: new Date(Date.UTC(2026, 0, int(1, 28))) as never,
            })),
          )
          .execute();
        await addReport(
          db,
          teacher,
          randomReport(),
          `2026-02-${String(int(1, 28)).padStart(2, "0")}T00:00:00Z`,
        );
        await check(`round ${round}: inserts`);
        const ids = (await db.selectFrom("student_reports").select("id").execute()).map(
          (r) => r.id,
        );
        // Edits: values, and the name and course (which moves a report to another key).
        await db
          .updateTable("student_reports")
          .set({ marks: int(0, 100), attendance: int(0, 100) })
          .where(
            "id",
            "in",
            ids.filter(() => rand() < 0.3),
          )
          .execute();
        await db
          .updateTable("student_reports")
          .set({
            student_name: pick(names),
            course: pick(courseNames),
            behavior: pick(behaviorNames),
          })
          .where("id", "=", pick(ids))
          .execute();
        await check(`round ${round}: edits`);
        await db
          .deleteFrom("student_reports")
          .where(
            "id",
            "in",
            ids.filter(() => rand() < 0.25),
          )
          .execute();
        await check(`round ${round}: deletions`);
      }
      await db.deleteFrom("student_reports").execute();
      await check("all deleted");
      const left = await db
        .selectFrom("student_reports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
    });
  });

  describe("student scope and small groups", () => {
    const ctx = withApp(blocks.student[dialect]);
    const report = (token: string) => ctx.report(token);
    const sign = (...a: Parameters<typeof ctx.sign>) => ctx.sign(...a);
    let viewer: string;
    let others: string[];

    beforeAll(async () => {
      const db = ctx.t.database.db;
      viewer = await addUser(db, "Viewer Vera", "student");
      await addQuestionnaire(db, viewer, 9, 9, "2026-03-01T10:00:00Z");
      await addQuestionnaire(db, viewer, 12, 11, "2026-03-02T10:00:00Z");
      // Her latest prediction was made from other grades than her latest saved questionnaire:
      // the report shows that prediction with its own G1 and G2 (issue 21), never a mix.
      await addPrediction(db, viewer, 9.5, "2026-03-03T10:00:00Z", { G1: 9, G2: 9 });
      await addPrediction(db, viewer, 14.25, "2026-03-04T10:00:00Z", { G1: 15, G2: "14" });
      others = [];
      for (let i = 0; i < 8; i++) others.push(await addUser(db, `Other Student ${i}`, "student"));
      // Six others with G1 12 (bin 12-13), two with G1 4 (bin 4-5: a group of 2); all G2 10.
      for (const [i, id] of others.entries()) {
        await addQuestionnaire(db, id, i < 6 ? 12 : 4, 10, "2026-03-01T10:00:00Z");
      }
      // Only three others have a prediction: fewer than 5 in all.
      await addPrediction(db, others[0]!, 17.75, "2026-03-01T10:00:00Z");
      await addPrediction(db, others[1]!, 3.25, "2026-03-01T10:00:00Z");
      await addPrediction(db, others[2]!, 11.75, "2026-03-01T10:00:00Z");
      await makeClass(ctx.t, { teachers: [], students: [viewer, ...others] });
    });

    it("shows her own history, her grades and band, and only large enough groups of others", async () => {
      const res = await report(await sign(viewer, "student"));
      expect(res.statusCode).toBe(200);
      const body = res.json() as StudentReport;
      expect(body.scope).toBe("student");
      expect(body.name).toBe("Viewer Vera");
      expect(body.predictions.map((p) => p.score)).toEqual([9.5, 14.25]);
      expect(body.predictions[0]).toMatchObject({ low: 7.5, high: 11.5 });
      expect(body.predictions.map((p) => [p.g1, p.g2])).toEqual([
        [9, 9],
        [15, 14],
      ]);
      expect(body.latest).toEqual({
        at: "2026-03-04T10:00:00.000Z",
        g1: 15,
        g2: 14,
        prediction: 14.25,
        band: "congratulations",
        message: "Congratulations!",
      });

      // G1 of the others (she is not counted): 6 in 12-13 shown; 2 in 4-5 withheld, with a note.
      const g1 = body.cohort.g1;
      expect(g1.bins).toHaveLength(10);
      expect(g1.bins![6]).toEqual({ from: 12, to: 14, count: 6 });
      expect(g1.bins![2]).toEqual({ from: 4, to: 6, count: null });
      expect(g1.bins!.filter((b) => b.count === null)).toHaveLength(1);
      expect(g1.note).toBe(analyticsMessages.smallGroup);
      // G2: all 8 in 10-11, nothing withheld, no note.
      expect(body.cohort.g2.bins![5]).toEqual({ from: 10, to: 12, count: 8 });
      expect(body.cohort.g2.note).toBeNull();
      // Predictions: 3 others in all, so nothing at all, not even a count.
      expect(body.cohort.prediction).toEqual({ bins: null, note: analyticsMessages.smallCohort });
    });

    it("never reveals another student's rows", async () => {
      const res = await report(await sign(viewer, "student"));
      const text = res.body;
      for (const secret of ["Other Student", "17.75", "3.25", "11.75", ...others, "Ana", "Maths"]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/"(?:total|students|reports)"/);
      // Another student's token shows that student's own data, not hers.
      const res2 = await report(await sign(others[0]!, "student"));
      const other = res2.json() as StudentReport;
      expect(other.name).toBe("Other Student 0");
      expect(other.predictions.map((p) => p.score)).toEqual([17.75]);
      expect(res2.body).not.toContain("Viewer Vera");
      expect(res2.body).not.toContain("14.25");
    });

    it("with answers saved but no prediction, shows those answers with their date", async () => {
      const res = await report(await sign(others[3]!, "student"));
      expect((res.json() as StudentReport).latest).toEqual({
        at: "2026-03-01T10:00:00.000Z",
        g1: 12,
        g2: 10,
        prediction: null,
        band: null,
        message: "No prediction available.",
      });
    });

    it("refuses a student token that claims the staff scope", async () => {
      const res = await report(await sign(viewer, "staff"));
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body).code).toBe("invalid_token");
    });
  });

  describe("the embed token", () => {
    const ctx = withApp(blocks.token[dialect]);
    const report = (token: string) => ctx.report(token);
    const sign = (...a: Parameters<typeof ctx.sign>) => ctx.sign(...a);
    let studentId: string;
    beforeAll(async () => {
      studentId = await addUser(ctx.t.database.db, "Token Tom", "student");
    });

    it("is refused once expired (after 10 minutes)", async () => {
      const eleven = new Date(Date.now() - 11 * 60_000);
      const res = await report(await sign(studentId, "student", eleven));
      expect(res.statusCode).toBe(401);
      expect(errorOf(res.body)).toMatchObject({
        code: "invalid_token",
        message: analyticsMessages.badToken,
      });
      const nine = new Date(Date.now() - 9 * 60_000);
      expect((await report(await sign(studentId, "student", nine))).statusCode).toBe(200);
    });

    it("is refused when tampered with, missing, or signed with another key", async () => {
      const token = await sign(studentId, "student");
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, scope: "staff" })).toString(
        "base64url",
      );
      const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
      const otherDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-other-key-"));
      const foreign = await createEmbedSigner({ dataDir: otherDir, jwtPrivateKey: undefined });
      const sessionId = await sessionOf(ctx.t.database.db, studentId);
      const foreignToken = (
        await foreign.sign({ userId: studentId, sessionId, scope: "student" }, new Date())
      ).token;
      await rm(otherDir, { recursive: true, force: true });
      for (const bad of [
        `${header}.${forged}.${signature}`,
        `${header}.${payload}.${flipped}`,
        `${header}.${payload}.`,
        "not-a-token",
        foreignToken,
      ]) {
        const res = await report(bad);
        expect(res.statusCode, bad).toBe(401);
        expect(errorOf(res.body).code).toBe("invalid_token");
      }
      const none = await ctx.t.app.inject({ method: "GET", url: "/api/analytics/report" });
      expect(none.statusCode).toBe(401);
      errorOf(none.body);
    });

    it("is refused once the account is disabled", async () => {
      const id = await addUser(ctx.t.database.db, "Soon Disabled", "student");
      const token = await sign(id, "student");
      expect((await report(token)).statusCode).toBe(200);
      await ctx.t.database.db
        .updateTable("users")
        .set({ disabled: true })
        .where("id", "=", id)
        .execute();
      // As the admin service says of the accounts it changes (the token is checked as an ID
      // token is, through the signed-in user cache).
      ctx.t.database.usersChanged();
      expect((await report(token)).statusCode).toBe(401);
    });

    it("keeps its secret in DATA_DIR with mode 0600", async () => {
      const { stat } = await import("node:fs/promises");
      const info = await stat(path.join(ctx.t.dataDir, "embed-secret"));
      expect(info.mode & 0o777).toBe(0o600);
    });
  });
});

describe.each(dialects)("migration 0002 on a database with reports on %s", (dialect) => {
  it("fills the running totals from the reports already there", async () => {
    const rollups = await import("../../src/db/migrations/0002-analytics-rollups.ts");
    const created = await createTestDatabase(dialect);
    try {
      // Undo 0002 (the test database comes migrated), write reports, then run 0002 again.
      const db = created.database.db;
      await rollups.down(db as never);
      const teacher = await addUser(db, "Before Rollups", "teacher");
      await addReport(db, teacher, ["Zoe", "Art", 20, 90, "Poor"], "2026-01-01T00:00:00Z");
      await addReport(db, teacher, ["zoe", "Art", 80, 95, "Good"], "2026-01-02T00:00:00Z");
      await addReport(db, teacher, ["Yan", "Art", 50, 60, "Average"], "2026-01-03T00:00:00Z");
      await rollups.up(db as never);
      const { sql } = await import("kysely");
      const rows = await sql<{ dim: string; key: string; n: number }>`
        select dim, key, n::int as n from analytics_report_rollup
        where dim in ('all', 'student', 'course') order by dim, key`.execute(db);
      expect(rows.rows).toEqual([
        { dim: "all", key: "", n: 3 },
        { dim: "course", key: "Art", n: 3 },
        { dim: "student", key: "yan", n: 1 },
        { dim: "student", key: "zoe", n: 2 },
      ]);
      // Zoe's latest Art report (80, 95) is the one the at-risk list reads.
      const latest = await sql<{ student_key: string; marks: number }>`
        select student_key, marks from analytics_latest_report order by 1`.execute(db);
      expect(latest.rows).toEqual([
        { student_key: "yan", marks: 50 },
        { student_key: "zoe", marks: 80 },
      ]);
      // And the triggers are back: a new report counts at once.
      await addReport(db, teacher, ["Xia", "Art", 70, 80, "Good"], "2026-01-04T00:00:00Z");
      const all = await sql<{ n: number }>`
        select n::int as n from analytics_report_rollup where dim = 'all'`.execute(db);
      expect(all.rows[0]?.n).toBe(4);
    } finally {
      await created.database.close();
      await created.drop();
    }
  });
});

const embedTests = apiTests({ env: { RATE_LIMITS: "off" } });
// A second app, for a school whose reports live in an external dashboard.
const externalTests = apiTests({
  env: {
    RATE_LIMITS: "off",
    ANALYTICS_EMBED_URL: "https://bi.example-school.org/public/dashboard/0f3c",
  },
});

describe.each(dialects)("GET /api/analytics/embed on %s", (dialect) => {
  const test = embedTests[dialect];
  const embed = (app: TestApp, headers?: Record<string, string>) =>
    app.app.inject({ method: "GET", url: "/api/analytics/embed", headers });

  test("gives each role a 10-minute report address for its own scope only", async ({
    t,
    signedIn,
  }) => {
    for (const [role, scope] of [
      ["student", "student"],
      ["teacher", "staff"],
      ["admin", "staff"],
    ] as const) {
      const who = await signedIn(role, { name: `Embed ${role}` });
      const before = Date.now();
      const res = await embed(t, who.auth);
      const after = Date.now();
      expect(res.statusCode, role).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const body = res.json() as { url: string; expiresAt: string; external: boolean };
      expect(body.external).toBe(false);
      expect(body.url).toMatch(/^\/report\?token=[\w.-]+$/);
      // Ten minutes from when the server answered, however long the call took on a busy machine
      // (a fixed second of slack failed when it took longer); expiresAt is whole seconds.
      const expires = new Date(body.expiresAt).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
      expect(expires).toBeLessThanOrEqual(after + 10 * 60_000 + 1000);
      const token = new URL(body.url, "http://x").searchParams.get("token")!;
      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
      // Only the viewer, the session and the scope: no name, email or role.
      expect(Object.keys(claims).sort()).toEqual([
        "aud",
        "exp",
        "iat",
        "iss",
        "scope",
        "sid",
        "sub",
      ]);
      expect(claims).toMatchObject({ sub: who.user.uid, scope });
      const report = await t.app.inject({
        method: "GET",
        url: `/api${body.url.replace("/report", "/analytics/report")}`,
      });
      expect(report.statusCode, role).toBe(200);
      expect((report.json() as { scope: string }).scope).toBe(scope);
    }
  });

  test("gives an account whose email is not verified no report, and ends an address made before", async ({
    t,
    signedIn,
  }) => {
    const who = await signedIn("student", { verified: false });
    const refused = await embed(t, who.auth);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused.body)).toEqual({
      code: "email_not_verified",
      message: messages.emailNotVerified,
    });
    // An address made while verified stops working if the account is no longer (an address
    // changed by an admin, say): the report re-reads the viewer.
    const verified = await signedIn("teacher");
    const body = (await embed(t, verified.auth)).json() as { url: string };
    await t.database.db
      .updateTable("users")
      .set({ email_verified: false })
      .where("id", "=", verified.user.uid)
      .execute();
    t.database.usersChanged();
    const report = await t.app.inject({
      method: "GET",
      url: `/api${body.url.replace("/report", "/analytics/report")}`,
    });
    expect(report.statusCode).toBe(401);
  });

  test("ends the report's address when its session ends (sign-out)", async ({ t, signedIn }) => {
    const who = await signedIn("teacher");
    const body = (await embed(t, who.auth)).json() as { url: string };
    const data = () =>
      t.app.inject({
        method: "GET",
        url: `/api${body.url.replace("/report", "/analytics/report")}`,
      });
    expect((await data()).statusCode).toBe(200);
    const out = await sendRefreshCookie(t, "logout", who.refreshToken);
    expect(out.statusCode).toBe(204);
    const refused = await data();
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused.body).code).toBe("invalid_token");
  });

  test("refuses anonymous callers, and an ID token is no embed token", async ({ t, signedIn }) => {
    const res = await embed(t);
    expect(res.statusCode).toBe(401);
    errorOf(res.body);
    const who = await signedIn("teacher");
    const report = await t.app.inject({
      method: "GET",
      url: `/api/analytics/report?token=${encodeURIComponent(who.token)}`,
    });
    expect(report.statusCode).toBe(401);
    expect(errorOf(report.body).code).toBe("invalid_token");
  });

  externalTests[dialect](
    "hands out the external report when ANALYTICS_EMBED_URL is set",
    async ({ t: external, signedIn }) => {
      const who = await signedIn("student");
      const res = await embed(external, who.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        url: "https://bi.example-school.org/public/dashboard/0f3c",
        expiresAt: null,
        external: true,
      });
    },
  );
});

describe.each(dialects)("the report page's framing headers on %s", (dialect) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let drop: () => Promise<void>;
  let closeDb: () => Promise<void>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-frame-"));
    const webDist = path.join(dataDir, "web");
    await mkdir(webDist, { recursive: true });
    await writeFile(path.join(webDist, "index.html"), "<!doctype html><title>Gradecast</title>");
    await mkdir(path.join(webDist, "assets"));
    await writeFile(path.join(webDist, "assets", "app-0123abcd.js"), "export {};");
    const created = await createTestDatabase(dialect);
    drop = created.drop;
    closeDb = () => created.database.close();
    app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }),
      database: created.database,
      logger: false,
      webDist,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await closeDb?.();
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const directive = (csp: unknown, name: string) =>
    String(csp)
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  it("lets this origin frame /report and nobody frame /login", async () => {
    const reportPage = await app.inject({ method: "GET", url: "/report?token=abc" });
    expect(reportPage.statusCode).toBe(200);
    expect(reportPage.body).toContain("<title>Gradecast</title>");
    expect(directive(reportPage.headers["content-security-policy"], "frame-ancestors")).toBe(
      "frame-ancestors 'self'",
    );
    expect(reportPage.headers["x-frame-options"]).toBe("SAMEORIGIN");
    // The rest of the policy is untouched.
    expect(directive(reportPage.headers["content-security-policy"], "script-src")).toBe(
      "script-src 'self'",
    );
    expect(
      String(reportPage.headers["content-security-policy"]).match(/frame-ancestors/g),
    ).toHaveLength(1);

    expect(reportPage.headers["cache-control"]).toBe("no-cache");

    for (const url of ["/login", "/student-dashboard", "/", "/index.html"]) {
      const page = await app.inject({ method: "GET", url });
      // Never an hour-old page naming the scripts of a replaced build.
      expect(page.headers["cache-control"], url).toBe("no-cache");
      if (url === "/") {
        // Built files carry their content's hash in their name: cached for good.
        const asset = await app.inject({ method: "GET", url: "/assets/app-0123abcd.js" });
        expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      }
      expect(directive(page.headers["content-security-policy"], "frame-ancestors"), url).toBe(
        "frame-ancestors 'none'",
      );
      expect(page.headers["x-frame-options"], url).toBe("DENY");
    }
    const api = await app.inject({ method: "GET", url: "/api/health" });
    expect(directive(api.headers["content-security-policy"], "frame-ancestors")).toBe(
      "frame-ancestors 'none'",
    );
  });
});
