import { messages } from "@gradecast/contract/messages";
import type {
  EnrolledStudent,
  LinkedReport,
  MyReportsPage,
} from "@gradecast/contract/report-students";
import { reportStudentMessages } from "@gradecast/contract/report-students";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { type SignedInUser, signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";
import { exportedIds } from "../support/reports-csv-parser.ts";

// Reports about enrolled students (issue 17): who reads, lists, searches, exports, edits and
// deletes a report about a student of a class; a teacher naming a student outside their classes;
// free-text reports linked later; what the student reads about themselves (GET /api/me/reports).

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    author: ["teacher", { name: "Alma Author" }],
    coTeacher: ["teacher", { name: "Cole Coteacher" }],
    otherTeacher: ["teacher", { name: "Olga Outsider" }],
    admin: ["admin", { name: "Ada Admin" }],
    pupil: ["student", { name: "Petra Pupil" }],
    otherPupil: ["student", { name: "Quentin Quill" }],
    loner: ["student", { name: "Lorna Loner" }],
  },
});

describe.each(dialects)("report visibility on %s", (dialect) => {
  const test = tests[dialect];
  let classId: string;
  let otherClassId: string;

  test.beforeAll(async ({ t, people }) => {
    classId = await makeClass(t, {
      name: "Maths 10A",
      teachers: [people.author.user.uid, people.coTeacher.user.uid],
      students: [people.pupil.user.uid],
    });
    otherClassId = await makeClass(t, {
      name: "Maths 10B",
      teachers: [people.otherTeacher.user.uid],
      students: [people.otherPupil.user.uid],
    });
  });

  const call = (
    t: TestApp,
    who: SignedInUser,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });
  const file = async (t: TestApp, who: SignedInUser, body: object) => {
    const res = await call(t, who, "POST", "/api/reports", { ...validReport, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { report: LinkedReport }).report;
  };
  const count = async (t: TestApp) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from student_reports`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );
  const listed = async (t: TestApp, who: SignedInUser, search = "") => {
    const res = await call(
      t,
      who,
      "GET",
      `/api/reports?limit=100&search=${encodeURIComponent(search)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: LinkedReport[] }).items.map((r) => r.id);
  };
  const exported = (t: TestApp, who: SignedInUser) => exportedIds(t, who);
  const mine = async (t: TestApp, who: SignedInUser, query = "") => {
    const res = await call(t, who, "GET", `/api/me/reports${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MyReportsPage;
  };

  test("files a report about an enrolled student under the account's name and the class", async ({
    t,
    people,
  }) => {
    const report = await file(t, people.author, {
      studentId: people.pupil.user.uid,
      studentName: "Someone Else",
    });
    expect(report).toMatchObject({
      studentId: people.pupil.user.uid,
      classId,
      studentName: "Petra Pupil",
      authorName: "Alma Author",
    });
  });

  test("shows it to the author, the co-teacher, the admin and the student; no one else finds it", async ({
    t,
    people,
  }) => {
    const report = await file(t, people.author, {
      studentId: people.pupil.user.uid,
      course: "Visibility check",
    });
    for (const who of [people.author, people.coTeacher, people.admin]) {
      expect(await listed(t, who)).toContain(report.id);
      expect(await listed(t, who, "petra")).toContain(report.id);
      expect(await exported(t, who)).toContain(report.id);
      const read = await call(t, who, "GET", `/api/reports/${report.id}`);
      expect(read.statusCode, read.body).toBe(200);
    }
    expect(await listed(t, people.otherTeacher)).not.toContain(report.id);
    expect(await listed(t, people.otherTeacher, "petra")).toEqual([]);
    expect(await exported(t, people.otherTeacher)).not.toContain(report.id);
    const read = await call(t, people.otherTeacher, "GET", `/api/reports/${report.id}`);
    expect(read.statusCode).toBe(404);
    expect(errorOf(read.body).message).toBe(messages.notFound);
    expect(read.body).not.toContain("Petra");

    const own = await mine(t, people.pupil);
    const seen = own.items.find((r) => r.id === report.id);
    expect(seen).toMatchObject({
      course: "Visibility check",
      teacherName: "Alma Author",
      className: "Maths 10A",
      studentName: "Petra Pupil",
    });
    expect(Date.parse(seen?.createdAt ?? "")).not.toBeNaN();
    expect((await mine(t, people.otherPupil)).items.map((r) => r.id)).not.toContain(report.id);
    expect((await mine(t, people.loner)).items).toEqual([]);
    // Students never reach the teachers' calls.
    expect((await call(t, people.pupil, "GET", "/api/reports")).statusCode).toBe(403);
    expect((await call(t, people.pupil, "GET", `/api/reports/${report.id}`)).statusCode).toBe(403);
  });

  test("lets only the author and an admin edit and delete; the co-teacher 403, another teacher 404", async ({
    t,
    people,
  }) => {
    const report = await file(t, people.author, {
      studentId: people.pupil.user.uid,
      course: "Edit rules",
    });
    const url = `/api/reports/${report.id}`;
    const refusals = [
      [people.coTeacher, 403],
      [people.otherTeacher, 404],
    ] as const;
    for (const [who, status] of refusals) {
      expect((await call(t, who, "PATCH", url, { marks: 1 })).statusCode).toBe(status);
      expect((await call(t, who, "DELETE", url)).statusCode).toBe(status);
    }
    const unchanged = await call(t, people.author, "GET", `/api/reports/${report.id}`);
    expect((unchanged.json() as { report: LinkedReport }).report.marks).toBe(validReport.marks);

    const byAuthor = await call(t, people.author, "PATCH", `/api/reports/${report.id}`, {
      marks: 70,
    });
    expect(byAuthor.statusCode, byAuthor.body).toBe(200);
    const byAdmin = await call(t, people.admin, "PATCH", `/api/reports/${report.id}`, {
      marks: 71,
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await mine(t, people.pupil)).items.find((r) => r.id === report.id)?.marks).toBe(71);
    expect((await call(t, people.author, "DELETE", `/api/reports/${report.id}`)).statusCode).toBe(
      204,
    );
    expect((await mine(t, people.pupil)).items.map((r) => r.id)).not.toContain(report.id);
  });

  test("refuses (403) a student outside the teacher's classes, whatever the id, storing nothing", async ({
    t,
    people,
  }) => {
    const before = await count(t);
    for (const body of [
      { studentId: people.otherPupil.user.uid },
      { studentId: people.loner.user.uid },
      { studentId: "00000000-0000-4000-8000-000000000000" },
      { studentId: people.otherPupil.user.uid, classId: otherClassId },
      // A student of the teacher's class named through a class the teacher does not teach.
      { studentId: people.pupil.user.uid, classId: otherClassId },
    ]) {
      const res = await call(t, people.author, "POST", "/api/reports", { ...validReport, ...body });
      const why = `${JSON.stringify(body)}: ${res.body}`;
      if (body.classId === otherClassId && body.studentId === people.pupil.user.uid) {
        expect(res.statusCode, why).toBe(400);
        expect(errorOf(res.body).fields).toHaveProperty("classId");
      } else {
        expect(res.statusCode, why).toBe(403);
        expect(errorOf(res.body).message).toBe(reportStudentMessages.notYourStudent);
      }
    }
    const bad = await call(t, people.author, "POST", "/api/reports", {
      ...validReport,
      studentId: "nope",
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).fields).toHaveProperty("studentId");
    expect(await count(t)).toBe(before);
  });

  test("keeps a free-text report to its author and admins until it is linked to the student", async ({
    t,
    people,
  }) => {
    const report = await file(t, people.author, { studentName: "Petra P.", course: "Free text" });
    expect(report.studentId).toBeNull();
    expect(await listed(t, people.coTeacher)).not.toContain(report.id);
    expect((await call(t, people.coTeacher, "GET", `/api/reports/${report.id}`)).statusCode).toBe(
      404,
    );
    expect((await mine(t, people.pupil)).items.map((r) => r.id)).not.toContain(report.id);
    expect(await listed(t, people.admin)).toContain(report.id);

    // Another teacher may not link it, nor may the author link it to a student not theirs.
    const foreign = await call(t, people.author, "PATCH", `/api/reports/${report.id}`, {
      studentId: people.otherPupil.user.uid,
    });
    expect(foreign.statusCode).toBe(403);
    const linked = await call(t, people.author, "PATCH", `/api/reports/${report.id}`, {
      studentId: people.pupil.user.uid,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect((linked.json() as { report: LinkedReport }).report).toMatchObject({
      studentId: people.pupil.user.uid,
      classId,
      studentName: "Petra Pupil",
    });
    expect(await listed(t, people.coTeacher)).toContain(report.id);
    expect((await mine(t, people.pupil)).items.map((r) => r.id)).toContain(report.id);

    // Once linked, the name is the account's.
    const renamed = await call(t, people.author, "PATCH", `/api/reports/${report.id}`, {
      studentName: "Another Name",
    });
    expect(renamed.statusCode).toBe(400);
    expect(errorOf(renamed.body).fields?.studentName).toBe(reportStudentMessages.nameFromAccount);
  });

  test("offers the picker only the teacher's enrolled students (an admin every class's)", async ({
    t,
    people,
  }) => {
    const names = async (who: SignedInUser, search: string) => {
      const res = await call(t, who, "GET", `/api/classes/students?search=${search}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: EnrolledStudent[] }).items;
    };
    expect(await names(people.author, "pet")).toEqual([
      { studentId: people.pupil.user.uid, name: "Petra Pupil", classId, className: "Maths 10A" },
    ]);
    expect(await names(people.author, "quentin")).toEqual([]);
    expect(await names(people.author, "lorna")).toEqual([]);
    // Other tests of this file enrol students of their own: the admin's list is checked for
    // these two classes' students and for the student in no class, not for an exact roster.
    const seenByAdmin = (await names(people.admin, "")).map((s) => s.name);
    expect(seenByAdmin).toEqual(expect.arrayContaining(["Petra Pupil", "Quentin Quill"]));
    expect(seenByAdmin).not.toContain("Lorna Loner");
    expect((await call(t, people.pupil, "GET", "/api/classes/students")).statusCode).toBe(403);
  });

  test("pages the student's reports newest first, 25 then the rest, none twice", async ({
    t,
    people,
  }) => {
    const student = await signIn(t, "student", { name: "Paging Pupil" });
    await makeClass(t, { teachers: [people.coTeacher.user.uid], students: [student.user.uid] });
    for (let i = 0; i < 30; i++) {
      await file(t, people.coTeacher, { studentId: student.user.uid, course: `Course ${i}` });
    }
    const first = await mine(t, student);
    expect(first.items).toHaveLength(25);
    expect(first.items[0]?.course).toBe("Course 29");
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await mine(t, student, `?cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const all = [...first.items, ...second.items].map((r) => r.course);
    expect(new Set(all).size).toBe(30);
    expect(all.at(-1)).toBe("Course 0");
    const bad = await call(t, student, "GET", "/api/me/reports?cursor=bm9wZQ");
    expect(bad.statusCode).toBe(400);
  });
});
