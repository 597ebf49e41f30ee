import type { InputSource, RecordInputKey } from "@gradecast/contract/school-record";
import {
  CompiledQuery,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
} from "kysely";
import { Memo } from "../memo.ts";
import { withdrawnStudents } from "./consents.ts";
import { prepared } from "./prepared.ts";
import { newestFirst, type OwnedRecordsQuery } from "./rows.ts";
import type { DB } from "./schema.ts";

// The predictions table's repository: each stored prediction keeps its answers, its score and
// the version of the model that made it. The prediction feature writes and lists them, the
// class risk list reads each student's newest; both get the one row type, StoredPrediction.
// Issue 29: a prediction also keeps the class whose record and subject it used, which inputs the
// record supplied, the student's own values of those inputs and the record version it was made at.

/** The record's inputs a prediction took from the school, e.g. { G1: "school" } (others: the student's). */
export type RecordSources = Partial<Record<RecordInputKey, Extract<InputSource, "school">>>;
/** The student's own G1, G2, absences and failures, as they answered them. */
export type OwnValues = Record<RecordInputKey, number | null>;

export interface NewPrediction {
  userId: string;
  inputs: unknown;
  score: number;
  rawScore: number;
  intervalLow: number;
  intervalHigh: number;
  extrapolation: boolean;
  modelVersion: string;
  modelSetup: "A" | "B" | "C";
  scoreIfSits: number;
  noFinalScoreRisk: number;
  /** The class whose record and subject it used; null (the default): none, no class. */
  classId?: string | null;
  /** Null (the default): no record was read (no class). */
  sources?: RecordSources | null;
  ownValues?: OwnValues | null;
  /** school_records.inputs_version it was made at (0: the class holds no record yet). */
  recordVersion?: number | null;
  /** 'student' unless the school's recomputation made it. */
  madeBy?: "student" | "school";
}

/** A prediction as stored: the columns of migration 0012 are null on the ones made before it. */
export interface StoredPrediction
  extends Required<Omit<NewPrediction, "modelSetup" | "scoreIfSits" | "noFinalScoreRisk">> {
  id: string;
  createdAt: Date;
  modelSetup: NewPrediction["modelSetup"] | null;
  scoreIfSits: number | null;
  noFinalScoreRisk: number | null;
}

const columns =
  '"id", "user_id", "inputs", "score", "raw_score", "interval_low", "interval_high", "extrapolation", "model_version", "model_setup", "score_if_sits", "no_final_score_risk", "class_id", "sources", "own_values", "record_version", "made_by"';
const perRow = 17;

const valuesOf = (n: number) =>
  Array.from(
    { length: n },
    (_, r) => `(${Array.from({ length: perRow }, (_, j) => `$${r * perRow + j + 1}`).join(", ")})`,
  ).join(", ");

/** The insert of n rows: one fixed SQL text per row count, prepared on PostgreSQL. */
const insertTexts = new Memo<number, string>((n) =>
  prepared(
    `insert into "predictions" (${columns}) values ${valuesOf(n)} returning "id", "created_at"`,
  ),
);

// The same insert with the batch's alert backlog row (alerts/backlog.ts) in the same statement:
// one statement is atomic, so the class predictions are never stored without it, and no
// transaction is needed around the two.
const withBacklogTexts = new Memo<number, string>((n) =>
  prepared(
    `with saved as (insert into "predictions" (${columns}) values ${valuesOf(n)} returning "id", "created_at"), queued as (insert into "alert_backlog" ("id", "prediction_ids") values ($${n * perRow + 1}, $${n * perRow + 2}::uuid[])) select "id", "created_at" from saved`,
  ),
);

/** A batch's class predictions whose alerts are still to be evaluated. */
export interface BacklogRow {
  id: string;
  predictionIds: readonly string[];
}

/** `{a,b}`: uuids as a PostgreSQL array literal (the same text for pg and PGlite). */
export const uuidArray = (ids: readonly string[]) => `{${ids.join(",")}}`;

/**
 * One insert statement for these rows, each with the id it was given (the caller's own, so each
 * gets its row back whatever order RETURNING uses); their stored times by id. Stored predictions
 * reach it through group commit (prediction/store.ts); `backlog` is written by the same
 * statement.
 */
export async function insertPredictionRows(
  db: Kysely<DB>,
  rows: { id: string; p: NewPrediction }[],
  backlog?: BacklogRow,
): Promise<Map<string, Date>> {
  const params: unknown[] = [];
  for (const { id, p } of rows) {
    // In the order of `columns`.
    params.push(
      id,
      p.userId,
      JSON.stringify(p.inputs),
      p.score,
      p.rawScore,
      p.intervalLow,
      p.intervalHigh,
      p.extrapolation,
      p.modelVersion,
      p.modelSetup,
      p.scoreIfSits,
      p.noFinalScoreRisk,
      p.classId ?? null,
      p.sources ? JSON.stringify(p.sources) : null,
      p.ownValues ? JSON.stringify(p.ownValues) : null,
      p.recordVersion ?? null,
      p.madeBy ?? "student",
    );
  }
  const result = await db.executeQuery<{ id: string; created_at: Date | string }>(
    backlog
      ? CompiledQuery.raw(withBacklogTexts.get(rows.length), [
          ...params,
          backlog.id,
          uuidArray(backlog.predictionIds),
        ])
      : CompiledQuery.raw(insertTexts.get(rows.length), params),
  );
  return new Map(result.rows.map((row) => [row.id, new Date(row.created_at)]));
}

/** The columns of a StoredPrediction, as stored (inputs may come back as JSON text). */
const storedColumns = [
  "id",
  "user_id as userId",
  "inputs",
  "score",
  "raw_score as rawScore",
  "interval_low as intervalLow",
  "interval_high as intervalHigh",
  "extrapolation",
  "model_version as modelVersion",
  "model_setup as modelSetup",
  "score_if_sits as scoreIfSits",
  "no_final_score_risk as noFinalScoreRisk",
  "class_id as classId",
  "sources",
  "own_values as ownValues",
  "record_version as recordVersion",
  "made_by as madeBy",
] as const;

const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);

function toStored<
  R extends { inputs: unknown; sources: unknown; ownValues: unknown; createdAt: Date | string },
>(r: R) {
  return {
    ...r,
    inputs: json(r.inputs),
    sources: (json(r.sources) ?? null) as RecordSources | null,
    ownValues: (json(r.ownValues) ?? null) as OwnValues | null,
    createdAt: new Date(r.createdAt),
  };
}

/** Predictions newest first: one user's, or everyone's when userId is undefined. */
export async function listPredictions(
  db: Kysely<DB>,
  options: OwnedRecordsQuery,
): Promise<StoredPrediction[]> {
  const rows = await db
    .selectFrom("predictions")
    .select(storedColumns)
    .select(sql<Date>`created_at`.as("createdAt"))
    .$call((q) => newestFirst(q, options))
    .execute();
  return rows.map(toStored);
}

/**
 * What the class risk list reads of each enrolled student: the newest prediction made for this
 * class; the newest made for no class in the class's subject (made before the student was
 * enrolled, or before predictions named their class); and the newest of any other (another
 * class's, another subject's). The caller decides which counts.
 */
export interface ClassPredictions {
  ofClass: StoredPrediction | undefined;
  unclassed: StoredPrediction | undefined;
  other: StoredPrediction | undefined;
}

const kinds = ["ofClass", "unclassed", "other"] as const;

export async function latestPredictionsOfClass(
  db: Kysely<DB>,
  classId: string,
): Promise<Map<string, ClassPredictions>> {
  const kind = sql<number>`case when p.class_id = e.class_id then 0 when p.class_id is null and p.inputs->>'subject' = c.subject then 1 else 2 end`;
  const rows = await db
    .selectFrom("predictions as p")
    .innerJoin("enrolments as e", "e.student_id", "p.user_id")
    .innerJoin("classes as c", "c.id", "e.class_id")
    .distinctOn(["p.user_id", kind])
    .select(storedColumns.map((c) => `p.${c}` as `p.${(typeof storedColumns)[number]}`))
    .select(sql<Date>`p.created_at`.as("createdAt"))
    .select(kind.as("kind"))
    .where("e.class_id", "=", classId)
    // A guardian's withdrawn consent hides the student's predictions from teachers (issue 31).
    .where("p.user_id", "not in", withdrawnStudents(db))
    .orderBy("p.user_id")
    .orderBy(kind)
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .execute();
  const out = new Map<string, ClassPredictions>();
  for (const { kind: k, ...r } of rows) {
    const entry = out.get(r.userId) ?? {
      ofClass: undefined,
      unclassed: undefined,
      other: undefined,
    };
    entry[kinds[Number(k)] ?? "other"] = toStored(r);
    out.set(r.userId, entry);
  }
  return out;
}

/** The newest prediction of each of these students (any class), for recomputing. */
export function newestPredictionsOf(
  db: Kysely<DB>,
  studentIds: readonly string[],
): Promise<Map<string, StoredPrediction>> {
  // A withdrawn consent stops new predictions: recomputing finds nothing to start from.
  return newestOfEach(db, studentIds, (eb) => eb("user_id", "not in", withdrawnStudents(db)));
}

/** The newest prediction of each of these students made for this class. */
export function newestOfClass(
  db: Kysely<DB>,
  classId: string,
  studentIds: readonly string[],
): Promise<Map<string, StoredPrediction>> {
  return newestOfEach(db, studentIds, (eb) => eb("class_id", "=", classId));
}

/** The newest prediction of each of these students among the rows `which` keeps. */
async function newestOfEach(
  db: Kysely<DB>,
  studentIds: readonly string[],
  which: (eb: ExpressionBuilder<DB, "predictions">) => Expression<SqlBool>,
): Promise<Map<string, StoredPrediction>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("predictions")
    .distinctOn("user_id")
    .select(storedColumns)
    .select(sql<Date>`created_at`.as("createdAt"))
    .where("user_id", "in", studentIds)
    .where(which)
    .orderBy("user_id")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return new Map(rows.map((r) => [r.userId, toStored(r)]));
}

/**
 * Students in no class whose newest prediction another model made (they have no class whose
 * recomputation would cover them).
 */
export async function unclassedOfOtherModel(
  db: Kysely<DB>,
  modelVersion: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom("predictions as p")
    .distinctOn("p.user_id")
    .select(["p.user_id as userId", "p.model_version as modelVersion"])
    .where("p.user_id", "not in", (eb) => eb.selectFrom("enrolments").select("student_id"))
    .orderBy("p.user_id")
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .execute();
  return rows.filter((r) => r.modelVersion !== modelVersion).map((r) => r.userId);
}

/** Whether the newest stored prediction was made by another model than `modelVersion`. */
export async function newestIsOtherModel(db: Kysely<DB>, modelVersion: string): Promise<boolean> {
  const row = await db
    .selectFrom("predictions")
    .select("model_version")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined && row.model_version !== modelVersion;
}

// --- Bulk insert of predictions made at given times (the demo school's year) -------------------
// The group-commit writer above stamps each prediction with the time it commits; a seeded school
// year needs predictions dated at each stage of the year, with where each input came from.

/** A prediction for a class, as the school's recomputation makes it, at a given time. */
export interface DatedPrediction
  extends Omit<NewPrediction, "classId" | "sources" | "ownValues" | "recordVersion" | "madeBy"> {
  createdAt: Date;
  classId: string | null;
  /** The record's inputs it used, e.g. { G1: "school" } (absent keys: the student's). */
  sources: Record<string, "school">;
  /** The student's own G1, G2, absences and failures. */
  ownValues: Record<string, number | null> | null;
  recordVersion: number | null;
  madeBy: "student" | "school";
}

/** Inserts the rows in batches of 1,000 (run it in the caller's transaction). */
export async function insertDatedPredictions(
  db: Kysely<DB>,
  rows: DatedPrediction[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto("predictions")
      .values(
        rows.slice(i, i + 1000).map((p) => ({
          user_id: p.userId,
          inputs: JSON.stringify(p.inputs),
          score: p.score,
          raw_score: p.rawScore,
          interval_low: p.intervalLow,
          interval_high: p.intervalHigh,
          extrapolation: p.extrapolation,
          model_version: p.modelVersion,
          model_setup: p.modelSetup,
          score_if_sits: p.scoreIfSits,
          no_final_score_risk: p.noFinalScoreRisk,
          created_at: p.createdAt as never,
          class_id: p.classId,
          sources: JSON.stringify(p.sources),
          own_values: p.ownValues === null ? null : JSON.stringify(p.ownValues),
          record_version: p.recordVersion,
          made_by: p.madeBy,
        })),
      )
      .execute();
  }
}

/** The newest prediction of one setup made for a student in a class before their outcome. */
export interface PredictionBeforeOutcome {
  classId: string;
  studentId: string;
  setup: "A" | "B" | "C";
  score: number;
  scoreIfSits: number;
  noFinalScoreRisk: number;
  intervalLow: number;
  intervalHigh: number;
  createdAt: Date;
  /** From the inputs the model saw (null: not given). */
  sex: string | null;
  age: number | null;
  address: string | null;
  /** The inputs exactly as the model saw them (the training row of issue 30). */
  inputs: Record<string, unknown>;
  modelVersion: string;
}

/**
 * For each outcome (class, student, when it was recorded), per setup, the newest prediction made
 * for that class before the outcome: the evaluation scores predictions as they were (rows are
 * never updated), and one made once the outcome was known scores nothing. The outcomes go in as
 * one JSON parameter; `outcomeAt` is the database's own text of the time, so no precision is lost.
 */
export async function predictionsBeforeOutcomes(
  db: Kysely<DB>,
  outcomes: readonly { classId: string; studentId: string; outcomeAt: string }[],
): Promise<PredictionBeforeOutcome[]> {
  if (outcomes.length === 0) return [];
  const json = JSON.stringify(
    outcomes.map((o) => ({
      class_id: o.classId,
      student_id: o.studentId,
      outcome_at: o.outcomeAt,
    })),
  );
  // Numbers may come back as text, the time as a Date or text, the inputs as JSON text.
  type Row = Omit<PredictionBeforeOutcome, "createdAt" | "age" | "inputs"> & {
    createdAt: Date | string;
    age: string | null;
    inputs: unknown;
  };
  const result = await sql<Row>`
    select distinct on (o.class_id, o.student_id, p.model_setup)
      o.class_id as "classId", o.student_id as "studentId", p.model_setup as "setup",
      p.score, p.score_if_sits as "scoreIfSits", p.no_final_score_risk as "noFinalScoreRisk",
      p.interval_low as "intervalLow", p.interval_high as "intervalHigh",
      p.created_at as "createdAt",
      p.inputs->>'sex' as sex, p.inputs->>'age' as age, p.inputs->>'address' as address,
      p.inputs, p.model_version as "modelVersion"
    from jsonb_to_recordset(${json}::jsonb) as o(class_id uuid, student_id uuid, outcome_at timestamptz)
    join predictions p
      on p.class_id = o.class_id and p.user_id = o.student_id and p.created_at < o.outcome_at
    where p.model_setup is not null and p.score_if_sits is not null
      and p.no_final_score_risk is not null
    order by o.class_id, o.student_id, p.model_setup, p.created_at desc`.execute(db);
  return result.rows.map((r) => ({
    ...r,
    score: Number(r.score),
    scoreIfSits: Number(r.scoreIfSits),
    noFinalScoreRisk: Number(r.noFinalScoreRisk),
    intervalLow: Number(r.intervalLow),
    intervalHigh: Number(r.intervalHigh),
    createdAt: new Date(r.createdAt),
    age: r.age === null || r.age === "" ? null : Number(r.age),
    inputs: (typeof r.inputs === "string" ? JSON.parse(r.inputs) : r.inputs) as Record<
      string,
      unknown
    >,
  }));
}
