import type { LinkedReport } from "@gradecast/contract/report-students";
import { describe, expect } from "vitest";
import { type ClassVerb, classAccess } from "../../src/classes/policy.ts";
import { DomainError } from "../../src/domain-errors.ts";
import { type ReportVerb, reportAccess } from "../../src/reports/policy.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";

// The relationship checks as domain policies (issue 27): for every relationship a caller can
// have to a class or a report, the verbs the policy lets them use and the refusal for the rest,
// asked of the policy itself (no route, no HTTP); and the class check of a request that checks
// before reading its body runs once, not again in the service.

const classVerbs: ClassVerb[] = ["read", "manage", "note"];
const reportVerbs: ReportVerb[] = ["read", "change"];

/** What a policy answers: "allowed", or the refusal's kind (not_found, forbidden). */
async function answerOf(check: () => Promise<unknown>): Promise<string> {
  try {
    await check();
    return "allowed";
  } catch (error) {
    if (error instanceof DomainError) return error.kind;
    throw error;
  }
}

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    classTeacher: ["teacher", { name: "Clara Teacher" }],
    coTeacher: ["teacher", { name: "Cole Coteacher" }],
    otherTeacher: "teacher",
    enrolled: ["student", { name: "Eli Enrolled" }],
    otherStudent: "student",
    admin: "admin",
    pending: ["teacher", { pending: true }],
  },
});

describe.each(dialects)("domain policies on %s", (dialect) => {
  const test = tests[dialect];
  let classId: string;
  let report: LinkedReport;

  test.beforeAll(async ({ t, people }) => {
    classId = await makeClass(t, {
      teachers: [people.classTeacher.user.uid, people.coTeacher.user.uid],
      students: [people.enrolled.user.uid],
    });
    await makeClass(t, {
      teachers: [people.otherTeacher.user.uid],
      students: [people.otherStudent.user.uid],
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/reports",
      headers: people.classTeacher.auth,
      payload: { ...validReport, studentId: people.enrolled.user.uid, classId },
    });
    expect(res.statusCode, res.body).toBe(201);
    report = (res.json() as { report: LinkedReport }).report;
  });

  const caller = (who: SignedInUser) => ({ user: { id: who.user.uid, role: who.user.role } });
  const services = (t: TestApp) => ({ db: t.database.db });

  /** What a policy answers each person for each verb, by person then verb. */
  async function answers<Verb extends string>(
    people: Record<string, SignedInUser>,
    verbs: Verb[],
    check: (who: SignedInUser, verb: Verb) => Promise<unknown>,
  ): Promise<Record<string, Record<string, string>>> {
    const table: Record<string, Record<string, string>> = {};
    for (const [name, who] of Object.entries(people)) {
      table[name] = {};
      for (const verb of verbs) table[name][verb] = await answerOf(() => check(who, verb));
    }
    return table;
  }

  test("lets each relationship to a class use its verbs only, 404 for the rest", async ({
    t,
    people,
  }) => {
    const table = await answers(people, classVerbs, (who, verb) =>
      classAccess(services(t), caller(who), classId, verb),
    );
    const none = { read: "not_found", manage: "not_found", note: "not_found" };
    expect(table).toEqual({
      classTeacher: { read: "allowed", manage: "allowed", note: "allowed" },
      coTeacher: { read: "allowed", manage: "allowed", note: "allowed" },
      otherTeacher: none,
      enrolled: { read: "allowed", manage: "not_found", note: "not_found" },
      otherStudent: none,
      admin: { read: "allowed", manage: "allowed", note: "not_found" },
      // A teacher sign-up waiting for an admin is a student account, in no class.
      pending: none,
    });
  });

  test("names the relationship with the class it hands on", async ({ t, people }) => {
    const relationOf = async (who: SignedInUser) =>
      (await classAccess(services(t), caller(who), classId, "read")).relation;
    expect(await relationOf(people.classTeacher)).toBe("teacher");
    expect(await relationOf(people.coTeacher)).toBe("teacher");
    expect(await relationOf(people.enrolled)).toBe("student");
    expect(await relationOf(people.admin)).toBe("admin");
    const access = await classAccess(services(t), caller(people.admin), classId, "manage");
    expect(access.record.id).toBe(classId);
  });

  test("answers 404 for a class that does not exist or an id that is not one, whoever asks", async ({
    t,
    people,
  }) => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      expect(await answerOf(() => classAccess(services(t), caller(people.admin), id, "read"))).toBe(
        "not_found",
      );
    }
  });

  test("lets each relationship to a report use its verbs only: 404 out of sight, 403 to change what one only reads", async ({
    t,
    people,
  }) => {
    const table = await answers(people, reportVerbs, (who, verb) =>
      reportAccess(services(t), caller(who), report.id, verb),
    );
    const none = { read: "not_found", change: "not_found" };
    expect(table).toEqual({
      classTeacher: { read: "allowed", change: "allowed" }, // its author
      coTeacher: { read: "allowed", change: "forbidden" },
      otherTeacher: none,
      // A student reads reports about them through their own list, never through this check.
      enrolled: none,
      otherStudent: none,
      admin: { read: "allowed", change: "allowed" },
      pending: none,
    });
    expect(
      (await reportAccess(services(t), caller(people.coTeacher), report.id, "read")).relation,
    ).toBe("classTeacher");
  });

  describe("runs the class check once per request", () => {
    /** The SQL of every query the app sends while `act` runs. */
    const queriesDuring = async (t: TestApp, act: () => Promise<unknown>) => {
      const executor = t.database.db.getExecutor();
      const original = executor.executeQuery;
      const seen: string[] = [];
      executor.executeQuery = ((compiled, ...rest) => {
        seen.push(compiled.sql);
        return original.call(executor, compiled, ...rest);
      }) as typeof original;
      try {
        await act();
      } finally {
        executor.executeQuery = original;
      }
      return seen;
    };
    // The class policy's own questions: the class's row, and whether the caller teaches it.
    const classLookups = (sqls: string[]) =>
      sqls.filter((s) => /from "classes" as "c"\s+where "c"\."id" =/.test(s)).length;
    const teacherChecks = (sqls: string[]) =>
      sqls.filter((s) => /from "class_teachers" where/.test(s)).length;

    test("when a teacher adds an intervention note", async ({ t, people }) => {
      const sqls = await queriesDuring(t, async () => {
        const res = await api(t).call(
          "POST",
          `/api/classes/${classId}/students/${people.enrolled.user.uid}/notes`,
          people.coTeacher,
          { action: "Called home.", doneOn: "2026-11-20" },
        );
        expect(res.statusCode, res.body).toBe(201);
      });
      expect(classLookups(sqls)).toBe(1);
      expect(teacherChecks(sqls)).toBe(1);
    });

    test("when a teacher renames the class", async ({ t, people }) => {
      const sqls = await queriesDuring(t, async () => {
        const res = await api(t).call("PATCH", `/api/classes/${classId}`, people.classTeacher, {
          name: "Maths 11A",
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ class: { name: "Maths 11A" } });
      });
      expect(teacherChecks(sqls)).toBe(1);
    });
  });
});
