import { behaviors } from "@gradecast/contract/reports";
import { type GradeModel, mulberry32 } from "@gradecast/model";
import { type Insertable, type Kysely, sql } from "kysely";
import type { DB, PredictionsTable, StudentReportsTable } from "../src/db/schema.ts";

// A synthetic school for `npm run seed:demo` and the analytics benchmark: students with
// questionnaires and model predictions over time, teachers and their reports. Every value comes
// from a seeded PRNG, so one seed always gives the same school. The distributions are loose
// imitations of the UCI Student Performance data (not copies of it): a latent ability drives G1
// and G2, absences drive attendance, and both drive marks, so the report has shapes to show.

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
}

export const defaultDemoOptions: DemoOptions = {
  seed: 2026,
  students: 300,
  teachers: 6,
  reports: 1000,
  predictionsPerStudent: [1, 4],
  questionnaireShare: 0.85,
  now: new Date(),
};

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
    const absences = clamp(Math.round(Math.abs(r.normal(0, 7)) - ability), 0, 75);
    const g1 = clamp(Math.round(11 + 3 * ability - 1.2 * failures + r.normal(0, 1.5)), 0, 20);
    const g2 = clamp(Math.round(g1 + r.normal(0.2, 1.3)), 0, 20);
    pupils.push({ user, ability, absences, g1, g2 });
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
    // Earlier submissions show a student still on the way: lower G2 and less study time.
    const count = r.int(o.predictionsPerStudent[0], o.predictionsPerStudent[1]);
    let when = at(start, start + 120 * day).getTime();
    for (let k = 0; k < count; k++) {
      const behind = count - 1 - k;
      const inputs: Record<string, string | number> = {
        ...base,
        G2: clamp(g2 - behind * r.int(1, 2), 0, 20),
        studytime: clamp(studytime - (behind > 0 && r.next() < 0.3 ? 1 : 0), 1, 4),
      };
      const asked = new Date(when);
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
  return { users, reports, questionnaires, predictions };
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

/** Removes a previous demo school (its reports first: they do not cascade with their author). */
export async function removeDemoSchool(db: Kysely<DB>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const demo = tx.selectFrom("users").select("id").where("email", "like", `%@${demoDomain}`);
    await tx.deleteFrom("student_reports").where("author_id", "in", demo).execute();
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
  });
  await sql`analyze`.execute(db);
}
