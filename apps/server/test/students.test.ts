import type { StudentRecord } from "@gradecast/contract/prediction";
import { type Question, questionKeys, questions } from "@gradecast/contract/questionnaire";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./accounts.ts";
import { createTestApp, dialects, errorOf, type TestApp } from "./helpers.ts";

// The student questionnaire through the real API (issue 6): every field's bad values are refused
// naming the field (on both POST /api/students and POST /api/predict, which share the schema),
// strings and numbers are both accepted and stored as numbers, each user sees only their own
// records, and teachers never reach the questionnaires.

type Session = Awaited<ReturnType<typeof signIn>>;

/** A whole questionnaire as the original form sent it: every value a string. */
const asStrings: Record<string, string> = {
  school: "GP",
  sex: "F",
  age: "17",
  address: "U",
  famsize: "GT3",
  Pstatus: "T",
  Medu: "4",
  Fedu: "3",
  Mjob: "teacher",
  Fjob: "services",
  reason: "course",
  guardian: "mother",
  traveltime: "1",
  studytime: "2",
  failures: "0",
  schoolsup: "no",
  famsup: "yes",
  paid: "no",
  activities: "yes",
  nursery: "yes",
  higher: "yes",
  internet: "yes",
  romantic: "no",
  famrel: "4",
  freetime: "3",
  goout: "3",
  health: "5",
  absences: "4",
  G1: "12",
  G2: "13",
};

const numeric = new Set(questions.filter((q) => q.kind === "number").map((q) => q.key));
const asTyped: Record<string, string | number> = Object.fromEntries(
  Object.entries(asStrings).map(([k, v]) => [k, numeric.has(k as never) ? Number(v) : v]),
);

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
      null,
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
    null,
    [first],
  ];
}

describe.each(dialects)("student questionnaire on %s", (dialect) => {
  let t: TestApp;
  let student: Session;
  let other: Session;
  let teacher: Session;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMITS: "off" } });
    [student, other, teacher, admin] = await Promise.all([
      signIn(t, "student", { name: "Sara Student" }),
      signIn(t, "student", { name: "Olga Other" }),
      signIn(t, "teacher"),
      signIn(t, "admin"),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (who: Session | null, url: string, payload: unknown) =>
    t.app.inject({ method: "POST", url, headers: who?.auth ?? {}, payload: payload as object });
  const mine = (who: Session | null) =>
    t.app.inject({ method: "GET", url: "/api/students/mine", headers: who?.auth ?? {} });
  const count = async (table: "students" | "predictions") =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );

  it("saves answers sent as strings: 201, every numeric answer stored and returned as a number", async () => {
    const res = await post(student, "/api/students", asStrings);
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
      user_id: student.user.uid,
      pstatus: "T",
      medu: 4,
      fedu: 3,
      g1: 12,
      g2: 13,
      absences: 4,
      g1Type: "integer",
    });
  });

  it("saves answers sent as numbers the same way", async () => {
    const res = await post(student, "/api/students", asTyped);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as { student: StudentRecord }).student).toMatchObject(asTyped);
  });

  it("accepts every option of every question, at both ends of each range", async () => {
    for (const q of questions) {
      for (const o of [q.options[0]!, q.options[q.options.length - 1]!]) {
        const res = await post(student, "/api/students", {
          ...asStrings,
          [q.key]: String(o.value),
        });
        expect(res.statusCode, `${q.key}=${o.value}: ${res.body}`).toBe(201);
        expect((res.json() as { student: Record<string, unknown> }).student[q.key]).toBe(o.value);
      }
    }
  });

  for (const url of ["/api/students", "/api/predict"]) {
    it(`${url} refuses every field's bad values with 400 naming that field, and stores nothing`, async () => {
      const before = { students: await count("students"), predictions: await count("predictions") };
      for (const q of questions) {
        for (const bad of badValuesOf(q)) {
          const res = await post(student, url, { ...asStrings, [q.key]: bad });
          expect(res.statusCode, `${q.key}=${JSON.stringify(bad)}`).toBe(400);
          const error = errorOf(res.body);
          expect(error.code).toBe("validation_failed");
          expect(Object.keys(error.fields ?? {}), `${q.key}=${JSON.stringify(bad)}`).toEqual([
            q.key,
          ]);
          expect(error.fields?.[q.key]).toMatch(/^Choose /);
        }
        const { [q.key]: _missing, ...rest } = asStrings;
        const res = await post(student, url, rest);
        expect(res.statusCode, `${q.key} missing`).toBe(400);
        expect(Object.keys(errorOf(res.body).fields ?? {})).toEqual([q.key]);
      }
      expect(await count("students")).toBe(before.students);
      expect(await count("predictions")).toBe(before.predictions);
    });
  }

  it("names every missing field of an empty body", async () => {
    const res = await post(student, "/api/students", {});
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorOf(res.body).fields ?? {}).sort()).toEqual([...questionKeys].sort());
  });

  it("lists only the caller's own questionnaires, newest first", async () => {
    const a = await post(other, "/api/students", { ...asStrings, age: "15" });
    const b = await post(other, "/api/students", { ...asStrings, age: "16" });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const res = await mine(other);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const items = (res.json() as { items: StudentRecord[] }).items;
    expect(items.map((i) => i.age)).toEqual([16, 15]);
    expect(items.map((i) => i.id)).toEqual([
      (b.json() as { student: StudentRecord }).student.id,
      (a.json() as { student: StudentRecord }).student.id,
    ]);

    const own = (await mine(student)).json() as { items: StudentRecord[] };
    expect(own.items.length).toBeGreaterThan(2);
    const otherIds = new Set(items.map((i) => i.id));
    expect(own.items.some((i) => otherIds.has(i.id))).toBe(false);
    // Rows of the table carry no owner or private column to the client.
    expect(Object.keys(own.items[0]!).sort()).toEqual([...questionKeys, "createdAt", "id"].sort());
  });

  it("lets an admin save and list their own questionnaires only", async () => {
    expect((await mine(admin)).json()).toEqual({ items: [] });
    const res = await post(admin, "/api/students", asStrings);
    expect(res.statusCode).toBe(201);
    const items = ((await mine(admin)).json() as { items: StudentRecord[] }).items;
    expect(items).toHaveLength(1);
  });

  it("lets an admin alone read everyone's questionnaires, or one user's, with the owner", async () => {
    const all = await t.app.inject({ method: "GET", url: "/api/students", headers: admin.auth });
    expect(all.statusCode).toBe(200);
    const items = (all.json() as { items: (StudentRecord & { userId: string })[] }).items;
    const owners = new Set(items.map((i) => i.userId));
    expect(owners.has(student.user.uid)).toBe(true);
    expect(owners.has(other.user.uid)).toBe(true);
    const times = items.map((i) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const one = await t.app.inject({
      method: "GET",
      url: `/api/students?userId=${other.user.uid}&limit=1`,
      headers: admin.auth,
    });
    const only = (one.json() as { items: (StudentRecord & { userId: string })[] }).items;
    expect(only).toHaveLength(1);
    expect(only[0]).toMatchObject({ userId: other.user.uid, age: 16 });

    const bad = await t.app.inject({
      method: "GET",
      url: "/api/students?userId=nope&limit=500",
      headers: admin.auth,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {}).sort()).toEqual(["limit", "userId"]);
    for (const who of [student, teacher]) {
      const res = await t.app.inject({ method: "GET", url: "/api/students", headers: who.auth });
      expect(res.statusCode).toBe(403);
    }
  });

  it("refuses teachers (403) and anonymous callers (401)", async () => {
    const listed = await mine(teacher);
    expect(listed.statusCode).toBe(403);
    expect(errorOf(listed.body).code).toBe("forbidden");
    const saved = await post(teacher, "/api/students", asStrings);
    expect(saved.statusCode).toBe(403);
    expect((await mine(null)).statusCode).toBe(401);
    expect((await post(null, "/api/students", asStrings)).statusCode).toBe(401);
  });

  it("the database itself refuses an out-of-range answer (CHECK constraint)", async () => {
    await expect(
      sql`insert into students (user_id, school, sex, age, address, famsize, pstatus, medu, fedu,
        mjob, fjob, reason, guardian, traveltime, studytime, failures, schoolsup, famsup, paid,
        activities, nursery, higher, internet, romantic, famrel, freetime, goout, health,
        absences, g1, g2)
        values (${student.user.uid}, 'GP', 'F', 26, 'U', 'GT3', 'T', 4, 3, 'teacher', 'other',
        'course', 'mother', 1, 2, 0, 'no', 'yes', 'no', 'yes', 'yes', 'yes', 'yes', 'no', 4, 3,
        3, 5, 4, 12, 13)`.execute(t.database.db),
    ).rejects.toThrow(/check/i);
  });
});
