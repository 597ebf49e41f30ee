import { deletedStudentName, formerStaffName } from "@gradecast/contract/personal-data";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect } from "vitest";
import { postLogin, type SignedInUser, totpCode } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { call, deleteMine, fillEverything, runDailyJob, uniqueName, userRows } from "./support.ts";

// Issue 31 through the API: what each role's export holds (and never another person's data),
// deleting an account by its owner or by an admin (re-authentication, the grace period, signing
// in cancels it, the purge, the audit log's pseudonyms, reports about a deleted student per the
// school's setting), and retention (periods, what is due, a confirmed purge, automatic purges,
// students to review).

const tests = apiTests({ env: { RATE_LIMITS: "off" }, clock: true });
const day = 86_400_000;

async function exportOf(t: TestApp, who: SignedInUser): Promise<Record<string, string>> {
  const res = await call(t, "GET", "/api/me/export", who);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers["content-type"]).toBe("application/zip");
  expect(res.headers["cache-control"]).toBe("no-store");
  const files = unzipSync(new Uint8Array(res.rawPayload));
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]));
}

const json = (files: Record<string, string>, name: string) =>
  JSON.parse(files[name] ?? "null") as Record<string, unknown>[];

async function reauth(t: TestApp, who: SignedInUser) {
  const res = await call(t, "POST", "/api/auth/reauth", who, {
    password: who.password,
    ...(who.mfaSecret ? { code: totpCode(who.mfaSecret, t.now()) } : {}),
  });
  expect(res.statusCode, res.body).toBe(204);
}

describe.each(dialects)("data rights (%s)", (dialect) => {
  const test = tests[dialect];
  test.afterEach(({ clock }) => clock.reset());

  test("a student's export holds their answers, predictions, reports about them, records and audit entries", async ({
    t,
    signedIn,
  }) => {
    const student = await signedIn("student", { name: uniqueName("Ana") });
    const teacher = await signedIn("teacher", { name: uniqueName("Tom") });
    const classmate = await signedIn("student", { name: uniqueName("Cleo") });
    const classId = await fillEverything(t, student, teacher);
    await t.database.db
      .insertInto("enrolments")
      .values({ class_id: classId, student_id: classmate.user.uid })
      .execute();
    const files = await exportOf(t, student);
    expect(json(files, "users.json")[0]).toMatchObject({
      email: student.email,
      name: student.user.name,
    });
    expect(files["users.json"]).not.toContain("password_hash");
    expect(json(files, "students.json")).toHaveLength(1);
    expect(json(files, "predictions.json")).toHaveLength(1);
    expect(json(files, "student_reports.student_id.json")[0]).toMatchObject({
      feedback: `${student.user.name} works well.`,
    });
    expect(json(files, "intervention_notes.student_id.json")).toHaveLength(1);
    expect(json(files, "school_records.json")[0]).toMatchObject({ g1: 11 });
    expect(json(files, "record_entries.student_id.json")).toHaveLength(1);
    expect(json(files, "class_invitations.email.json")).toHaveLength(1);
    expect(json(files, "enrolments.json")).toHaveLength(1);
    expect(json(files, "audit_log.target.json").some((e) => e.action === "test.about")).toBe(true);
    expect(files["predictions.csv"]?.split("\r\n")[0]).toContain("score");
    expect(files["README.txt"]).toContain(student.email);
    expect(Array.isArray(json(files, "prediction-explanations.json"))).toBe(true);
    // Nobody else's data: not the classmate, nor the teacher's other work.
    const all = Object.values(files).join("\n");
    expect(all).not.toContain(classmate.user.uid);
    expect(all).not.toContain(classmate.email);
    expect(all).not.toContain(teacher.email);
    expect(await auditOf(t, "privacy.exported", student.user.uid)).toHaveLength(1);
  });

  test("a teacher's export lists what they wrote about students without what it says", async ({
    t,
    signedIn,
  }) => {
    const student = await signedIn("student", { name: uniqueName("Ben") });
    const teacher = await signedIn("teacher", { name: uniqueName("Tess") });
    await fillEverything(t, student, teacher);
    const files = await exportOf(t, teacher);
    expect(json(files, "users.json")[0]).toMatchObject({ email: teacher.email, role: "teacher" });
    const reports = json(files, "student_reports.author_id.json");
    expect(reports).toHaveLength(1);
    expect(Object.keys(reports[0] ?? {}).sort()).toEqual(
      ["class_id", "course", "created_at", "id", "updated_at"].sort(),
    );
    expect(json(files, "intervention_notes.author_id.json")).toHaveLength(1);
    expect(json(files, "class_teachers.json").length).toBeGreaterThan(0);
    const all = Object.values(files).join("\n");
    expect(all).not.toContain(student.user.name);
    expect(all).not.toContain(student.email);
    expect(all).not.toContain(student.user.uid);
  });

  test("an admin's export is their own account, not the school's", async ({ t, signedIn }) => {
    const admin = await signedIn("admin");
    const student = await signedIn("student");
    const files = await exportOf(t, admin);
    expect(json(files, "users.json")[0]).toMatchObject({ email: admin.email, role: "admin" });
    expect(Object.values(files).join("\n")).not.toContain(student.email);
    expect(files["users.json"]).not.toContain("mfa_secret");
  });

  test("deleting one's account asks for the password again, signs out, and signing in cancels it", async ({
    t,
    signedIn,
    clock,
  }) => {
    const student = await signedIn("student");
    const anon = await call(t, "POST", "/api/me/deletion", undefined, {
      confirm: "delete-account",
    });
    expect(anon.statusCode).toBe(401);
    expect((await call(t, "POST", "/api/me/deletion", student, {})).statusCode).toBe(400);
    clock.tick(11 * 60_000);
    const stale = await deleteMine(t, student);
    expect(stale.statusCode).toBe(403);
    expect(errorOf(stale.body).code).toBe("reauth_required");
    await reauth(t, student);
    const res = await deleteMine(t, student);
    expect(res.statusCode, res.body).toBe(202);
    const answer = res.json() as { dueAt: string; graceDays: number };
    expect(answer.graceDays).toBe(14);
    expect(new Date(answer.dueAt).getTime() - t.now().getTime()).toBe(14 * day);
    expect((await call(t, "GET", "/api/me", student)).statusCode).toBe(401);
    expect(await auditOf(t, "privacy.deletion_requested", student.user.uid)).toHaveLength(1);

    clock.tick(3 * day);
    const login = await postLogin(t, student.email);
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ deletionCancelled: true });
    const waiting = await t.database.db.selectFrom("account_deletions").selectAll().execute();
    expect(waiting.filter((d) => d.user_id === student.user.uid)).toEqual([]);
    expect(await auditOf(t, "privacy.deletion_cancelled", student.user.uid)).toHaveLength(1);
    // The next sign-in says nothing more.
    expect((await postLogin(t, student.email)).json()).not.toHaveProperty("deletionCancelled");
    // Past the grace period nothing is purged: the account stays.
    clock.tick(20 * day);
    await runDailyJob(t);
    const kept = await userRows(t, student);
    expect(kept).toHaveLength(1);
  });

  test("an admin deletes an account on request: only an admin, re-authenticated, with a reason; it can be cancelled", async ({
    t,
    signedIn,
    clock,
  }) => {
    const admin = await signedIn("admin");
    const teacher = await signedIn("teacher");
    const student = await signedIn("student", { name: uniqueName("Dora") });
    const other = await signedIn("student");
    const url = `/api/admin/users/${student.user.uid}/deletion`;
    const body = { confirm: "delete-account", reason: "Asked by email on 27 November" };
    // A teacher, or a student on another student: refused, and nothing waits.
    expect((await call(t, "POST", url, teacher, body)).statusCode).toBe(403);
    expect((await call(t, "POST", url, other, body)).statusCode).toBe(403);
    expect((await call(t, "DELETE", url, other)).statusCode).toBe(403);
    expect((await call(t, "POST", url, admin, { confirm: "delete-account" })).statusCode).toBe(400);
    const self = await call(t, "POST", `/api/admin/users/${admin.user.uid}/deletion`, admin, body);
    expect(self.statusCode).toBe(400);
    const none = await call(t, "POST", "/api/admin/users/not-an-id/deletion", admin, body);
    expect(none.statusCode).toBe(404);
    clock.tick(11 * 60_000);
    const stale = await call(t, "POST", url, admin, body);
    expect(errorOf(stale.body).code).toBe("reauth_required");
    await reauth(t, admin);
    expect((await call(t, "POST", url, admin, body)).statusCode).toBe(202);
    expect((await call(t, "GET", "/api/me", student)).statusCode).toBe(401);

    const page = await call(t, "GET", "/api/admin/data-protection", admin);
    expect(page.statusCode).toBe(200);
    const listed = (page.json() as { deletions: { uid: string; via: string }[] }).deletions;
    expect(listed.find((d) => d.uid === student.user.uid)).toMatchObject({ via: "admin" });

    expect((await call(t, "DELETE", url, admin)).statusCode).toBe(204);
    // Again: nothing waits, nothing to do.
    expect((await call(t, "DELETE", url, admin)).statusCode).toBe(204);
    expect(await auditOf(t, "privacy.deletion_cancelled", student.user.uid)).toHaveLength(1);
    expect((await call(t, "POST", url, admin, body)).statusCode).toBe(202);
    const entries = await auditOf(t, "privacy.deletion_requested", student.user.uid);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.actor_id).toBe(admin.user.uid);
    expect(JSON.stringify(entries)).not.toContain("Asked by email");

    clock.tick(15 * day);
    await runDailyJob(t);
    const gone = await userRows(t, student);
    expect(gone).toEqual([]);
    // The audit log keeps the entries, the person replaced by a pseudonym.
    expect(await auditOf(t, "privacy.deletion_requested", student.user.uid)).toEqual([]);
    const purged = await t.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "privacy.account_purged")
      .execute();
    const pseudonym = purged.map((p) => p.target).find((p) => p?.startsWith("erased-"));
    expect(pseudonym).toBeDefined();
    expect(await auditOf(t, "privacy.deletion_requested", pseudonym as string)).toHaveLength(2);
  });

  test("reports about a deleted student are kept anonymised, or deleted, as the school set", async ({
    t,
    signedIn,
    clock,
  }) => {
    try {
      const admin = await signedIn("admin");
      const teacher = await signedIn("teacher", { name: uniqueName("Theo") });
      const kept = await signedIn("student", { name: uniqueName("Eva") });
      const dropped = await signedIn("student", { name: uniqueName("Finn") });
      await fillEverything(t, kept, teacher);
      const classId = await makeClass(t, {
        teachers: [teacher.user.uid],
        students: [dropped.user.uid],
      });
      await t.database.db
        .insertInto("student_reports")
        .values({
          author_id: teacher.user.uid,
          student_name: dropped.user.name,
          course: "Maths",
          marks: 40,
          attendance: 80,
          assignments: 2,
          behavior: "Good",
          feedback: "Fine.",
          student_id: dropped.user.uid,
          class_id: classId,
        })
        .execute();
      expect((await deleteMine(t, kept)).statusCode).toBe(202);
      clock.tick(15 * day);
      await runDailyJob(t);
      const anonymised = await t.database.db
        .selectFrom("student_reports")
        .selectAll()
        .where("author_id", "=", teacher.user.uid)
        .where("class_id", "<>", classId)
        .execute();
      expect(anonymised).toHaveLength(1);
      expect(anonymised[0]).toMatchObject({
        student_id: null,
        student_name: deletedStudentName,
        feedback: `${deletedStudentName} works well.`,
      });
      // The teacher's intervention note about the deleted student went with the student.
      clock.reset();
      const admin2 = await signedIn("admin");
      const set = await call(t, "PATCH", "/api/admin/data-protection", admin2, {
        deletedStudentReports: "delete",
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ deletedStudentReports: "delete" });
      expect((await deleteMine(t, dropped)).statusCode).toBe(202);
      clock.tick(15 * day);
      await runDailyJob(t);
      const left = await t.database.db
        .selectFrom("student_reports")
        .select("id")
        .where("class_id", "=", classId)
        .execute();
      expect(left).toEqual([]);
      expect(admin.user.role).toBe("admin");
    } finally {
      await t.database.db
        .updateTable("privacy_settings")
        .set({ deleted_student_reports: "anonymise" })
        .execute();
    }
  });

  test("a purged teacher's reports stay with the school under a former staff member", async ({
    t,
    signedIn,
    clock,
  }) => {
    const teacher = await signedIn("teacher", { name: uniqueName("Gus") });
    const student = await signedIn("student", { name: uniqueName("Hana") });
    const classId = await fillEverything(t, student, teacher);
    expect((await deleteMine(t, teacher)).statusCode).toBe(202);
    clock.tick(15 * day);
    await runDailyJob(t);
    const report = await t.database.db
      .selectFrom("student_reports as r")
      .innerJoin("users as u", "u.id", "r.author_id")
      .select(["u.name", "r.student_id"])
      .where("r.class_id", "=", classId)
      .executeTakeFirstOrThrow();
    expect(report).toEqual({ name: formerStaffName, student_id: student.user.uid });
    const note = await t.database.db
      .selectFrom("intervention_notes")
      .select(["author_id", "author_name"])
      .where("class_id", "=", classId)
      .executeTakeFirstOrThrow();
    expect(note).toEqual({ author_id: null, author_name: formerStaffName });
  });

  test("the daily job waits in the jobs table for its next run: one, whatever runs before it", async ({
    t,
  }) => {
    const waiting = () =>
      t.database.db
        .selectFrom("jobs")
        .select(["run_after"])
        .where("kind", "=", "privacy.daily")
        .where("key", "=", "daily")
        .where("state", "=", "queued")
        .execute();
    // Queued when the app started (a row: a restart finds it; one claim runs it).
    await t.app.ready();
    const first = await waiting();
    expect(first).toHaveLength(1);
    expect(new Date(first[0]?.run_after as unknown as string).getTime()).toBeGreaterThan(
      Date.now(),
    );
    await runDailyJob(t);
    await runDailyJob(t);
    expect(await waiting()).toHaveLength(1);
  });

  test("retention: an admin sets a period, sees what is due, confirms the purge; automatic purges; review", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const teacher = await signedIn("teacher");
    const student = await signedIn("student");
    const db = t.database.db;
    // Generated<Timestamp> columns take no value in Kysely's types: the test writes one anyway.
    const old = new Date(t.now().getTime() - 40 * day) as never;
    const base = {
      user_id: student.user.uid,
      inputs: "{}",
      score: 10,
      raw_score: 10,
      interval_low: 8,
      interval_high: 12,
      extrapolation: false,
      model_version: "test",
    };
    await db
      .insertInto("predictions")
      .values({ ...base, created_at: old })
      .execute();
    await db.insertInto("predictions").values(base).execute();
    const predictionsLeft = async () =>
      (
        await db
          .selectFrom("predictions")
          .select("id")
          .where("user_id", "=", student.user.uid)
          .execute()
      ).length;

    const refused = await call(t, "PATCH", "/api/admin/data-protection", teacher, {});
    expect(refused.statusCode).toBe(403);
    const bad = await call(t, "PATCH", "/api/admin/data-protection", admin, {
      retention: [{ category: "account", keepDays: 30, autoPurge: false }],
    });
    expect(bad.statusCode).toBe(400);
    const set = await call(t, "PATCH", "/api/admin/data-protection", admin, {
      retention: [{ category: "predictions", keepDays: 30, autoPurge: false }],
    });
    expect(set.statusCode, set.body).toBe(200);
    const row = (
      set.json() as { retention: { category: string; due: number; keepDays: number }[] }
    ).retention.find((r) => r.category === "predictions");
    expect(row).toMatchObject({ keepDays: 30 });
    expect(row?.due).toBeGreaterThanOrEqual(1);
    expect(await auditOf(t, "privacy.settings_changed", "")).toEqual([]);

    // The notice says how long predictions are kept now.
    const notice = (await call(t, "GET", "/api/privacy", undefined)).json() as {
      sections: { table: string; kept: string }[];
    };
    expect(notice.sections.find((s) => s.table === "predictions")?.kept).toContain("30 days");

    // The daily job only counts: nothing goes until the admin confirms.
    await runDailyJob(t);
    expect(await predictionsLeft()).toBe(2);
    const purge = await call(t, "POST", "/api/admin/data-protection/purge", admin, {
      category: "predictions",
    });
    expect(purge.statusCode, purge.body).toBe(202);
    await t.app.jobs.idle();
    expect(await predictionsLeft()).toBe(1);
    const done = await call(
      t,
      "GET",
      `/api/jobs/${(purge.json() as { jobId: string }).jobId}`,
      admin,
    );
    expect(done.json()).toMatchObject({ state: "done" });
    expect(await auditOf(t, "privacy.retention_purged", "predictions")).not.toHaveLength(0);

    // Automatic: the daily job purges at once.
    await db
      .insertInto("predictions")
      .values({ ...base, created_at: old })
      .execute();
    await call(t, "PATCH", "/api/admin/data-protection", admin, {
      retention: [{ category: "predictions", keepDays: 30, autoPurge: true }],
    });
    await runDailyJob(t);
    expect(await predictionsLeft()).toBe(1);
    await call(t, "PATCH", "/api/admin/data-protection", admin, {
      retention: [{ category: "predictions", keepDays: null, autoPurge: false }],
    });

    // A student in no class for over a school year is listed for review.
    const idle = await db
      .insertInto("users")
      .values({
        name: "Idle Pupil",
        email: `idle-${student.user.uid}@example.com`,
        password_hash: "!",
        role: "student",
        pending_role: null,
        created_at: new Date(t.now().getTime() - 400 * day) as never,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const page = (await call(t, "GET", "/api/admin/data-protection", admin)).json() as {
      toReview: { uid: string }[];
    };
    expect(page.toReview.map((s) => s.uid)).toContain(idle.id);
    expect(page.toReview.map((s) => s.uid)).not.toContain(student.user.uid);
  });
});
