import type { Subject } from "@gradecast/contract/questionnaire";
import type { RecordField, RecordInputKey } from "@gradecast/contract/school-record";
import { type Insertable, type Kysely, sql } from "kysely";
import { hasRow } from "./rows.ts";
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

/** Enrolments (`e`), each with its record row (`r`; all null while the class records nothing). */
function enrolmentsWithRecords(db: Kysely<DB>) {
  return db
    .selectFrom("enrolments as e")
    .leftJoin("school_records as r", (join) =>
      join.onRef("r.class_id", "=", "e.class_id").onRef("r.student_id", "=", "e.student_id"),
    );
}

/** The record's values the model reads, and their version, from enrolmentsWithRecords. */
const recordInputColumns = [
  "r.g1",
  "r.g2",
  "r.absences",
  "r.failures",
  "r.inputs_version as version",
] as const;

/** A row read with recordInputColumns as the inputs the model reads (version 0: no record row). */
function recordInputsOf(r: {
  g1: number | null;
  g2: number | null;
  absences: number | null;
  failures: number | null;
  version: number | null;
}): StudentRecordInputs {
  return {
    values: { G1: r.g1, G2: r.g2, absences: r.absences, failures: r.failures },
    version: r.version ?? 0,
  };
}

/** Every class the student is enrolled in, oldest enrolment first, with its record's values. */
export async function recordContextOf(db: Kysely<DB>, studentId: string): Promise<ClassContext[]> {
  const rows = await enrolmentsWithRecords(db)
    .innerJoin("classes as c", "c.id", "e.class_id")
    .select(["e.class_id as classId", "c.subject", ...recordInputColumns])
    .where("e.student_id", "=", studentId)
    .orderBy("e.enrolled_at")
    .orderBy("e.class_id")
    .execute();
  return rows.map((r) => ({ classId: r.classId, subject: r.subject, ...recordInputsOf(r) }));
}

// The gradebook's reads and writes. A value is stored as a smallint in `record_entries` (`sat`:
// 1 sat, 0 did not sit) and in its own column of `school_records`.

/** The record's six values of one student, null where none is recorded. */
export type RecordValues = Record<RecordField, number | boolean | null>;

/** Who set a value, and when (the newest entry of the field). */
export interface RecordStamp {
  by: { id: string | null; name: string };
  at: Date;
}

/** One enrolled student with the record's current values and each value's newest entry. */
export interface RecordRowData {
  studentId: string;
  name: string;
  email: string;
  values: RecordValues;
  stamps: Partial<Record<RecordField, RecordStamp>>;
  /** school_records.inputs_version (0 without a row). */
  version: number;
  hasOutcome: boolean;
}

type RecordColumns = Pick<SchoolRecordsTable, "g1" | "g2" | "absences" | "failures" | "g3" | "sat">;

const valuesOf = (r: RecordColumns): RecordValues => ({
  G1: r.g1,
  G2: r.g2,
  absences: r.absences,
  failures: r.failures,
  G3: r.g3,
  sat: r.sat,
});

// set_at is Generated<Timestamp>: read as a Date (pg) or a string (some drivers).
const toDate = (d: unknown) => (d instanceof Date ? d : new Date(String(d)));

/** A stored entry's value as the field's (sat: a boolean). */
export function entryValue(field: RecordField, value: number | null): number | boolean | null {
  if (value === null) return null;
  return field === "sat" ? value !== 0 : value;
}

/**
 * The gradebook of a class: every enrolled student (or only `studentIds`) by name, with the
 * current values and who set each one when.
 */
export async function recordRowsOf(
  db: Kysely<DB>,
  classId: string,
  studentIds?: readonly string[],
): Promise<RecordRowData[]> {
  if (studentIds && studentIds.length === 0) return [];
  let rows = enrolmentsWithRecords(db)
    .innerJoin("users as u", "u.id", "e.student_id")
    .select([
      "e.student_id",
      "u.name",
      "u.email",
      "r.g1",
      "r.g2",
      "r.absences",
      "r.failures",
      "r.g3",
      "r.sat",
      "r.inputs_version",
      "r.outcome_at",
    ])
    .where("e.class_id", "=", classId);
  let stamps = db
    .selectFrom("record_entries")
    .distinctOn(["student_id", "field"])
    .select(["student_id", "field", "set_by", "set_by_name", "set_at"])
    .where("class_id", "=", classId);
  if (studentIds) {
    rows = rows.where("e.student_id", "in", studentIds);
    stamps = stamps.where("student_id", "in", studentIds);
  }
  const [found, newest] = await Promise.all([
    rows.orderBy("u.name").orderBy("u.email").execute(),
    stamps.orderBy("student_id").orderBy("field").orderBy("set_at", "desc").execute(),
  ]);
  const byStudent = new Map<string, Partial<Record<RecordField, RecordStamp>>>();
  for (const s of newest) {
    const own = byStudent.get(s.student_id) ?? {};
    own[s.field] = { by: { id: s.set_by, name: s.set_by_name }, at: toDate(s.set_at) };
    byStudent.set(s.student_id, own);
  }
  return found.map((r) => ({
    studentId: r.student_id,
    name: r.name,
    email: r.email,
    values: valuesOf(r),
    stamps: byStudent.get(r.student_id) ?? {},
    version: r.inputs_version ?? 0,
    hasOutcome: r.outcome_at !== null,
  }));
}

/** The class's enrolled students (id, name, email): the import's addresses. */
export async function enrolledStudentsOf(
  db: Kysely<DB>,
  classId: string,
): Promise<{ id: string; name: string; email: string }[]> {
  return db
    .selectFrom("enrolments as e")
    .innerJoin("users as u", "u.id", "e.student_id")
    .select(["u.id", "u.name", "u.email"])
    .where("e.class_id", "=", classId)
    .execute();
}

/** True when the student is enrolled in the class. */
export function isEnrolledIn(db: Kysely<DB>, classId: string, studentId: string): Promise<boolean> {
  return hasRow(db, "enrolments", { class_id: classId, student_id: studentId });
}

/** Every entry of a student's record in a class, newest first. */
export async function recordEntriesOf(db: Kysely<DB>, classId: string, studentId: string) {
  const rows = await db
    .selectFrom("record_entries")
    .select(["field", "value", "set_by", "set_by_name", "set_at", "via"])
    .where("class_id", "=", classId)
    .where("student_id", "=", studentId)
    .orderBy("set_at", "desc")
    .orderBy("field")
    .execute();
  return rows.map((r) => ({
    field: r.field,
    value: entryValue(r.field, r.value),
    setBy: { id: r.set_by, name: r.set_by_name },
    setAt: toDate(r.set_at),
    via: r.via,
  }));
}

/**
 * Serialises the record's writes of one class until the transaction ends: a write reads the
 * current values, then stores the new ones, and two at once would lose one.
 */
export async function lockClassRecord(tx: Kysely<DB>, classId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`record:${classId}`}, 0))`.execute(tx);
}

/** The current values (and version) of the students' records in the class, by student id. */
export async function currentRecords(
  db: Kysely<DB>,
  classId: string,
  studentIds: readonly string[],
): Promise<Map<string, { values: RecordValues; version: number; hasOutcome: boolean }>> {
  const found = new Map<string, { values: RecordValues; version: number; hasOutcome: boolean }>();
  for (let at = 0; at < studentIds.length; at += batch) {
    const rows = await db
      .selectFrom("school_records")
      .select([
        "student_id",
        "g1",
        "g2",
        "absences",
        "failures",
        "g3",
        "sat",
        "inputs_version",
        "outcome_at",
      ])
      .where("class_id", "=", classId)
      .where("student_id", "in", studentIds.slice(at, at + batch))
      .execute();
    for (const r of rows) {
      found.set(r.student_id, {
        values: valuesOf(r),
        version: r.inputs_version,
        hasOutcome: r.outcome_at !== null,
      });
    }
  }
  return found;
}

/** Students per read: well under PostgreSQL's 65,535 parameters. */
const batch = 5000;

/** One value set: the entry to keep. */
export interface RecordEntryWrite {
  studentId: string;
  field: RecordField;
  value: number | boolean | null;
}

/** A student's record after a write: its values, and whether the model's inputs changed. */
export interface RecordRowWrite {
  studentId: string;
  values: RecordValues;
  inputsChanged: boolean;
}

/**
 * Stores a change of the record, in the caller's transaction (after `lockClassRecord`): the
 * entries (the history) and each student's current row, two statements for any number of
 * students. Each column travels as one array parameter (unnest): 12,000 entries as three
 * arrays, not 84,000 parameters to build and bind. `inputs_version` counts a row's changes of
 * the model's inputs; `outcome_at` is set the first time G3 or sat holds a value.
 */
export async function writeRecord(
  tx: Kysely<DB>,
  classId: string,
  by: { id: string; name: string },
  via: "grid" | "import" | "seed",
  entries: readonly RecordEntryWrite[],
  rows: readonly RecordRowWrite[],
): Promise<void> {
  if (entries.length > 0) {
    const stored = (v: number | boolean | null) =>
      v === null ? null : typeof v === "boolean" ? (v ? 1 : 0) : v;
    await sql`
      insert into record_entries (class_id, student_id, field, value, set_by, set_by_name, via)
      select ${classId}::uuid, e.student_id, e.field, e.value, ${by.id}::uuid, ${by.name}, ${via}
      from unnest(
        ${entries.map((e) => e.studentId)}::uuid[],
        ${entries.map((e) => e.field)}::text[],
        ${entries.map((e) => stored(e.value))}::smallint[]
      ) as e(student_id, field, value)`.execute(tx);
  }
  if (rows.length === 0) return;
  const column = <T>(pick: (v: RecordValues) => T) => rows.map((r) => pick(r.values));
  await sql`
    insert into school_records
      (class_id, student_id, g1, g2, absences, failures, g3, sat, inputs_version, outcome_at)
    select ${classId}::uuid, r.student_id, r.g1, r.g2, r.absences, r.failures, r.g3, r.sat,
      r.inputs_changed,
      case when r.g3 is not null or r.sat is not null then now() end
    from unnest(
      ${rows.map((r) => r.studentId)}::uuid[],
      ${column((v) => v.G1)}::smallint[],
      ${column((v) => v.G2)}::smallint[],
      ${column((v) => v.absences)}::smallint[],
      ${column((v) => v.failures)}::smallint[],
      ${column((v) => v.G3)}::smallint[],
      ${column((v) => v.sat)}::boolean[],
      ${rows.map((r) => (r.inputsChanged ? 1 : 0))}::integer[]
    ) as r(student_id, g1, g2, absences, failures, g3, sat, inputs_changed)
    on conflict (class_id, student_id) do update set
      g1 = excluded.g1,
      g2 = excluded.g2,
      absences = excluded.absences,
      failures = excluded.failures,
      g3 = excluded.g3,
      sat = excluded.sat,
      -- The excluded row carries 1 when the inputs changed, 0 otherwise.
      inputs_version = school_records.inputs_version + excluded.inputs_version,
      updated_at = now(),
      outcome_at = coalesce(school_records.outcome_at, excluded.outcome_at)`.execute(tx);
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
 * The record rows of these classes (undefined: every class) that hold an outcome: G3, or
 * sat = false, with the time it was recorded.
 */
function outcomeRows(db: Kysely<DB>, classIds: readonly string[] | undefined) {
  return db
    .selectFrom("school_records as r")
    .where((eb) => eb.or([eb("r.g3", "is not", null), eb("r.sat", "=", false)]))
    .where("r.outcome_at", "is not", null)
    .$if(classIds !== undefined, (q) => q.where("r.class_id", "in", classIds as string[]));
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
  const rows = await outcomeRows(db, classIds)
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
  const row = await outcomeRows(db, classIds)
    .select([
      sql<string>`count(*)::text`.as("n"),
      sql<string | null>`max(r.updated_at)::text`.as("changed"),
      sql<string | null>`max(r.outcome_at)::text`.as("latest"),
    ])
    .executeTakeFirstOrThrow();
  return `${row.n}|${row.changed ?? ""}|${row.latest ?? ""}`;
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
  const rows = await enrolmentsWithRecords(db)
    .select(["e.student_id as studentId", ...recordInputColumns])
    .where("e.class_id", "=", classId)
    .orderBy("e.student_id")
    .execute();
  return {
    subject: cls.subject,
    students: new Map(rows.map((r) => [r.studentId, recordInputsOf(r)])),
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
