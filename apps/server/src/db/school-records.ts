import type { Subject } from "@gradecast/contract/questionnaire";
import type { RecordInputKey } from "@gradecast/contract/school-record";
import type { Insertable, Kysely } from "kysely";
import type { DB, RecordEntriesTable, SchoolRecordsTable } from "./schema.ts";

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

// --- Bulk insert: a whole year of records at once (the demo school's seed) ---------------------
// No audit and no recomputation: the caller writes the predictions that go with these values
// itself. Each current row carries its own inputs_version and timestamps.

/** One value as set: a row of record_entries (`value` for sat: 1 sat, 0 did not sit). */
export type RecordEntryRow = Omit<Insertable<RecordEntriesTable>, "set_at"> & { set_at: Date };
/** One student's current values in one class: a row of school_records. */
export type SchoolRecordRow = Omit<Insertable<SchoolRecordsTable>, "updated_at" | "outcome_at"> & {
  updated_at: Date;
  outcome_at: Date | null;
};

/** Inserts entries and current rows in batches (run it in the caller's transaction). */
export async function insertRecordRows(
  db: Kysely<DB>,
  rows: { entries: RecordEntryRow[]; records: SchoolRecordRow[] },
): Promise<void> {
  // 10 and 11 parameters a row: well under PostgreSQL's 65,535 parameters a statement.
  for (let i = 0; i < rows.entries.length; i += 2000) {
    await db
      .insertInto("record_entries")
      .values(rows.entries.slice(i, i + 2000).map((e) => ({ ...e, set_at: e.set_at as never })))
      .execute();
  }
  for (let i = 0; i < rows.records.length; i += 2000) {
    await db
      .insertInto("school_records")
      .values(
        rows.records.slice(i, i + 2000).map((r) => ({
          ...r,
          updated_at: r.updated_at as never,
          outcome_at: r.outcome_at as never,
        })),
      )
      .execute();
  }
}
