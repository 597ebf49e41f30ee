import type { Subject } from "@gradecast/contract/questionnaire";
import type { RecordInputKey } from "@gradecast/contract/school-record";
import type { Kysely } from "kysely";
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

/** One enrolled student's record inputs in a class (null values: not recorded). */
export interface StudentRecordInputs {
  values: Record<RecordInputKey, number | null>;
  /** school_records.inputs_version (0 without a record row). */
  version: number;
}

/**
 * The class's subject and every enrolled student's record inputs (a student without a record
 * row has all values null, version 0); undefined when the class does not exist.
 */
export async function classRecordInputs(
  db: Kysely<DB>,
  classId: string,
): Promise<{ subject: Subject; students: Map<string, StudentRecordInputs> } | undefined> {
  const cls = await db
    .selectFrom("classes")
    .select("subject")
    .where("id", "=", classId)
    .executeTakeFirst();
  if (!cls) return undefined;
  const rows = await db
    .selectFrom("enrolments as e")
    .leftJoin("school_records as r", (join) =>
      join.onRef("r.class_id", "=", "e.class_id").onRef("r.student_id", "=", "e.student_id"),
    )
    .select([
      "e.student_id as studentId",
      "r.g1",
      "r.g2",
      "r.absences",
      "r.failures",
      "r.inputs_version as version",
    ])
    .where("e.class_id", "=", classId)
    .orderBy("e.student_id")
    .execute();
  return {
    subject: cls.subject,
    students: new Map(
      rows.map((r) => [
        r.studentId,
        {
          values: { G1: r.g1, G2: r.g2, absences: r.absences, failures: r.failures },
          version: r.version ?? 0,
        },
      ]),
    ),
  };
}

/** Every class with at least one enrolled student, oldest first (a recomputation's work list). */
export async function classesWithStudents(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom("classes as c")
    .select("c.id")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("enrolments as e").select("e.class_id").whereRef("e.class_id", "=", "c.id"),
      ),
    )
    .orderBy("c.created_at")
    .orderBy("c.id")
    .execute();
  return rows.map((r) => r.id);
}
