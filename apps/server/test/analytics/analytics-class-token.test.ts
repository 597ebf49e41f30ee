import type { EmbedAnswer, StaffReport } from "@gradecast/contract/analytics";
import { describe, expect } from "vitest";
import { type SignedInUser, signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";

// A teacher's analytics view of one of their classes (issue 17), chosen in the host page and
// carried by the embed token: GET /api/analytics/embed?classId= checks the class when it makes
// the token (a teacher's own class, any class for an admin; another teacher's class is not
// found), and the report's data call reads the class from the token and checks it again.

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    teacher: ["teacher", { name: "Tess Teacher" }],
    otherTeacher: ["teacher", { name: "Olga Other" }],
    admin: "admin",
    student: ["student", { name: "Petra Pupil" }],
  },
});

describe.each(dialects)("analytics of one class through the embed token (%s)", (dialect) => {
  const test = tests[dialect];
  let classA: string;
  let classA2: string;
  let classB: string;

  test.beforeAll(async ({ t, people }) => {
    const second = await signIn(t, "student", { name: "Sami Second" });
    const third = await signIn(t, "student", { name: "Bea Other" });
    classA = await makeClass(t, {
      teachers: [people.teacher.user.uid],
      students: [people.student.user.uid],
    });
    classA2 = await makeClass(t, {
      teachers: [people.teacher.user.uid],
      students: [second.user.uid],
    });
    classB = await makeClass(t, {
      teachers: [people.otherTeacher.user.uid],
      students: [third.user.uid],
    });
    const file = async (who: SignedInUser, studentId: string, times: number) => {
      for (let i = 0; i < times; i++) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/reports",
          headers: who.auth,
          payload: { ...validReport, studentName: "x", studentId },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
    };
    await file(people.teacher, people.student.user.uid, 2);
    await file(people.teacher, second.user.uid, 3);
    await file(people.otherTeacher, third.user.uid, 4);
  });

  const embed = (t: TestApp, who: SignedInUser, classId?: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/analytics/embed${classId === undefined ? "" : `?classId=${classId}`}`,
      headers: who.auth,
    });
  const tokenOf = (res: { json: () => unknown }) =>
    new URL((res.json() as EmbedAnswer).url, "http://x").searchParams.get("token")!;
  const report = (t: TestApp, token: string, classId?: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/analytics/report?token=${encodeURIComponent(token)}${classId ? `&classId=${classId}` : ""}`,
    });
  const reportsIn = async (t: TestApp, token: string) => {
    const res = await report(t, token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as StaffReport).totals.reports;
  };

  test("gives a teacher all of their classes, or the one chosen", async ({ t, people }) => {
    const all = await embed(t, people.teacher);
    expect(all.statusCode).toBe(200);
    expect(await reportsIn(t, tokenOf(all))).toBe(5);
    const one = await embed(t, people.teacher, classA);
    expect(one.statusCode).toBe(200);
    expect(await reportsIn(t, tokenOf(one))).toBe(2);
    expect(await reportsIn(t, tokenOf(await embed(t, people.teacher, classA2)))).toBe(3);
  });

  test("makes no token for another teacher's class, a made-up class, or a student", async ({
    t,
    people,
  }) => {
    for (const classId of [classB, "00000000-0000-4000-8000-000000000000", "not-a-class"]) {
      const res = await embed(t, people.teacher, classId);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain("token");
    }
    const bystander = await embed(t, people.student, classA);
    expect(bystander.statusCode).toBe(403);
    const extra = await t.app.inject({
      method: "GET",
      url: "/api/analytics/embed?classId=1&role=admin",
      headers: people.teacher.auth,
    });
    expect(extra.statusCode).toBe(400);
  });

  test("lets an admin choose any class", async ({ t, people }) => {
    const res = await embed(t, people.admin, classB);
    expect(res.statusCode).toBe(200);
    expect(await reportsIn(t, tokenOf(res))).toBe(4);
  });

  test("keeps the token's class: another class in the address is refused", async ({
    t,
    people,
  }) => {
    const token = tokenOf(await embed(t, people.teacher, classA));
    expect((await report(t, token, classA2)).statusCode).toBe(403);
    expect((await report(t, token, classB)).statusCode).toBe(403);
    expect((await report(t, token, classA)).statusCode).toBe(200);
  });

  test("stops a class's token once its teacher has left the class", async ({ t, people }) => {
    const token = tokenOf(await embed(t, people.teacher, classA2));
    const membership = { class_id: classA2, teacher_id: people.teacher.user.uid };
    await t.database.db
      .deleteFrom("class_teachers")
      .where("class_id", "=", membership.class_id)
      .where("teacher_id", "=", membership.teacher_id)
      .execute();
    try {
      const res = await report(t, token);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain("Sami");
    } finally {
      // Back in the class, for the tests that run after this one in a shuffled order.
      await t.database.db.insertInto("class_teachers").values(membership).execute();
    }
  });
});
