import type { StudentRecord } from "@gradecast/contract/prediction";
import {
  isOptionalCapable,
  type Question,
  questionKeys,
  questions,
} from "@gradecast/contract/questionnaire";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { signIn } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { sampleAnswers, sampleQuestionnaire } from "../support/sample-answers.ts";

// The student questionnaire through the real API (issue 6): every field's bad values are refused
// naming the field (on both POST /api/students and POST /api/predict, which share the schema),
// strings and numbers are both accepted and stored as numbers, each user sees only their own
// records, and teachers never reach the questionnaires. Issue 19: G1 and G2 may be not known yet
// (null, G2 only after G1) and the subject is asked (it may be left out: older clients, or filled
// in from the student's class).

type Session = Awaited<ReturnType<typeof signIn>>;

/** A whole questionnaire as the original form sent it (every value a string), and as stored. */
const asStrings: Record<string, string> = { ...sampleAnswers, subject: "por" };
// The school is the deployment's (issue 28): these test apps set no MODEL_SCHOOL, so every
// questionnaire is stored with none, whatever was sent.
const asTyped: Record<string, string | number | null> = {
  ...sampleQuestionnaire,
  subject: "por",
  school: null,
};

/** Values no field may take: out of the option set, out of range, fractions, wrong types. */
function badValuesOf(q: Question): unknown[] {
  if (q.kind === "number") {
    const values = q.options.map((o) => o.value as number);
    const min = Math.min(...values);
    const max = Math.max(...values);
    return [
      min - 1,
      max + 1,
      String(max + 1),
      min + 0.5,
      `${min}.5`,
      "1e1",
      "",
      "abc",
      // null is "not known yet" where the question allows it, and "Prefer not to say" where the
      // school may make the question optional (prediction/optional-questions.test.ts)
      ...(q.unknownLabel || isOptionalCapable(q.key) ? [] : [null]),
      true,
      [min],
    ];
  }
  const first = String(q.options[0]?.value);
  return [
    "maybe",
    first.toLowerCase() === first ? first.toUpperCase() : first.toLowerCase(),
    ` ${first}`,
    "",
    1,
    // the subject may be null: left out, or filled in from the student's class; the school is
    // the deployment's (null: neither); a question the school may make optional: see above
    ...(q.key === "subject" || q.key === "school" || isOptionalCapable(q.key) ? [] : [null]),
    [first],
  ];
}

/** Questions that may be left out of the body (the subject, the school). */
const optional = new Set(["subject", "school"]);

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    student: ["student", { name: "Sara Student" }],
    other: ["student", { name: "Olga Other" }],
    teacher: "teacher",
    admin: "admin",
  },
});

describe.each(dialects)("student questionnaire on %s", (dialect) => {
  const test = tests[dialect];

  const post = (t: TestApp, who: Session | null, url: string, payload: unknown) =>
    t.app.inject({ method: "POST", url, headers: who?.auth ?? {}, payload: payload as object });
  const mine = (t: TestApp, who: Session | null) =>
    t.app.inject({ method: "GET", url: "/api/students/mine", headers: who?.auth ?? {} });
  const count = async (t: TestApp, table: "students" | "predictions") =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );

  test("saves answers sent as strings: 201, every numeric answer stored and returned as a number", async ({
    t,
    people,
  }) => {
    const res = await post(t, people.student, "/api/students", asStrings);
    expect(res.statusCode, res.body).toBe(201);
    const { student: record } = res.json() as { student: StudentRecord };
    expect(record).toMatchObject(asTyped);
    expect(typeof record.age).toBe("number");
    expect(typeof record.G2).toBe("number");
    expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(record.createdAt))).toBe(false);

    const row = await t.database.db
      .selectFrom("students")
      .selectAll()
      .select(sql<string>`pg_typeof(g1)::text`.as("g1Type"))
      .where("id", "=", record.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: people.student.user.uid,
      pstatus: asTyped.Pstatus,
      medu: asTyped.Medu,
      fedu: asTyped.Fedu,
      g1: asTyped.G1,
      g2: asTyped.G2,
      absences: asTyped.absences,
      g1Type: "integer",
    });
  });

  test("saves answers sent as numbers the same way", async ({ t, people }) => {
    const res = await post(t, people.student, "/api/students", asTyped);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as { student: StudentRecord }).student).toMatchObject(asTyped);
  });

  test("accepts every option of every question, at both ends of each range", async ({
    t,
    people,
  }) => {
    for (const q of questions) {
      for (const o of [q.options[0]!, q.options[q.options.length - 1]!]) {
        const res = await post(t, people.student, "/api/students", {
          ...asStrings,
          [q.key]: String(o.value),
        });
        expect(res.statusCode, `${q.key}=${o.value}: ${res.body}`).toBe(201);
        expect((res.json() as { student: Record<string, unknown> }).student[q.key]).toBe(
          q.key === "school" ? null : o.value,
        );
      }
    }
  });

  for (const url of ["/api/students", "/api/predict"]) {
    test(`${url} refuses every field's bad values with 400 naming that field, and stores nothing`, async ({
      t,
      people,
    }) => {
      const before = {
        students: await count(t, "students"),
        predictions: await count(t, "predictions"),
      };
      for (const q of questions) {
        for (const bad of badValuesOf(q)) {
          const res = await post(t, people.student, url, { ...asStrings, [q.key]: bad });
          expect(res.statusCode, `${q.key}=${JSON.stringify(bad)}`).toBe(400);
          const error = errorOf(res.body);
          expect(error.code).toBe("validation_failed");
          expect(Object.keys(error.fields ?? {}), `${q.key}=${JSON.stringify(bad)}`).toEqual([
            q.key,
          ]);
          expect(error.fields?.[q.key]).toMatch(/^Choose /);
        }
        if (optional.has(q.key)) continue;
        const { [q.key]: _missing, ...rest } = asStrings;
        const res = await post(t, people.student, url, rest);
        expect(res.statusCode, `${q.key} missing`).toBe(400);
        expect(Object.keys(errorOf(res.body).fields ?? {})).toEqual([q.key]);
      }
      expect(await count(t, "students")).toBe(before.students);
      expect(await count(t, "predictions")).toBe(before.predictions);
    });
  }

  test("names every missing field of an empty body", async ({ t, people }) => {
    const res = await post(t, people.student, "/api/students", {});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res.body).fields ?? {}).sort()).toEqual(
      questionKeys.filter((k) => !optional.has(k)).sort(),
    );
  });

  test("saves G1 and G2 not known yet as null and a subject left out as null; G2 needs G1", async ({
    t,
    people,
  }) => {
    const early = await post(t, people.student, "/api/students", {
      ...asStrings,
      G1: null,
      G2: null,
    });
    expect(early.statusCode, early.body).toBe(201);
    expect((early.json() as { student: StudentRecord }).student).toMatchObject({
      G1: null,
      G2: null,
    });
    const half = await post(t, people.student, "/api/students", { ...asStrings, G2: null });
    expect((half.json() as { student: StudentRecord }).student).toMatchObject({ G1: 12, G2: null });
    const { subject: _s, ...noSubject } = asStrings;
    const left = await post(t, people.student, "/api/students", noSubject);
    expect(left.statusCode, left.body).toBe(201);
    expect((left.json() as { student: StudentRecord }).student.subject).toBeNull();
    const before = await count(t, "students");
    const bad = await post(t, people.student, "/api/students", { ...asStrings, G1: null });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).fields).toEqual({
      G2: "Give the first period grade (G1) before the second (G2).",
    });
    expect(await count(t, "students")).toBe(before);
    // the records read back as saved, the latest first
    const items = ((await mine(t, people.student)).json() as { items: StudentRecord[] }).items;
    expect(items.slice(0, 3).map((i) => [i.G1, i.G2, i.subject])).toEqual([
      [12, 13, null],
      [12, null, "por"],
      [null, null, "por"],
    ]);
    // the database refuses G2 without G1, and a subject outside mat/por, whatever the path
    const row = (g1: number | null, subject: string) =>
      sql`insert into students (user_id, school, sex, age, address, famsize, pstatus, medu, fedu,
        mjob, fjob, reason, guardian, traveltime, studytime, failures, schoolsup, famsup, paid,
        activities, nursery, higher, internet, romantic, famrel, freetime, goout, health,
        absences, g1, g2, subject)
        values (${people.student.user.uid}, 'GP', 'F', 17, 'U', 'GT3', 'T', 4, 3, 'teacher', 'other',
        'course', 'mother', 1, 2, 0, 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 4, 3,
        3, 5, 4, ${g1}, 13, ${subject})`.execute(t.database.db);
    await expect(row(null, "mat")).rejects.toThrow(/check/i);
    await expect(row(12, "history")).rejects.toThrow(/check/i);
  });

  test("lists only the caller's own questionnaires, newest first", async ({ t, people }) => {
    // An account of this test's own, so that what other tests saved (in any order) is not listed.
    const caller = await signIn(t, "student");
    const a = await post(t, caller, "/api/students", { ...asStrings, age: "15" });
    const b = await post(t, caller, "/api/students", { ...asStrings, age: "16" });
    const c = await post(t, people.student, "/api/students", asStrings);
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    const res = await mine(t, caller);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const items = (res.json() as { items: StudentRecord[] }).items;
    expect(items.map((i) => i.age)).toEqual([16, 15]);
    expect(items.map((i) => i.id)).toEqual([
      (b.json() as { student: StudentRecord }).student.id,
      (a.json() as { student: StudentRecord }).student.id,
    ]);

    const own = (await mine(t, people.student)).json() as { items: StudentRecord[] };
    expect(own.items.length).toBeGreaterThan(0);
    const otherIds = new Set(items.map((i) => i.id));
    expect(own.items.some((i) => otherIds.has(i.id))).toBe(false);
    // Rows of the table carry no owner or private column to the client.
    expect(Object.keys(own.items[0]!).sort()).toEqual([...questionKeys, "createdAt", "id"].sort());
  });

  test("lets an admin save and list their own questionnaires only", async ({ t, people }) => {
    expect((await mine(t, people.admin)).json()).toEqual({ items: [] });
    const res = await post(t, people.admin, "/api/students", asStrings);
    expect(res.statusCode).toBe(201);
    const items = ((await mine(t, people.admin)).json() as { items: StudentRecord[] }).items;
    expect(items).toHaveLength(1);
  });

  test("lets an admin alone read everyone's questionnaires, or one user's, with the owner", async ({
    t,
    people,
  }) => {
    const saved = [
      await post(t, people.student, "/api/students", asStrings),
      await post(t, people.other, "/api/students", { ...asStrings, age: "16" }),
    ];
    expect(saved.map((r) => r.statusCode)).toEqual([201, 201]);
    const all = await t.app.inject({
      method: "GET",
      url: "/api/students",
      headers: people.admin.auth,
    });
    expect(all.statusCode).toBe(200);
    const items = (all.json() as { items: (StudentRecord & { userId: string })[] }).items;
    const owners = new Set(items.map((i) => i.userId));
    expect(owners.has(people.student.user.uid)).toBe(true);
    expect(owners.has(people.other.user.uid)).toBe(true);
    const times = items.map((i) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const one = await t.app.inject({
      method: "GET",
      url: `/api/students?userId=${people.other.user.uid}&limit=1`,
      headers: people.admin.auth,
    });
    const only = (one.json() as { items: (StudentRecord & { userId: string })[] }).items;
    expect(only).toHaveLength(1);
    expect(only[0]).toMatchObject({ userId: people.other.user.uid, age: 16 });

    const bad = await t.app.inject({
      method: "GET",
      url: "/api/students?userId=nope&limit=500",
      headers: people.admin.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {}).sort()).toEqual(["limit", "userId"]);
    for (const who of [people.student, people.teacher]) {
      const res = await t.app.inject({ method: "GET", url: "/api/students", headers: who.auth });
      expect(res.statusCode).toBe(403);
    }
  });

  // The questionnaire opens filled from the newest saved answers (issue 28): GET /mine is how the
  // form reads them, and no one but their owner reads a byte of them.
  test("the newest saved answers reach their owner alone: not another student, a teacher, an admin or an unverified account", async ({
    t,
    people,
  }) => {
    const owner = await signIn(t, "student");
    const older = await post(t, owner, "/api/students", { ...asStrings, age: "15" });
    const newer = await post(t, owner, "/api/students", { ...asStrings, age: "24", G2: null });
    expect([older.statusCode, newer.statusCode]).toEqual([201, 201]);
    const newest = (await mine(t, owner)).json() as { items: StudentRecord[] };
    expect(newest.items[0]).toEqual((newer.json() as { student: StudentRecord }).student);
    expect(newest.items[0]).toMatchObject({ age: 24, G2: null });

    const ids = new Set(newest.items.map((i) => i.id));
    const unverified = await signIn(t, "student", { verified: false });
    for (const who of [people.other, people.admin, unverified]) {
      const res = await mine(t, who);
      expect(res.statusCode).toBe(200);
      const items = (res.json() as { items: StudentRecord[] }).items;
      expect(items.some((i) => ids.has(i.id))).toBe(false);
      expect(items.some((i) => i.age === 24 && i.G2 === null)).toBe(false);
    }
    const teacher = await mine(t, people.teacher);
    expect(teacher.statusCode).toBe(403);
    expect(teacher.body).not.toContain(newest.items[0]!.id);
    // No route takes another user's id but the admins' list (GET /api/students?userId=).
    for (const url of [
      `/api/students/mine?userId=${owner.user.uid}`,
      `/api/students/${newest.items[0]!.id}`,
    ]) {
      const res = await t.app.inject({ method: "GET", url, headers: people.other.auth });
      // Refused, or the caller's own list: never the owner's answers.
      expect(res.body).not.toContain('"age":24');
    }
  });

  test("refuses teachers (403) and anonymous callers (401)", async ({ t, people }) => {
    const listed = await mine(t, people.teacher);
    expect(listed.statusCode).toBe(403);
    expect(errorOf(listed.body).code).toBe("forbidden");
    const saved = await post(t, people.teacher, "/api/students", asStrings);
    expect(saved.statusCode).toBe(403);
    expect((await mine(t, null)).statusCode).toBe(401);
    expect((await post(t, null, "/api/students", asStrings)).statusCode).toBe(401);
  });

  test("the database itself refuses an out-of-range answer (CHECK constraint)", async ({
    t,
    people,
  }) => {
    await expect(
      sql`insert into students (user_id, school, sex, age, address, famsize, pstatus, medu, fedu,
        mjob, fjob, reason, guardian, traveltime, studytime, failures, schoolsup, famsup, paid,
        activities, nursery, higher, internet, romantic, famrel, freetime, goout, health,
        absences, g1, g2)
        values (${people.student.user.uid}, 'GP', 'F', 26, 'U', 'GT3', 'T', 4, 3, 'teacher', 'other',
        'course', 'mother', 1, 2, 0, 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 4, 3,
        3, 5, 4, 12, 13)`.execute(t.database.db),
    ).rejects.toThrow(/check/i);
  });
});
