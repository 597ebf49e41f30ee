import type { Subject } from "@gradecast/contract/questionnaire";
import type { RecordInputKey } from "@gradecast/contract/school-record";
import { type Kysely, sql } from "kysely";
import type { DB } from "./schema.ts";

// The school record's repository (migration 0024): `school_records` (current values) and
// `record_entries` (every value ever set). The gradebook writes through it; predictions read
// each enrolled class's current values through `recordContextOf`.

/** One class a student is enrolled in, with the record's current values the model reads. */
export interface ClassContext {
  classId: string;
  subject: Subject;
  /** The record's values (null: not recorded, the student's answer is used). */
  values: Record<RecordInputKey, number | null>;
  /** school_records.inputs_version (0 without a record row). */
  version: number;
}

/** Every class the student is enrolled in, oldest enrolment first, with its record's values. */
export async function recordContextOf(db: Kysely<DB>, studentId: string): Promise<ClassContext[]> {
  const rows = await db
    .selectFrom("enrolments as e")
    .innerJoin("classes as c", "c.id", "e.class_id")
    .leftJoin("school_records as r", (join) =>
      join.onRef("r.class_id", "=", "e.class_id").onRef("r.student_id", "=", "e.student_id"),
    )
    .select([
      "e.class_id as classId",
      "c.subject",
      "r.g1",
      "r.g2",
      "r.absences",
      "r.failures",
      "r.inputs_version as version",
    ])
    .where("e.student_id", "=", studentId)
    .orderBy("e.enrolled_at")
    .orderBy("e.class_id")
    .execute();
  return rows.map((r) => ({
    classId: r.classId,
    subject: r.subject,
    values: { G1: r.g1, G2: r.g2, absences: r.absences, failures: r.failures },
    version: r.version ?? 0,
  }));
}

// ---------------------------------------------------------------------------------------------
// Outcomes, for the evaluation of the model on this school's students (evaluation/service.ts).

/** A recorded outcome: a final grade, or that the student did not sit the final. */
export interface RecordedOutcome {
  classId: string;
  className: string;
  subject: Subject;
  studentId: string;
  /** The final grade, when the student sat it. */
  g3: number | null;
  sat: boolean;
  /** When the outcome was first recorded, as the database's exact text (compared in SQL). */
  outcomeAt: string;
  recordedAt: Date;
}

/**
 * Every recorded outcome of these classes (undefined: every class). A row has an outcome when it
 * has G3 or sat = false; sat true or unset with a G3 means the student sat with that G3.
 */
export async function outcomesOf(
  db: Kysely<DB>,
  classIds: readonly string[] | undefined,
): Promise<RecordedOutcome[]> {
  if (classIds?.length === 0) return [];
  const rows = await db
    .selectFrom("school_records as r")
    .innerJoin("classes as c", "c.id", "r.class_id")
    .select([
      "r.class_id as classId",
      "c.name as className",
      "c.subject",
      "r.student_id as studentId",
      "r.g3",
      "r.sat",
      sql<string>`r.outcome_at::text`.as("outcomeAt"),
      "r.outcome_at as recordedAt",
    ])
    .where((eb) => eb.or([eb("r.g3", "is not", null), eb("r.sat", "=", false)]))
    .where("r.outcome_at", "is not", null)
    .$if(classIds !== undefined, (q) => q.where("r.class_id", "in", classIds as string[]))
    .orderBy("r.class_id")
    .orderBy("r.student_id")
    .execute();
  return rows.map((r) => ({
    ...r,
    // Did not sit only when said so; a G3 without "sat" is a grade the student sat for.
    sat: r.sat !== false,
    g3: r.sat === false ? null : r.g3,
    recordedAt: new Date(r.recordedAt as Date | string),
  }));
}

/**
 * What the outcomes of these classes look like now, in one cheap row: how many there are and the
 * latest change to any of their rows. Equal fingerprints: the same outcomes (a correction moves
 * updated_at; predictions made after an outcome never count, so new ones change nothing).
 */
export async function outcomesFingerprint(
  db: Kysely<DB>,
  classIds: readonly string[] | undefined,
): Promise<string> {
  if (classIds?.length === 0) return "0";
  const row = await db
    .selectFrom("school_records as r")
    .select([
      sql<string>`count(*)::text`.as("n"),
      sql<string | null>`max(r.updated_at)::text`.as("changed"),
      sql<string | null>`max(r.outcome_at)::text`.as("latest"),
    ])
    .where((eb) => eb.or([eb("r.g3", "is not", null), eb("r.sat", "=", false)]))
    .where("r.outcome_at", "is not", null)
    .$if(classIds !== undefined, (q) => q.where("r.class_id", "in", classIds as string[]))
    .executeTakeFirstOrThrow();
  return `${row.n}|${row.changed ?? ""}|${row.latest ?? ""}`;
}
