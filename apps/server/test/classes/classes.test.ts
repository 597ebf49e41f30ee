import { type ClassView, classMessages, joinCodeAlphabet } from "@gradecast/contract/classes";
import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import { api, type Caller } from "../support/class-helpers.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Classes (issue 17) for every relationship: anonymous, unverified, pending teacher, the class's
// teacher, a teacher of another class, an enrolled student, another student, an admin. Anybody
// without a part in a class gets the same 404 as for a class that does not exist.
const cast = {
  teacher: ["teacher", { name: "Ana Teacher" }],
  otherTeacher: ["teacher", { name: "Bo Teacher" }],
  spareTeacher: ["teacher", { name: "Cy Teacher" }],
  enrolled: ["student", { name: "Dee Student" }],
  otherStudent: ["student", { name: "Eve Student" }],
  admin: "admin",
  unverified: ["student", { verified: false }],
  unverifiedTeacher: ["teacher", { verified: false }],
  pending: ["teacher", { pending: true }],
} satisfies Record<string, Person>;
const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("classes (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;
  let klass: ClassView;
  let otherClass: ClassView;

  test.beforeAll(async ({ t, people }) => {
    c = api(t);
    klass = await c.createClass(people.teacher);
    otherClass = await c.createClass(people.otherTeacher, {
      name: "Portuguese 11A",
      subject: "por",
    });
    const joined = await c.join(people.enrolled, klass.joinCode);
    expect(joined.statusCode).toBe(201);
  });

  const classRows = async (t: TestApp) =>
    (await t.database.db.selectFrom("classes").selectAll().orderBy("id").execute()).map((r) =>
      JSON.stringify(r),
    );

  describe("POST /api/classes", () => {
    test("makes an approved teacher its teacher and gives it a join code", async ({
      t,
      people,
    }) => {
      const created = await c.createClass(people.teacher, { name: "  Maths 9C " });
      expect(created).toMatchObject({
        name: "Maths 9C",
        subject: "mat",
        year: "2026/27",
        studentCount: 0,
        teachers: [
          { id: people.teacher.user.uid, name: "Ana Teacher", email: people.teacher.email },
        ],
      });
      expect(created.joinCode).toHaveLength(8);
      expect([...(created.joinCode ?? "")].every((ch) => joinCodeAlphabet.includes(ch))).toBe(true);
      expect(joinCodeAlphabet).not.toMatch(/[01OIL]/);
      const entries = await auditOf(t, "class.create", created.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.actor_id).toBe(people.teacher.user.uid);
    });

    test("lets an admin create a class, with no teacher yet", async ({ people }) => {
      const created = await c.createClass(people.admin, {
        name: "Admin class",
        subject: "por",
        year: "2026",
      });
      expect(created.teachers).toEqual([]);
    });

    test.for([
      ["anonymous", 401, "unauthorized"],
      ["enrolled", 403, "forbidden"],
      ["pending", 403, "forbidden"],
      ["unverifiedTeacher", 403, "email_not_verified"],
    ] as const)(
      "refuses %s (%i %s) and creates nothing",
      async ([name, status, code], { t, people }) => {
        const before = await classRows(t);
        const caller = name === "anonymous" ? undefined : people[name];
        const res = await c.call("POST", "/api/classes", caller, {
          name: "X",
          subject: "mat",
          year: "2026",
        });
        expect(res.statusCode).toBe(status);
        expect(errorOf(res.body).code).toBe(code);
        expect(await classRows(t)).toEqual(before);
      },
    );

    test("names each bad field and creates nothing", async ({ t, people }) => {
      const before = await classRows(t);
      const res = await c.call("POST", "/api/classes", people.teacher, {
        name: " ",
        subject: "bio",
        year: "x".repeat(21),
      });
      expect(res.statusCode).toBe(400);
      const error = errorOf(res.body);
      expect(error.fields).toEqual({
        name: classMessages.nameRequired,
        subject: classMessages.subject,
        year: "Use at most 20 characters.",
      });
      const unknown = await c.call("POST", "/api/classes", people.teacher, {
        name: "A",
        subject: "mat",
        year: "2026",
        joinCode: "AAAAAAAA",
      });
      expect(unknown.statusCode).toBe(400);
      expect(errorOf(unknown.body).fields).toHaveProperty("joinCode");
      expect(await classRows(t)).toEqual(before);
    });
  });

  describe("GET /api/classes", () => {
    const ids = async (caller: Caller) => {
      const res = await c.call("GET", "/api/classes", caller);
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      return res.json().items as ClassView[];
    };

    test("gives a teacher their classes only, with the codes", async ({ people }) => {
      const items = await ids(people.teacher);
      expect(items.map((i) => i.id)).toContain(klass.id);
      expect(items.map((i) => i.id)).not.toContain(otherClass.id);
      expect(items.find((i) => i.id === klass.id)?.joinCode).toBe(klass.joinCode);
    });

    test("gives a student the classes they are enrolled in, without the code", async ({
      people,
    }) => {
      const items = await ids(people.enrolled);
      expect(items.map((i) => i.id)).toEqual([klass.id]);
      expect(items[0]).not.toHaveProperty("joinCode");
      expect(items[0]?.teachers.map((tt) => tt.id)).toEqual([people.teacher.user.uid]);
      expect(await ids(people.otherStudent)).toEqual([]);
      expect(await ids(people.pending)).toEqual([]);
    });

    test("gives an admin every class", async ({ people }) => {
      const items = await ids(people.admin);
      expect(items.map((i) => i.id)).toEqual(expect.arrayContaining([klass.id, otherClass.id]));
      expect(items.find((i) => i.id === otherClass.id)?.joinCode).toBe(otherClass.joinCode);
    });

    test("refuses an unverified email and anonymous callers", async ({ people }) => {
      const res = await c.call("GET", "/api/classes", people.unverified);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res.body)).toEqual({
        code: "email_not_verified",
        message: messages.emailNotVerified,
      });
      expect((await c.call("GET", "/api/classes", undefined)).statusCode).toBe(401);
    });
  });

  describe("GET /api/classes/:id", () => {
    test.for([
      ["teacher", 200, true],
      ["admin", 200, true],
      ["enrolled", 200, false],
      ["otherTeacher", 404, false],
      ["otherStudent", 404, false],
      ["pending", 404, false],
    ] as const)("%s: %i (join code shown: %s)", async ([name, status, showsCode], { people }) => {
      const res = await c.call("GET", `/api/classes/${klass.id}`, people[name]);
      expect(res.statusCode).toBe(status);
      if (status === 404) {
        // The same answer as for a class that does not exist.
        const missing = await c.call(
          "GET",
          "/api/classes/00000000-0000-4000-8000-000000000000",
          people[name],
        );
        expect(res.body).toBe(missing.body);
        expect(res.body).not.toContain(klass.name);
        return;
      }
      const body = res.json().class as ClassView;
      expect(body.name).toBe(klass.name);
      expect(body.studentCount).toBe(1);
      if (showsCode) expect(body.joinCode).toBe(klass.joinCode);
      else expect(body).not.toHaveProperty("joinCode");
    });

    test("refuses an unverified email (403) and anonymous callers (401)", async ({ people }) => {
      const res = await c.call("GET", `/api/classes/${klass.id}`, people.unverified);
      expect(errorOf(res.body).code).toBe("email_not_verified");
      expect((await c.call("GET", `/api/classes/${klass.id}`, undefined)).statusCode).toBe(401);
      expect((await c.call("GET", "/api/classes/not-a-uuid", people.admin)).statusCode).toBe(404);
    });
  });

  describe("PATCH /api/classes/:id", () => {
    test("lets its teacher rename it, audited with before and after", async ({ t, people }) => {
      const mine = await c.createClass(people.teacher, { name: "Old name" });
      const res = await c.call("PATCH", `/api/classes/${mine.id}`, people.teacher, {
        name: "New name",
        year: "2027/28",
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().class).toMatchObject({ name: "New name", year: "2027/28", subject: "mat" });
      const [entry] = await auditOf(t, "class.update", mine.id);
      expect(entry?.details).toEqual({
        before: { name: "Old name", year: "2026/27" },
        after: { name: "New name", year: "2027/28" },
      });
      const admin = await c.call("PATCH", `/api/classes/${mine.id}`, people.admin, {
        subject: "por",
      });
      expect(admin.json().class.subject).toBe("por");
    });

    test("refuses others and bad bodies, changing nothing", async ({ t, people }) => {
      const before = await classRows(t);
      const cases: [Caller, number][] = [
        [people.otherTeacher, 404],
        [people.enrolled, 403],
        [people.pending, 403],
        [undefined, 401],
      ];
      for (const [caller, status] of cases) {
        const res = await c.call("PATCH", `/api/classes/${klass.id}`, caller, { name: "Hacked" });
        expect(res.statusCode).toBe(status);
      }
      const empty = await c.call("PATCH", `/api/classes/${klass.id}`, people.teacher, {});
      expect(empty.statusCode).toBe(400);
      expect(errorOf(empty.body).message).toBe(classMessages.nothingToChange);
      expect(await classRows(t)).toEqual(before);
    });
  });

  describe("co-teachers", () => {
    test("adds an approved teacher by email, who then reaches the class; never the last removed", async ({
      t,
      people,
    }) => {
      const mine = await c.createClass(people.teacher, { name: "Shared class" });
      const add = await c.call("POST", `/api/classes/${mine.id}/teachers`, people.teacher, {
        email: people.spareTeacher.email.toUpperCase(),
      });
      expect(add.statusCode).toBe(200);
      expect((add.json().class as ClassView).teachers.map((x) => x.id).sort()).toEqual(
        [people.teacher.user.uid, people.spareTeacher.user.uid].sort(),
      );
      const [added] = await auditOf(t, "class.teacher_added", mine.id);
      expect(added?.details).toMatchObject({ teacherId: people.spareTeacher.user.uid });
      const seen = await c.call("GET", `/api/classes/${mine.id}`, people.spareTeacher);
      expect(seen.json().class.joinCode).toBe(mine.joinCode);

      const again = await c.call("POST", `/api/classes/${mine.id}/teachers`, people.teacher, {
        email: people.spareTeacher.email,
      });
      expect(again.statusCode).toBe(409);

      // The original teacher leaves; the co-teacher, now the last one, cannot.
      const leave = await c.takeOff(people.spareTeacher, mine.id, "teachers", people.teacher);
      expect(leave.statusCode).toBe(204);
      expect(await auditOf(t, "class.teacher_removed", mine.id)).toHaveLength(1);
      expect((await c.call("GET", `/api/classes/${mine.id}`, people.teacher)).statusCode).toBe(404);
      const last = await c.takeOff(people.spareTeacher, mine.id, "teachers", people.spareTeacher);
      expect(last.statusCode).toBe(409);
      expect(errorOf(last.body).message).toBe(classMessages.lastTeacher);
    });

    test("refuses emails that are not an approved teacher's, and other teachers' classes", async ({
      people,
    }) => {
      for (const email of [people.pending.email, people.enrolled.email, "nobody@example.com"]) {
        const res = await c.call("POST", `/api/classes/${klass.id}/teachers`, people.teacher, {
          email,
        });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res.body).fields).toEqual({ email: classMessages.notATeacher });
      }
      const other = await c.call("POST", `/api/classes/${klass.id}/teachers`, people.otherTeacher, {
        email: people.otherTeacher.email,
      });
      expect(other.statusCode).toBe(404);
      const student = await c.call("POST", `/api/classes/${klass.id}/teachers`, people.enrolled, {
        email: people.otherTeacher.email,
      });
      expect(student.statusCode).toBe(403);
      const view = await c.call("GET", `/api/classes/${klass.id}`, people.teacher);
      expect(view.json().class.teachers).toHaveLength(1);
    });
  });

  describe("members and removing a student", () => {
    test("lists enrolled students to the class's teachers and admins only", async ({ people }) => {
      const res = await c.call("GET", `/api/classes/${klass.id}/members`, people.teacher);
      expect(res.statusCode).toBe(200);
      expect(res.json().students).toEqual([
        expect.objectContaining({ id: people.enrolled.user.uid, name: "Dee Student" }),
      ]);
      expect(res.json().invitations).toEqual([]);
      expect(
        (await c.call("GET", `/api/classes/${klass.id}/members`, people.admin)).statusCode,
      ).toBe(200);
      for (const [caller, status] of [
        [people.otherTeacher, 404],
        [people.enrolled, 403],
        [people.otherStudent, 403],
        [people.unverifiedTeacher, 403],
        [undefined, 401],
      ] as [Caller, number][]) {
        const refused = await c.call("GET", `/api/classes/${klass.id}/members`, caller);
        expect(refused.statusCode).toBe(status);
        expect(refused.body).not.toContain("Dee Student");
      }
    });

    test("removes a student, who then no longer reaches the class", async ({ t, people }) => {
      const mine = await c.createClass(people.teacher, { name: "Removal class" });
      await c.join(people.otherStudent, mine.joinCode);
      const refused = await c.takeOff(
        people.otherTeacher,
        mine.id,
        "students",
        people.otherStudent,
      );
      expect(refused.statusCode).toBe(404);
      const res = await c.takeOff(people.teacher, mine.id, "students", people.otherStudent);
      expect(res.statusCode).toBe(204);
      expect((await c.call("GET", `/api/classes/${mine.id}`, people.otherStudent)).statusCode).toBe(
        404,
      );
      const [entry] = await auditOf(t, "class.student_removed", mine.id);
      expect(entry?.details).toEqual({ studentId: people.otherStudent.user.uid });
      const twice = await c.takeOff(people.teacher, mine.id, "students", people.otherStudent);
      expect(twice.statusCode).toBe(404);
      expect(errorOf(twice.body).message).toBe(classMessages.notEnrolled);
    });
  });

  describe("DELETE /api/classes/:id", () => {
    test("deletes the class for its teacher, audited; refuses everyone else", async ({
      t,
      people,
    }) => {
      const mine = await c.createClass(people.teacher, { name: "Short-lived" });
      await c.join(people.otherStudent, mine.joinCode);
      for (const [caller, status] of [
        [people.otherTeacher, 404],
        [people.otherStudent, 403],
        [people.pending, 403],
        [undefined, 401],
      ] as [Caller, number][]) {
        expect((await c.call("DELETE", `/api/classes/${mine.id}`, caller)).statusCode).toBe(status);
      }
      expect((await c.call("GET", `/api/classes/${mine.id}`, people.teacher)).statusCode).toBe(200);
      expect((await c.call("DELETE", `/api/classes/${mine.id}`, people.teacher)).statusCode).toBe(
        204,
      );
      expect((await c.call("GET", `/api/classes/${mine.id}`, people.admin)).statusCode).toBe(404);
      const [entry] = await auditOf(t, "class.delete", mine.id);
      expect(entry?.details).toMatchObject({ name: "Short-lived" });
      const enrolments = await t.database.db
        .selectFrom("enrolments")
        .selectAll()
        .where("class_id", "=", mine.id)
        .execute();
      expect(enrolments).toEqual([]);
    });

    test("lets an admin delete any class", async ({ people }) => {
      const theirs = await c.createClass(people.otherTeacher, { name: "Admin removes" });
      expect((await c.call("DELETE", `/api/classes/${theirs.id}`, people.admin)).statusCode).toBe(
        204,
      );
    });
  });
});
