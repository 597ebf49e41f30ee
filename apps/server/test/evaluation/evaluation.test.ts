import {
  type Evaluation,
  evaluationCsvColumns,
  evaluationSchema,
  type SetupEvaluation,
} from "@gradecast/contract/evaluation";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { signIn } from "../support/accounts.ts";
import { enrol, makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, type TestApp } from "../support/helpers.ts";
import { parseCsv } from "../support/reports-csv-parser.ts";
import { insertOutcome, insertPredictions, type PredictionRow } from "./outcomes-fixture.ts";

// How the model did for this school, through the real API: who reads it (every relationship),
// figures computed here with plain code from the same rows the test wrote, groups under five
// hidden, predictions made once the outcome was known ignored, and the CSV's pseudonyms.

const tests = apiTests({ env: { RATE_LIMITS: "off" } });

const day = (d: number) => new Date(Date.UTC(2026, 8, 1) + d * 86_400_000);

/** A small deterministic generator, so the rows are varied but the same every run. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Written {
  classId: string;
  className: string;
  studentId: string;
  g3: number | null;
  sat: boolean;
  setup: "A" | "B" | "C";
  p: PredictionRow;
  sex: string;
  age: number;
  address: string;
}

async function school(t: TestApp) {
  const teacher = await signIn(t, "teacher");
  const coTeacher = await signIn(t, "teacher");
  const other = await signIn(t, "teacher");
  const students = [];
  for (let i = 0; i < 14; i++) students.push(await signIn(t, "student"));
  const outsider = await signIn(t, "student");
  // 11 students in the big class, 3 in the small one (a group under five: hidden).
  const big = await makeClass(t, {
    name: "Maths big",
    teachers: [teacher.user.uid, coTeacher.user.uid],
    subject: "mat",
  });
  const small = await makeClass(t, { name: "Maths small", teachers: [teacher.user.uid] });
  const otherClass = await makeClass(t, { name: "Other", teachers: [other.user.uid] });
  const rand = lcg(29);
  const written: Written[] = [];
  const predictions: PredictionRow[] = [];
  for (const [i, s] of students.entries()) {
    const classId = i < 11 ? big : small;
    await enrol(t, classId, s.user.uid);
    const sat = i % 5 !== 3;
    const g3 = sat ? Math.floor(rand() * 21) : null;
    const at = day(300);
    await insertOutcome(t, { classId, studentId: s.user.uid, g3, sat: sat ? null : false, at });
    // Two students are 18 (a group of two: hidden); sexes and addresses alternate.
    const inputs = { sex: i % 2 ? "M" : "F", age: i < 2 ? 18 : 16, address: i % 3 ? "U" : "R" };
    for (const [k, setup] of (["C", "B", "A"] as const).entries()) {
      // Student 13 has no setup-A prediction before the outcome: only one made after it.
      if (i === 13 && setup === "A") continue;
      const scoreIfSits = Math.round(rand() * 200) / 10;
      const risk = Math.round(rand() * 100) / 100;
      const older: PredictionRow = {
        classId,
        studentId: s.user.uid,
        setup,
        score: 0,
        scoreIfSits: 20 - scoreIfSits,
        risk: 0.99,
        low: 0,
        high: 0,
        at: day(10 + k * 90),
        inputs,
      };
      const newest: PredictionRow = {
        classId,
        studentId: s.user.uid,
        setup,
        score: (1 - risk) * scoreIfSits,
        scoreIfSits,
        risk,
        low: Math.max(0, scoreIfSits - 3),
        high: Math.min(20, scoreIfSits + 3),
        at: day(20 + k * 90),
        inputs,
      };
      predictions.push(older, newest);
      written.push({
        classId,
        className: i < 11 ? "Maths big" : "Maths small",
        studentId: s.user.uid,
        g3,
        sat,
        setup,
        p: newest,
        ...inputs,
      });
    }
    // Made once the outcome was known (and another class's): never scored.
    predictions.push({
      classId,
      studentId: s.user.uid,
      setup: "A",
      score: 20,
      scoreIfSits: 20,
      risk: 0,
      low: 20,
      high: 20,
      at: day(301),
      inputs,
    });
  }
  await insertPredictions(t, predictions);
  return { teacher, coTeacher, other, students, outsider, big, small, otherClass, written };
}

/** The page's measures, computed here from the rows written, without the server's code. */
function expectedFigures(rows: Written[]) {
  const sat = rows.filter((r) => r.sat);
  const err = sat.map((r) => r.p.scoreIfSits - (r.g3 as number));
  const y = rows.map((r) => (r.sat ? 0 : 1));
  let wins = 0;
  let pairs = 0;
  rows.forEach((a, i) => {
    rows.forEach((b, j) => {
      if (y[i] === 1 && y[j] === 0) {
        pairs++;
        wins += a.p.risk > b.p.risk ? 1 : a.p.risk === b.p.risk ? 0.5 : 0;
      }
    });
  });
  const g = (r: Written) => (r.sat ? (r.g3 as number) : 0);
  return {
    rmse: Math.sqrt(err.reduce((a, e) => a + e * e, 0) / err.length),
    mae: err.reduce((a, e) => a + Math.abs(e), 0) / err.length,
    accuracy:
      rows.filter((r) => r.p.score >= 10 === (r.sat && (r.g3 as number) >= 10)).length /
      rows.length,
    brier: rows.reduce((a, r, i) => a + (r.p.risk - y[i]!) ** 2, 0) / rows.length,
    auc: pairs ? wins / pairs : null,
    coverage: rows.filter((r) => g(r) >= r.p.low && g(r) <= r.p.high).length / rows.length,
  };
}

const figure = (s: SetupEvaluation, m: string) => s.figures.find((f) => f.measure === m)!;

describe.each(dialects)("the evaluation on %s", (dialect) => {
  const test = tests[dialect];
  const get = (t: TestApp, who: { auth: object } | undefined, query = "") =>
    t.app.inject({
      method: "GET",
      url: `/api/evaluation${query}`,
      headers: who ? (who.auth as Record<string, string>) : {},
    });

  test("lets the class's teachers and admins read it, and nobody else", async ({ t, admin }) => {
    const s = await school(t);
    const q = `?classId=${s.big}`;
    for (const who of [s.teacher, s.coTeacher, admin]) {
      const res = await get(t, who, q);
      expect(res.statusCode).toBe(200);
      expect((res.json() as Evaluation).outcomes).toBe(11);
    }
    // Another teacher: the class is not theirs (404), and their own view holds none of it.
    expect((await get(t, s.other, q)).statusCode).toBe(404);
    const theirs = (await get(t, s.other)).json() as Evaluation;
    expect(theirs.outcomes).toBe(0);
    expect(theirs.classes.map((c) => c.id)).toEqual([s.otherClass]);
    // Students (the class's own or another), a pending teacher, an unverified teacher: refused.
    const pending = await signIn(t, "teacher", { pending: true });
    const unverified = await signIn(t, "teacher", { verified: false });
    for (const who of [s.students[0]!, s.outsider, pending, unverified]) {
      expect((await get(t, who, q)).statusCode).toBe(403);
      expect((await get(t, who)).statusCode).toBe(403);
    }
    expect((await get(t, undefined, q)).statusCode).toBe(401);
    // Without a class, a teacher gets every class they teach.
    const all = (await get(t, s.teacher)).json() as Evaluation;
    expect(all.outcomes).toBe(14);
    expect(all.classes.map((c) => c.id).sort()).toEqual([s.big, s.small].sort());
    // The CSV: the same rule.
    for (const [who, status] of [
      [s.coTeacher, 200],
      [admin, 200],
      [s.other, 404],
      [s.students[0]!, 403],
      [pending, 403],
      [unverified, 403],
    ] as const) {
      const res = await get(t, who, `.csv${q}`.replace(".csv?", ".csv?"));
      expect(res.statusCode).toBe(status);
    }
  });

  test("computes the same figures as plain code from the same rows", async ({ t }) => {
    const s = await school(t);
    const res = await get(t, s.teacher);
    expect(res.statusCode).toBe(200);
    const body = evaluationSchema.parse(res.json());
    expect(body.setups.map((x) => x.setup)).toEqual(["C", "B", "A"]);
    for (const setup of body.setups) {
      const rows = s.written.filter((w) => w.setup === setup.setup);
      // The predictions made after the outcome are not counted: A has one student fewer.
      expect(setup.n).toBe(rows.length);
      expect(setup.n).toBe(setup.setup === "A" ? 13 : 14);
      const want = expectedFigures(rows);
      for (const [m, v] of Object.entries(want)) {
        const got = figure(setup, m);
        if (v === null) expect(got.value).toBeNull();
        else expect(got.value).toBeCloseTo(v, 9);
        if (got.interval && got.value !== null) {
          expect(got.interval.low).toBeLessThanOrEqual(got.value + 1e-9);
          expect(got.interval.high).toBeGreaterThanOrEqual(got.value - 1e-9);
        }
      }
      // What the model card expects for Mathematics at this setup, beside each figure.
      expect(figure(setup, "rmse").expected).toBeGreaterThan(0);
      expect(figure(setup, "coverage").expected).toBeGreaterThan(0.7);
      expect(figure(setup, "mae").expected).toBeNull();
      // A figure worse beyond noise says so in a sentence; the others have no note.
      for (const f of setup.figures) expect(f.note !== null).toBe(f.worse);
      // Calibration bins hold every row (risk) and every student who sat (score).
      expect(setup.calibration.risk.reduce((a, b) => a + b.n, 0)).toBe(rows.length);
      expect(setup.calibration.score.reduce((a, b) => a + b.n, 0)).toBe(
        rows.filter((r) => r.sat).length,
      );
      // Groups: counts as written; the small class and the 18-year-olds (under five) hidden.
      const labels = setup.groups.map((g) => `${g.kind}:${g.label}`);
      expect(labels).toContain("class:Maths big");
      expect(labels).not.toContain("class:Maths small");
      expect(labels).not.toContain("age:18+");
      expect(setup.hiddenGroups).toBeGreaterThanOrEqual(2);
      for (const g of setup.groups) expect(g.n).toBeGreaterThanOrEqual(5);
      const big = setup.groups.find((g) => g.label === "Maths big")!;
      expect(big.n).toBe(rows.filter((r) => r.className === "Maths big").length);
      const male = setup.groups.find((g) => g.kind === "sex" && g.label === "Male")!;
      expect(male.n).toBe(rows.filter((r) => r.sex === "M").length);
      const sixteen = setup.groups.find((g) => g.kind === "age" && g.label === "15-16")!;
      expect(sixteen.rmse).toBeCloseTo(expectedFigures(rows.filter((r) => r.age === 16)).rmse, 9);
    }
  });

  test("scores again once an outcome is corrected", async ({ t }) => {
    const s = await school(t);
    const before = (await get(t, s.teacher, `?classId=${s.big}`)).json() as Evaluation;
    const target = s.written.find((w) => w.classId === s.big && w.sat)!;
    // A correction, as the gradebook writes it: the value and the row's time of change.
    await t.database.db
      .updateTable("school_records")
      .set({ g3: null, sat: false, updated_at: sql`now()` })
      .where("class_id", "=", s.big)
      .where("student_id", "=", target.studentId)
      .execute();
    const after = (await get(t, s.teacher, `?classId=${s.big}`)).json() as Evaluation;
    const sat = (e: Evaluation) => e.setups.find((x) => x.setup === "C")!.sat;
    expect(sat(after)).toBe(sat(before) - 1);
  });

  test("shows nothing to score before outcomes exist", async ({ t }) => {
    const teacher = await signIn(t, "teacher");
    const classId = await makeClass(t, { teachers: [teacher.user.uid] });
    const body = (await get(t, teacher, `?classId=${classId}`)).json() as Evaluation;
    expect(body.outcomes).toBe(0);
    expect(body.setups).toEqual([]);
  });

  test("exports outcomes under stable pseudonyms, never ids, and audits it", async ({ t }) => {
    const s = await school(t);
    const first = await get(t, s.teacher, `.csv?classId=${s.big}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toContain("text/csv");
    const rows = parseCsv(first.body.replace(/^\uFEFF/, ""));
    expect(rows[0]).toEqual([...evaluationCsvColumns]);
    const data = rows.slice(1);
    // One row per student and setup made before the outcome: 11 students × 3 setups.
    expect(data).toHaveLength(33);
    const ids = s.students.map((x) => x.user.uid);
    for (const id of ids) expect(first.body).not.toContain(id);
    const pseudonyms = new Set(data.map((r) => r[0]));
    expect(pseudonyms.size).toBe(11);
    const second = await get(t, s.coTeacher, `.csv?classId=${s.big}`);
    expect(second.body).toBe(first.body);
    // The same student keeps their pseudonym in a wider export.
    const wide = parseCsv((await get(t, s.teacher, ".csv")).body.replace(/^\uFEFF/, ""));
    for (const p of pseudonyms) expect(wide.some((r) => r[0] === p)).toBe(true);
    // A student who did not sit: no G3, sat "no".
    expect(data.some((r) => r[9] === "" && r[10] === "no")).toBe(true);
    const entries = await auditOf(t, "evaluation.exported", s.big);
    expect(entries.length).toBe(2);
  });
});
