import { questionKeys, type Subject } from "@gradecast/contract/questionnaire";
import { behaviors } from "@gradecast/contract/reports";
import type { RecordInputKey } from "@gradecast/contract/school-record";
import { type GradeModel, mulberry32 } from "@gradecast/model";
import { type Insertable, type Kysely, sql } from "kysely";
import { type DatedPrediction, insertDatedPredictions } from "../src/db/predictions.ts";
import type { DB, PredictionsTable, StudentReportsTable } from "../src/db/schema.ts";
import {
  insertRecordRows,
  type RecordEntryRow,
  type SchoolRecordRow,
} from "../src/db/school-records.ts";

// A synthetic school for `npm run seed:demo` and the analytics benchmark: students with
// questionnaires and model predictions over time, teachers and their reports. Every value comes
// from a seeded PRNG, so one seed always gives the same school. The distributions are loose
// imitations of the UCI Student Performance data (not copies of it): a latent ability drives G1
// and G2, absences drive attendance, and both drive marks, so the report has shapes to show.
//
// The school year (issue 29): four classes (Maths and Portuguese, 10A and 10B) taught by the
// first demo teachers, every student enrolled in one or both subjects, the record their teachers
// kept through the year (failures at the start, G1 and absences after the first period, G2 and
// the year's absences after the second, the outcome at the end), the predictions the school's
// model made at each stage (setup C before G1, B after G1, A after G2) and the outcomes. With
// rows of the UCI files (`uci`), each student's answers, record and final grade are a real
// student's (a seeded sample); without, they are the synthetic ones and the final grade is drawn
// from the model's own prediction plus noise. A few students typed a better G1 than the record
// holds, so the risk list's "differs from the record" mark has something to show.

export const demoDomain = "demo.gradecast.test";

export interface DemoOptions {
  seed: number;
  students: number;
  teachers: number;
  reports: number;
  /** Predictions per student who answered the questionnaire: from min to max. */
  predictionsPerStudent: [number, number];
  /** Share of students who answered the questionnaire (and so have predictions). */
  questionnaireShare: number;
  /** The end of the simulated term; data spreads over the 180 days before. */
  now: Date;
  /** Writes the last school year that ended before `now`: classes, records, outcomes. */
  year: boolean;
  /** Rows of the UCI files to draw students from (none: synthetic students). */
  uci: UciRow[];
}

export const defaultDemoOptions: DemoOptions = {
  seed: 2026,
  students: 300,
  teachers: 6,
  reports: 1000,
  predictionsPerStudent: [1, 4],
  questionnaireShare: 0.85,
  now: new Date(),
  year: true,
  uci: [],
};

/** One row of a UCI Student Performance file: the questionnaire's answers, G3 and the subject. */
export type UciRow = Record<string, string | number> & { subject: Subject; G3: number };

/**
 * Reads a UCI file (`;`-separated, a header, strings in double quotes, some numbers quoted);
 * the subject is the file's (student-mat.csv, student-por.csv). Columns the questionnaire does
 * not ask (Dalc, Walc) are dropped.
 */
export function parseUciFile(text: string, subject: Subject): UciRow[] {
  const unquote = (v: string) => v.trim().replace(/^"(.*)"$/, "$1");
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = (lines[0] ?? "").split(";").map(unquote);
  const kept = new Set<string>([...questionKeys, "G3"]);
  if (!["G1", "G2", "G3", "absences", "failures"].every((k) => header.includes(k))) {
    throw new Error("not a UCI Student Performance file: G1, G2, G3, absences or failures missing");
  }
  return lines.slice(1).map((line) => {
    const row: Record<string, string | number> = { subject };
    line.split(";").forEach((raw, j) => {
      const key = header[j];
      if (!key || !kept.has(key) || key === "subject") return;
      const v = unquote(raw);
      row[key] = /^\d+$/.test(v) ? Number(v) : v;
    });
    return row as UciRow;
  });
}

/** The subject of a UCI file, from its name. */
export function uciSubjectOf(file: string): Subject | undefined {
  const m = /student-(mat|por)\.csv$/i.exec(file);
  return m ? (m[1]!.toLowerCase() as Subject) : undefined;
}

type Role = "student" | "teacher" | "admin";
interface DemoUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}

export interface DemoSchool {
  users: DemoUser[];
  reports: (Pick<
    Insertable<StudentReportsTable>,
    | "author_id"
    | "student_name"
    | "course"
    | "marks"
    | "attendance"
    | "assignments"
    | "behavior"
    | "feedback"
  > & { created_at: Date })[];
  questionnaires: (Record<string, string | number | Date> & { user_id: string })[];
  /** The school year: classes, enrolments, records, stage predictions and outcomes. */
  year: DemoYear | null;
  /** Rows of the predictions table, their inputs as JSON text. */
  predictions: (Pick<
    PredictionsTable,
    | "user_id"
    | "score"
    | "raw_score"
    | "interval_low"
    | "interval_high"
    | "extrapolation"
    | "model_version"
  > & { inputs: string; created_at: Date })[];
}

export interface DemoClass {
  id: string;
  name: string;
  subject: Subject;
  year: string;
  /** The demo admin: how a replaced demo school finds its classes. */
  created_by: string;
  created_at: Date;
}

export interface DemoYear {
  /** "2025/26". */
  label: string;
  classes: DemoClass[];
  classTeachers: { class_id: string; teacher_id: string; added_at: Date }[];
  enrolments: { class_id: string; student_id: string; enrolled_at: Date }[];
  entries: RecordEntryRow[];
  records: SchoolRecordRow[];
  predictions: DatedPrediction[];
}

/** Seeded draws (the model's mulberry32), so a seed always makes the same school. */
function prng(seed: number) {
  const next = mulberry32(seed);
  const normal = (mean = 0, sd = 1) => {
    const u = Math.max(next(), 1e-12);
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const weighted = <T>(items: readonly T[], weights: readonly number[]): T => {
    const total = weights.reduce((s, w) => s + w, 0);
    let r = next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  };
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
    hex[12] = "4";
    hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    const h = hex.join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  return { next, normal, int, pick, weighted, uuid };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

const firstNames = [
  "Ana",
  "Beatriz",
  "Carla",
  "Diana",
  "Eva",
  "Filipa",
  "Gabriela",
  "Helena",
  "Inês",
  "Joana",
  "Laura",
  "Marta",
  "Nadia",
  "Olga",
  "Patrícia",
  "Rita",
  "Sofia",
  "Teresa",
  "Vera",
  "Yara",
  "André",
  "Bruno",
  "Carlos",
  "Daniel",
  "Eduardo",
  "Fábio",
  "Gonçalo",
  "Hugo",
  "Igor",
  "João",
  "Luís",
  "Miguel",
  "Nuno",
  "Óscar",
  "Pedro",
  "Rui",
  "Samuel",
  "Tiago",
  "Vasco",
  "Xavier",
];
const lastNames = [
  "Almeida",
  "Barbosa",
  "Cardoso",
  "Costa",
  "Dias",
  "Esteves",
  "Ferreira",
  "Gomes",
  "Henriques",
  "Lopes",
  "Martins",
  "Moreira",
  "Nunes",
  "Oliveira",
  "Pereira",
  "Quintas",
  "Ribeiro",
  "Santos",
  "Silva",
  "Sousa",
  "Teixeira",
  "Vieira",
  "Carvalho",
  "Rocha",
  "Pinto",
  "Correia",
  "Fonseca",
  "Mendes",
  "Machado",
  "Antunes",
];
const courses = [
  "Mathematics",
  "Portuguese",
  "Physics",
  "Chemistry",
  "Biology",
  "History",
  "English",
  "Computer Science",
];
const feedbackFor: Record<string, string[]> = {
  Excellent: [
    "Outstanding work this term; keep challenging yourself with the extension problems.",
    "Consistently excellent: clear reasoning and careful homework.",
  ],
  Good: [
    "Good progress; revise the last unit once more before the test.",
    "Solid work and good participation in class.",
  ],
  Average: [
    "Steady, but some homework was late; a weekly revision plan would help.",
    "Understands the basics; needs more practice on longer exercises.",
  ],
  "Needs Improvement": [
    "Several assignments missing; let us agree on a catch-up plan.",
    "Struggles with the recent topics; please come to the support sessions.",
  ],
  Poor: [
    "Frequent absences and missing work; a meeting with the family is recommended.",
    "Very little work handed in this term; we need to talk about support.",
  ],
};

/** Generates the school; predictions come from the given model, as POST /api/predict makes them. */
export function generateDemoSchool(
  model: Pick<GradeModel, "predict" | "version">,
  options: Partial<DemoOptions> = {},
): DemoSchool {
  const o = { ...defaultDemoOptions, ...options };
  const r = prng(o.seed);
  const day = 86_400_000;
  const start = o.now.getTime() - 180 * day;
  const at = (from: number, to: number) => new Date(from + r.next() * (to - from));

  const users: DemoUser[] = [];
  users.push({ id: r.uuid(), name: "Demo Admin", email: `admin@${demoDomain}`, role: "admin" });
  const teachers: DemoUser[] = [];
  for (let i = 0; i < o.teachers; i++) {
    const name = `${r.pick(firstNames)} ${r.pick(lastNames)}`;
    teachers.push({
      id: r.uuid(),
      name,
      email: `teacher${String(i + 1).padStart(2, "0")}@${demoDomain}`,
      role: "teacher",
    });
  }
  users.push(...teachers);

  interface Pupil {
    user: DemoUser;
    ability: number;
    absences: number;
    g1: number;
    g2: number;
  }
  const pupils: Pupil[] = [];
  const questionnaires: DemoSchool["questionnaires"] = [];
  const predictions: DemoSchool["predictions"] = [];
  const width = String(o.students).length;

  // The year's plan comes from a PRNG of its own, so the rest of the school is the same with or
  // without it (the analytics benchmark's figures stay comparable).
  const y = prng(o.seed + 7919);
  const year = o.year && teachers.length > 0 ? schoolYearBefore(o.now) : null;
  const plans = planStudents(y, o);
  const answered = new Map<string, { at: Date; inputs: Record<string, string | number> }[]>();

  for (let i = 0; i < o.students; i++) {
    const user: DemoUser = {
      id: r.uuid(),
      name: `${r.pick(firstNames)} ${r.pick(lastNames)}`,
      email: `student${String(i + 1).padStart(Math.max(3, width), "0")}@${demoDomain}`,
      role: "student",
    };
    users.push(user);
    const ability = r.normal();
    const failures = r.weighted([0, 1, 2, 3], [79, 12, 4, 5]);
    const studytime = r.weighted([1, 2, 3, 4], [27, 50, 16, 7]);
    let absences = clamp(Math.round(Math.abs(r.normal(0, 7)) - ability), 0, 75);
    let g1 = clamp(Math.round(11 + 3 * ability - 1.2 * failures + r.normal(0, 1.5)), 0, 20);
    let g2 = clamp(Math.round(g1 + r.normal(0.2, 1.3)), 0, 20);
    const plan = plans[i]!;
    const row = plan.uci;
    if (row) {
      absences = clamp(Number(row.absences), 0, 100);
      g1 = Number(row.G1);
      g2 = Number(row.G2);
    }
    plan.truth = {
      G1: g1,
      G2: g2,
      absences,
      failures: row ? clamp(Number(row.failures), 0, 4) : failures,
    };
    pupils.push({ user, ability: row ? (g1 - 11) / 3 : ability, absences, g1, g2 });
    // The first student always has a history, for whoever signs in as student 1 first.
    if (i > 0 && r.next() >= o.questionnaireShare) continue;

    const base: Record<string, string | number> = {
      school: r.weighted(["GP", "MS"], [88, 12]),
      sex: r.pick(["F", "M"]),
      age: r.weighted([15, 16, 17, 18, 19, 20, 21, 22], [20, 28, 26, 20, 4, 1, 0.5, 0.5]),
      address: r.weighted(["U", "R"], [78, 22]),
      famsize: r.weighted(["GT3", "LE3"], [70, 30]),
      Pstatus: r.weighted(["T", "A"], [90, 10]),
      Medu: r.weighted([0, 1, 2, 3, 4], [1, 15, 26, 25, 33]),
      Fedu: r.weighted([0, 1, 2, 3, 4], [1, 21, 29, 25, 24]),
      Mjob: r.weighted(["teacher", "health", "services", "at_home", "other"], [15, 9, 26, 15, 35]),
      Fjob: r.weighted(["teacher", "health", "services", "at_home", "other"], [7, 5, 28, 5, 55]),
      reason: r.weighted(["home", "reputation", "course", "other"], [28, 27, 37, 8]),
      guardian: r.weighted(["mother", "father", "other"], [69, 23, 8]),
      traveltime: r.weighted([1, 2, 3, 4], [65, 27, 6, 2]),
      studytime,
      failures,
      schoolsup: r.next() < 0.13 ? "yes" : "no",
      famsup: r.next() < 0.61 ? "yes" : "no",
      paid: r.next() < 0.46 ? "yes" : "no",
      activities: r.next() < 0.51 ? "yes" : "no",
      nursery: r.next() < 0.79 ? "yes" : "no",
      higher: r.next() < 0.95 - 0.1 * failures ? "yes" : "no",
      internet: r.next() < 0.83 ? "yes" : "no",
      romantic: r.next() < 0.33 ? "yes" : "no",
      famrel: r.weighted([1, 2, 3, 4, 5], [2, 5, 17, 49, 27]),
      freetime: r.weighted([1, 2, 3, 4, 5], [5, 16, 40, 29, 10]),
      goout: r.weighted([1, 2, 3, 4, 5], [6, 26, 33, 22, 13]),
      health: r.weighted([1, 2, 3, 4, 5], [12, 11, 23, 17, 37]),
      absences,
      G1: g1,
      G2: g2,
    };
    if (row) {
      for (const key of questionKeys) if (key !== "subject" && key in row) base[key] = row[key]!;
    }
    // The student's own G1: a few typed a better one than the school's record holds.
    base.G1 = clamp(g1 + plan.inflatesG1, 0, 20);
    // Earlier submissions show a student still on the way: lower G2 and less study time.
    const count = r.int(o.predictionsPerStudent[0], o.predictionsPerStudent[1]);
    // With a school year, the answers come before and during its first term (its predictions
    // start from them); without, they spread over the term before `now`.
    let when = year
      ? at(year.start.getTime() - 25 * day, year.start.getTime() - day).getTime()
      : at(start, start + 120 * day).getTime();
    for (let k = 0; k < count; k++) {
      const behind = count - 1 - k;
      const inputs: Record<string, string | number> = {
        ...base,
        G2: clamp(g2 - behind * r.int(1, 2), 0, 20),
        studytime: clamp(Number(base.studytime) - (behind > 0 && r.next() < 0.3 ? 1 : 0), 1, 4),
      };
      const asked = new Date(when);
      const history = answered.get(user.id) ?? [];
      history.push({ at: asked, inputs });
      answered.set(user.id, history);
      questionnaires.push({
        user_id: user.id,
        school: inputs.school!,
        sex: inputs.sex!,
        age: inputs.age!,
        address: inputs.address!,
        famsize: inputs.famsize!,
        pstatus: inputs.Pstatus!,
        medu: inputs.Medu!,
        fedu: inputs.Fedu!,
        mjob: inputs.Mjob!,
        fjob: inputs.Fjob!,
        reason: inputs.reason!,
        guardian: inputs.guardian!,
        traveltime: inputs.traveltime!,
        studytime: inputs.studytime!,
        failures: inputs.failures!,
        schoolsup: inputs.schoolsup!,
        famsup: inputs.famsup!,
        paid: inputs.paid!,
        activities: inputs.activities!,
        nursery: inputs.nursery!,
        higher: inputs.higher!,
        internet: inputs.internet!,
        romantic: inputs.romantic!,
        famrel: inputs.famrel!,
        freetime: inputs.freetime!,
        goout: inputs.goout!,
        health: inputs.health!,
        absences: inputs.absences!,
        g1: inputs.G1!,
        g2: inputs.G2!,
        created_at: asked,
      });
      const p = model.predict(inputs);
      predictions.push({
        user_id: user.id,
        inputs: JSON.stringify(inputs),
        score: p.prediction,
        raw_score: p.raw,
        interval_low: p.interval.low,
        interval_high: p.interval.high,
        extrapolation: p.extrapolation,
        model_version: model.version,
        created_at: new Date(when + 60_000),
      });
      when += r.int(5, 20) * day;
    }
  }

  // Reports: some students get several (a few courses, or the same course again later).
  const reports: DemoSchool["reports"] = [];
  for (let i = 0; i < o.reports && pupils.length > 0; i++) {
    const pupil = pupils[Math.floor(r.next() ** 1.3 * pupils.length)]!;
    const attendance = clamp(Math.round(96 - 1.1 * pupil.absences + r.normal(0, 6)), 0, 100);
    const marks = clamp(
      Math.round(22 + pupil.g2 * 3.6 + (attendance - 88) * 0.6 + r.normal(0, 8)),
      0,
      100,
    );
    const score = marks + (attendance - 80) * 0.5 + r.normal(0, 8);
    const behavior =
      score >= 80
        ? "Excellent"
        : score >= 62
          ? "Good"
          : score >= 45
            ? "Average"
            : score >= 30
              ? "Needs Improvement"
              : "Poor";
    reports.push({
      author_id: r.pick(teachers).id,
      student_name: pupil.user.name,
      course: r.pick(courses),
      marks,
      attendance,
      assignments: clamp(Math.round((marks / 100) * 6 + r.normal(0, 0.8)), 0, 6),
      behavior,
      feedback: r.pick(feedbackFor[behavior] ?? feedbackFor.Average!),
      created_at: at(start, o.now.getTime()),
    });
  }
  if (!behaviors.every((b) => feedbackFor[b])) throw new Error("feedback missing for a behaviour");
  const demoYear = year
    ? generateYear(model, y, year, {
        admin: users[0]!,
        teachers,
        students: pupils.map((p) => p.user),
        plans,
        answered,
      })
    : null;
  return { users, reports, questionnaires, predictions, year: demoYear };
}

type Draws = ReturnType<typeof prng>;
const dayMs = 86_400_000;

/** The dates of the last school year that ended before `now` (mid-September to late June). */
export function schoolYearBefore(now: Date) {
  let end = now.getUTCFullYear();
  if (now.getTime() < Date.UTC(end, 6, 10)) end -= 1;
  const date = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d, 8));
  return {
    label: `${end - 1}/${String(end % 100).padStart(2, "0")}`,
    start: date(end - 1, 9, 15),
    /** The first period's grades are out. */
    g1: date(end - 1, 12, 17),
    /** The second period's grades are out. */
    g2: date(end, 3, 27),
    /** The final grades are out. */
    end: date(end, 6, 26),
  };
}
type SchoolYear = ReturnType<typeof schoolYearBefore>;

interface StudentPlan {
  section: "A" | "B";
  /** The subjects taken, the one the student's UCI row comes from first. */
  subjects: Subject[];
  uci: UciRow | null;
  /** How much better than the record the student's own G1 is (0 for most). */
  inflatesG1: number;
  /** The record's values of the first subject (filled as the student is generated). */
  truth: Record<RecordInputKey, number>;
}

/** Each student's section, subjects, UCI row (a seeded sample, no row twice while rows last). */
function planStudents(y: Draws, o: DemoOptions): StudentPlan[] {
  const pools = new Map<Subject, UciRow[]>();
  for (const row of o.uci) pools.set(row.subject, [...(pools.get(row.subject) ?? []), row]);
  const used = new Map<Subject, number>();
  for (const pool of pools.values()) {
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(y.next() * (i + 1));
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    }
  }
  return Array.from({ length: o.students }, (_, i) => {
    const takes = y.weighted(["both", "mat", "por"] as const, [50, 25, 25]);
    const first: Subject = takes === "both" ? y.pick(["mat", "por"] as const) : takes;
    const subjects: Subject[] =
      takes === "both" ? [first, first === "mat" ? "por" : "mat"] : [first];
    const pool = pools.get(first) ?? pools.get(first === "mat" ? "por" : "mat") ?? [];
    const k = used.get(first) ?? 0;
    used.set(first, k + 1);
    return {
      section: i % 2 === 0 ? "A" : "B",
      subjects,
      uci: pool.length > 0 ? pool[k % pool.length]! : null,
      inflatesG1: y.next() < 0.08 ? y.int(2, 4) : 0,
      truth: { G1: 0, G2: 0, absences: 0, failures: 0 },
    };
  });
}

const subjectNames: Record<Subject, string> = { mat: "Maths", por: "Portuguese" };
const ownKeys: readonly RecordInputKey[] = ["G1", "G2", "absences", "failures"];

/** The year's classes, record, stage predictions and outcomes (see the file's comment). */
function generateYear(
  model: Pick<GradeModel, "predict" | "version">,
  y: Draws,
  year: SchoolYear,
  school: {
    admin: DemoUser;
    teachers: DemoUser[];
    students: DemoUser[];
    plans: StudentPlan[];
    answered: Map<string, { at: Date; inputs: Record<string, string | number> }[]>;
  },
): DemoYear {
  const { admin, teachers, students, plans, answered } = school;
  const created = new Date(year.start.getTime() - 20 * dayMs);
  const classes: DemoClass[] = [];
  const classTeachers: DemoYear["classTeachers"] = [];
  const teacherOf = new Map<string, DemoUser>();
  // Maths: the first teacher, with the third as co-teacher of 10A; Portuguese: the second.
  for (const section of ["A", "B"] as const) {
    for (const subject of ["mat", "por"] as const) {
      const id = y.uuid();
      classes.push({
        id,
        name: `${subjectNames[subject]} 10${section}`,
        subject,
        year: year.label,
        created_by: admin.id,
        created_at: created,
      });
      const teacher = teachers[subject === "mat" ? 0 : 1 % teachers.length]!;
      teacherOf.set(id, teacher);
      classTeachers.push({ class_id: id, teacher_id: teacher.id, added_at: created });
      const co = teachers[2];
      if (subject === "mat" && section === "A" && co && co !== teacher) {
        classTeachers.push({ class_id: id, teacher_id: co.id, added_at: created });
      }
    }
  }
  const classFor = (section: string, subject: Subject) =>
    classes.find((c) => c.subject === subject && c.name.endsWith(section))!;

  const enrolments: DemoYear["enrolments"] = [];
  const entries: RecordEntryRow[] = [];
  const records: SchoolRecordRow[] = [];
  const stagePredictions: DatedPrediction[] = [];
  // A working-day time, some days after a date.
  const after = (date: Date, fromDays: number, toDays: number) =>
    new Date(date.getTime() + y.int(fromDays, toDays) * dayMs + y.int(0, 9 * 60) * 60_000);

  students.forEach((student, i) => {
    const plan = plans[i]!;
    const history = answered.get(student.id) ?? [];
    plan.subjects.forEach((subject, k) => {
      const cls = classFor(plan.section, subject);
      const teacher = teacherOf.get(cls.id)!;
      enrolments.push({
        class_id: cls.id,
        student_id: student.id,
        enrolled_at: new Date(created.getTime() + y.int(1, 15) * dayMs),
      });
      // The first subject's record is the student's own (or their UCI row's); the second
      // subject's grades follow it loosely.
      const t = plan.truth;
      const g1 = k === 0 ? t.G1 : clamp(Math.round(t.G1 + y.normal(0, 1.5)), 0, 20);
      const g2 = k === 0 ? t.G2 : clamp(Math.round(g1 + (t.G2 - t.G1) + y.normal(0, 1)), 0, 20);
      const values: Record<RecordInputKey, number> = {
        G1: g1,
        G2: g2,
        absences: t.absences,
        failures: t.failures,
      };
      const firstAbsences = Math.round(t.absences * (0.35 + 0.2 * y.next()));
      let version = 0;
      const set = (field: RecordEntryRow["field"], value: number | null, at: Date) => {
        entries.push({
          class_id: cls.id,
          student_id: student.id,
          field,
          value,
          set_by: teacher.id,
          set_by_name: teacher.name,
          set_at: at,
          via: "seed",
        });
        if (ownKeys.includes(field as RecordInputKey)) version += 1;
        return version;
      };
      const failuresAt = after(year.start, 1, 5);
      const cVersion = set("failures", values.failures, failuresAt);
      const g1At = after(year.g1, 0, 3);
      set("G1", values.G1, g1At);
      const bVersion = set("absences", firstAbsences, g1At);
      const g2At = after(year.g2, 0, 3);
      set("G2", values.G2, g2At);
      const aVersion = set("absences", values.absences, g2At);

      // The school's predictions at each stage, from the student's answers as they stood then
      // with the record's values over them (a student who never answered has none).
      let last: DatedPrediction | null = null;
      if (history.length > 0) {
        const stages: { at: Date; version: number; record: Record<string, number> }[] = [
          {
            at: after(year.start, 8, 14),
            version: cVersion,
            record: { failures: values.failures },
          },
          {
            at: after(year.g1, 5, 9),
            version: bVersion,
            record: { failures: values.failures, G1: values.G1, absences: firstAbsences },
          },
          { at: after(year.g2, 5, 9), version: aVersion, record: values },
        ];
        for (const stage of stages) {
          const answers =
            [...history].reverse().find((h) => h.at <= stage.at)?.inputs ?? history[0]!.inputs;
          const inputs: Record<string, string | number | null> = {
            ...answers,
            G1: null,
            G2: null,
            ...stage.record,
            subject,
          };
          const p = model.predict(inputs);
          last = {
            userId: student.id,
            inputs,
            score: p.prediction,
            rawScore: p.raw,
            intervalLow: p.interval.low,
            intervalHigh: p.interval.high,
            extrapolation: p.extrapolation,
            modelVersion: model.version,
            modelSetup: p.modelSetup,
            scoreIfSits: p.scoreIfSits,
            noFinalScoreRisk: p.noFinalScoreRisk,
            createdAt: stage.at,
            classId: cls.id,
            sources: Object.fromEntries(Object.keys(stage.record).map((key) => [key, "school"])),
            ownValues: Object.fromEntries(
              ownKeys.map((key) => [key, answers[key] === undefined ? null : Number(answers[key])]),
            ),
            recordVersion: stage.version,
            madeBy: "school",
          };
          stagePredictions.push(last);
        }
      }

      // The outcome: the UCI row's G3 (0: did not sit), or the model's last prediction plus
      // noise, or (no prediction) the second period's grade plus noise.
      let g3: number | null;
      if (k === 0 && plan.uci) g3 = Number(plan.uci.G3) > 0 ? Number(plan.uci.G3) : null;
      else if (last) {
        g3 =
          y.next() < last.noFinalScoreRisk
            ? null
            : clamp(Math.round(last.scoreIfSits + y.normal(0, 1.6)), 1, 20);
      } else {
        g3 =
          y.next() < (values.G2 < 8 ? 0.25 : 0.04)
            ? null
            : clamp(Math.round(values.G2 + y.normal(0.2, 1.3)), 1, 20);
      }
      const outcomeAt = after(year.end, 0, 3);
      if (g3 !== null) set("G3", g3, outcomeAt);
      set("sat", g3 === null ? 0 : 1, outcomeAt);
      records.push({
        class_id: cls.id,
        student_id: student.id,
        g1: values.G1,
        g2: values.G2,
        absences: values.absences,
        failures: values.failures,
        g3,
        sat: g3 !== null,
        inputs_version: version,
        updated_at: outcomeAt,
        outcome_at: outcomeAt,
      });
    });
  });
  return {
    label: year.label,
    classes,
    classTeachers,
    enrolments,
    entries,
    records,
    predictions: stagePredictions,
  };
}

/** How many accounts are not demo accounts: the seed refuses to mix with them unless forced. */
export async function countRealUsers(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("email", "not like", `%@${demoDomain}`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Removes a previous demo school: its reports first (they do not cascade with their author), its
 * classes, then its accounts.
 */
export async function removeDemoSchool(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const demo = tx.selectFrom("users").select("id").where("email", "like", `%@${demoDomain}`);
    await tx.deleteFrom("student_reports").where("author_id", "in", demo).execute();
    // The demo year's classes (made by the demo admin); their enrolments, records and the
    // predictions of demo students go with the classes and the accounts.
    await tx.deleteFrom("classes").where("created_by", "in", demo).execute();
    await tx.deleteFrom("users").where("email", "like", `%@${demoDomain}`).execute();
  });
}

/** Inserts the school in one transaction, in batches; all demo accounts share a hash per role. */
export async function insertDemoSchool(
  db: Kysely<DB>,
  school: DemoSchool,
  passwordHashes: Record<Role, string>,
  onProgress?: (done: string) => void,
): Promise<void> {
  const batch = async <T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
  };
  await db.transaction().execute(async (tx) => {
    await batch(school.users, 1000, (chunk) =>
      tx
        .insertInto("users")
        .values(
          chunk.map((u) => ({
            id: u.id,
            name: u.name,
            email: u.email,
            role: u.role,
            pending_role: null,
            password_hash: passwordHashes[u.role],
            email_verified: true,
          })),
        )
        .execute(),
    );
    onProgress?.(`${school.users.length} accounts`);
    await batch(school.questionnaires, 500, (chunk) =>
      tx
        .insertInto("students")
        .values(chunk as never)
        .execute(),
    );
    onProgress?.(`${school.questionnaires.length} questionnaires`);
    await batch(school.predictions, 1000, (chunk) =>
      tx
        .insertInto("predictions")
        .values(chunk.map((p) => ({ ...p, created_at: p.created_at as never })))
        .execute(),
    );
    onProgress?.(`${school.predictions.length} predictions`);
    await batch(school.reports, 2000, (chunk) =>
      tx
        .insertInto("student_reports")
        .values(
          chunk.map((rep) => ({
            ...rep,
            created_at: rep.created_at as never,
            updated_at: rep.created_at as never,
          })),
        )
        .execute(),
    );
    onProgress?.(`${school.reports.length} reports`);
    const year = school.year;
    if (year) {
      await tx
        .insertInto("classes")
        .values(
          year.classes.map((c) => ({
            ...c,
            join_code: null,
            created_at: c.created_at as never,
            updated_at: c.created_at as never,
          })),
        )
        .execute();
      await tx
        .insertInto("class_teachers")
        .values(year.classTeachers.map((c) => ({ ...c, added_at: c.added_at as never })))
        .execute();
      await batch(year.enrolments, 2000, (chunk) =>
        tx
          .insertInto("enrolments")
          .values(chunk.map((e) => ({ ...e, enrolled_at: e.enrolled_at as never })))
          .execute(),
      );
      await insertRecordRows(tx, { entries: year.entries, records: year.records });
      await insertDatedPredictions(tx, year.predictions);
      onProgress?.(
        `${year.classes.length} classes of ${year.label}: ${year.enrolments.length} enrolments, ${year.entries.length} record entries, ${year.predictions.length} stage predictions`,
      );
    }
  });
  await sql`analyze`.execute(db);
}
