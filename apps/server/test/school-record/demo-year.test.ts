import { existsSync, readFileSync } from "node:fs";
import type { ClassRisk } from "@gradecast/contract/class-risk";
import { loadDefaultModel } from "@gradecast/model";
import { describe, expect } from "vitest";
import {
  defaultDemoOptions,
  demoDomain,
  generateDemoSchool,
  insertDemoSchool,
  parseUciFile,
  removeDemoSchool,
} from "../../scripts/demo-school.ts";
import { hashPassword } from "../../src/auth/passwords.ts";
import { postLogin, testPassword } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";

// `npm run seed:demo` fills a school year (issue 29): after seeding, each demo class has its
// students, their record, the school's predictions at each stage (C, B, A) made before the
// outcome, and outcomes of students who sat and who did not; a demo teacher signs in and finds
// a risk list with students in it. Seeding again replaces the demo year, classes included.

/** A timestamp as either driver returns it (a Date, or text). */
const time = (v: unknown) => new Date(v as string).getTime();

const tests = apiTests({ env: { RATE_LIMITS: "off" } });
const model = loadDefaultModel();
const uciFile = new URL("../../../../../shared/data/student-mat.csv", import.meta.url);

async function seed(t: TestApp, options: Parameters<typeof generateDemoSchool>[1]) {
  const school = generateDemoSchool(model, { now: new Date("2026-11-28T12:00:00Z"), ...options });
  const hash = await hashPassword(testPassword);
  await removeDemoSchool(t.database.db);
  await insertDemoSchool(t.database.db, school, { student: hash, teacher: hash, admin: hash });
  return school;
}

/** Per class and student: the record, the school's predictions and whether they answered. */
async function yearOf(t: TestApp) {
  const db = t.database.db;
  const classes = await db
    .selectFrom("classes")
    .innerJoin("users", "users.id", "classes.created_by")
    .select(["classes.id", "classes.name", "classes.subject", "classes.year"])
    .where("users.email", "like", `%@${demoDomain}`)
    .orderBy("classes.name")
    .execute();
  const ids = classes.map((c) => c.id);
  const [enrolments, records, entries, predictions, answered] = await Promise.all([
    db.selectFrom("enrolments").selectAll().where("class_id", "in", ids).execute(),
    db.selectFrom("school_records").selectAll().where("class_id", "in", ids).execute(),
    db.selectFrom("record_entries").selectAll().where("class_id", "in", ids).execute(),
    db
      .selectFrom("predictions")
      .select(["user_id", "class_id", "model_setup", "created_at", "made_by", "record_version"])
      .select(["sources", "own_values"])
      .where("class_id", "in", ids)
      .execute(),
    db.selectFrom("students").select("user_id").distinct().execute(),
  ]);
  return {
    classes,
    enrolments,
    records,
    entries,
    predictions,
    answered: new Set(answered.map((a) => a.user_id)),
  };
}

describe.each(dialects)("the demo school year on %s", (dialect) => {
  const test = tests[dialect];

  test("classes with students, records, stage predictions before outcomes, a risk list", async ({
    t,
  }) => {
    const started = performance.now();
    const school = await seed(t, { seed: defaultDemoOptions.seed });
    console.info(
      `seed:demo (${defaultDemoOptions.students} students) on ${dialect}: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const year = await yearOf(t);
    expect(year.classes.map((c) => `${c.name} ${c.subject} ${c.year}`)).toEqual([
      "Maths 10A mat 2025/26",
      "Maths 10B mat 2025/26",
      "Portuguese 10A por 2025/26",
      "Portuguese 10B por 2025/26",
    ]);

    // Every demo student is in one or two classes; each class has students and their records.
    const students = school.users.filter((u) => u.role === "student");
    const classesOf = new Map<string, number>();
    for (const e of year.enrolments)
      classesOf.set(e.student_id, (classesOf.get(e.student_id) ?? 0) + 1);
    expect(classesOf.size).toBe(students.length);
    expect([...classesOf.values()].every((n) => n === 1 || n === 2)).toBe(true);
    for (const c of year.classes) {
      const enrolled = year.enrolments.filter((e) => e.class_id === c.id);
      expect(enrolled.length, c.name).toBeGreaterThan(20);
      expect(year.records.filter((r) => r.class_id === c.id).length, c.name).toBe(enrolled.length);
    }

    // The record was set by the class's teachers through the year; inputs_version counts the
    // changes of the model's inputs.
    expect(year.entries.every((e) => e.via === "seed" && e.set_by !== null)).toBe(true);
    for (const r of year.records) {
      const inputs = year.entries.filter(
        (e) =>
          e.class_id === r.class_id &&
          e.student_id === r.student_id &&
          ["G1", "G2", "absences", "failures"].includes(e.field),
      );
      expect(r.inputs_version).toBe(inputs.length);
      expect(r.outcome_at).not.toBeNull();
      expect(r.sat === true ? r.g3 !== null : r.g3 === null).toBe(true);
    }
    expect(year.records.some((r) => r.sat === true)).toBe(true);
    expect(year.records.some((r) => r.sat === false)).toBe(true);

    // Each student who answered has the school's C, B and A predictions for each class, all
    // made before the outcome, with the record's sources and the version they read.
    let checked = 0;
    for (const r of year.records) {
      if (!year.answered.has(r.student_id)) continue;
      const made = year.predictions
        .filter((p) => p.class_id === r.class_id && p.user_id === r.student_id)
        .sort((a, b) => time(a.created_at) - time(b.created_at));
      expect(made.map((p) => p.model_setup)).toEqual(["C", "B", "A"]);
      for (const p of made) {
        expect(p.made_by).toBe("school");
        expect(time(p.created_at)).toBeLessThan(time(r.outcome_at));
      }
      const sources = made.map((p) =>
        typeof p.sources === "string" ? JSON.parse(p.sources) : p.sources,
      );
      expect(Object.keys(sources[0]).sort()).toEqual(["failures"]);
      expect(Object.keys(sources[2]).sort()).toEqual(["G1", "G2", "absences", "failures"]);
      expect(made[2]!.record_version).toBe(r.inputs_version);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);

    // A few students typed a better G1 than the record's: their own values say so.
    const differing = year.predictions.filter((p) => {
      if (p.model_setup !== "A") return false;
      const own = (typeof p.own_values === "string" ? JSON.parse(p.own_values) : p.own_values) as {
        G1: number;
      };
      const record = year.records.find(
        (r) => r.class_id === p.class_id && r.student_id === p.user_id,
      );
      return own.G1 - (record?.g1 ?? own.G1) >= 2;
    });
    expect(differing.length).toBeGreaterThan(0);

    // The Maths teacher signs in with the demo password and reads a risk list with students.
    const teacher = school.users.find((u) => u.email === `teacher01@${demoDomain}`)!;
    const login = await postLogin(t, teacher.email);
    expect(login.statusCode).toBe(200);
    const maths = year.classes.find((c) => c.name === "Maths 10A")!;
    const res = await t.app.inject({
      method: "GET",
      url: `/api/classes/${maths.id}/risk`,
      headers: { authorization: `Bearer ${(login.json() as { token: string }).token}` },
    });
    expect(res.statusCode).toBe(200);
    const risk = res.json() as ClassRisk;
    expect(risk.items.length).toBe(year.enrolments.filter((e) => e.class_id === maths.id).length);
    expect(risk.counts.answered).toBeGreaterThan(0);
  });

  test.skipIf(!existsSync(uciFile))(
    "seeding again replaces the demo year, drawing students from the UCI rows",
    async ({ t }) => {
      const uci = parseUciFile(readFileSync(uciFile, "utf8"), "mat");
      expect(uci.length).toBe(395);
      const school = await seed(t, { seed: 5, students: 40, reports: 10, uci });
      const year = await yearOf(t);
      // The previous demo year is gone: four classes, this school's students only.
      expect(year.classes).toHaveLength(4);
      const ids = new Set(school.users.map((u) => u.id));
      expect(year.enrolments.every((e) => ids.has(e.student_id))).toBe(true);
      // A Maths student's record is a UCI row's (G1, G2, absences).
      const mathsIds = new Set(year.classes.filter((c) => c.subject === "mat").map((c) => c.id));
      const maths = year.records.filter((r) => mathsIds.has(r.class_id));
      expect(maths.length).toBeGreaterThan(0);
      // (A second subject's grades follow the first loosely: only the first subject's match.)
      expect(
        maths.filter((r) =>
          uci.some((u) => u.G1 === r.g1 && u.G2 === r.g2 && u.absences === r.absences),
        ).length,
      ).toBeGreaterThan(maths.length / 3);
    },
  );
});
