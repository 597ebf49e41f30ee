import type {
  ClassRecord,
  RecordCell,
  RecordCellWrite,
  RecordChange,
  RecordField,
  RecordHistory,
  RecordImport,
  RecordRow,
} from "@gradecast/contract/school-record";
import {
  isRecordInputKey,
  recordFields,
  recordLineKey,
  recordMessages,
} from "@gradecast/contract/school-record";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { type ClassAccess, classAccess } from "../classes/policy.ts";
import { forgetRecordContext } from "../db/record-context.ts";
import {
  currentRecords,
  enrolledStudentsOf,
  isEnrolledIn,
  lockClassRecord,
  type RecordEntryWrite,
  type RecordRowData,
  type RecordRowWrite,
  type RecordValues,
  recordEntriesOf,
  recordRowsOf,
  writeRecord,
} from "../db/school-records.ts";
import { invalid, notFound } from "../domain-errors.ts";
import { enqueueJob, jobKinds } from "../jobs/queue.ts";
import type { Services } from "../services.ts";
import { parseRecordFile } from "./import.ts";

// The gradebook (issue 29): a class's teachers keep each enrolled student's term grades,
// absences, past failures and the year's outcome; an admin reads it. Every value is a new entry
// (a correction keeps the earlier one), the current row changes in the same transaction, every
// change is audited (who, which student, which field: never the value), and a change of what
// the model reads asks for the class's predictions to be recomputed. A value equal to the
// record's is not written again: repeating a change changes nothing.

type Db = Services["db"];

const emptyValues = (): RecordValues => ({
  G1: null,
  G2: null,
  absences: null,
  failures: null,
  G3: null,
  sat: null,
});

function rowOf(data: RecordRowData): RecordRow {
  const values = {} as Record<RecordField, RecordCell | null>;
  for (const field of recordFields) {
    const stamp = data.stamps[field];
    const value = data.values[field];
    values[field] =
      stamp || value !== null
        ? {
            value,
            setBy: stamp?.by ?? { id: null, name: "" },
            setAt: (stamp?.at ?? new Date(0)).toISOString(),
          }
        : null;
  }
  return { studentId: data.studentId, name: data.name, email: data.email, values };
}

/** A student who did not sit the final has no final grade. */
const outcomeConflict = (v: RecordValues) => v.sat === false && v.G3 !== null;

/** GET /api/classes/:id/record. */
export async function classRecord(
  services: Services,
  actor: Actor,
  classId: string,
): Promise<ClassRecord> {
  const { record, relation } = await classAccess(services, actor, classId, "manage");
  const rows = await recordRowsOf(services.db, classId);
  return {
    class: { id: record.id, name: record.name, subject: record.subject, year: record.year },
    canEdit: relation === "teacher",
    items: rows.map(rowOf),
  };
}

async function enrolledOrThrow(db: Db, classId: string, studentId: string) {
  if (!(await isEnrolledIn(db, classId, studentId))) throw notFound(recordMessages.notEnrolled);
}

/** GET /api/classes/:id/record/:uid/history. */
export async function recordHistory(
  services: Services,
  actor: Actor,
  classId: string,
  studentId: string,
): Promise<RecordHistory> {
  await classAccess(services, actor, classId, "manage");
  await enrolledOrThrow(services.db, classId, studentId);
  const entries = await recordEntriesOf(services.db, classId, studentId);
  return { items: entries.map((e) => ({ ...e, setAt: e.setAt.toISOString() })) };
}

/** One student's changes applied to their current values. */
interface Planned {
  studentId: string;
  before: RecordValues;
  after: RecordValues;
  changed: RecordField[];
}

function plan(
  current: RecordValues | undefined,
  studentId: string,
  values: Partial<Record<RecordField, number | boolean | null>>,
): Planned {
  const before = current ?? emptyValues();
  const after = { ...before };
  const changed: RecordField[] = [];
  for (const field of recordFields) {
    const value = values[field];
    if (value === undefined || value === before[field]) continue;
    after[field] = value;
    changed.push(field);
  }
  return { studentId, before, after, changed };
}

/** The entries and rows to store for the planned changes (those that change something). */
function writesOf(planned: readonly Planned[]) {
  const entries: RecordEntryWrite[] = [];
  const rows: RecordRowWrite[] = [];
  for (const p of planned) {
    if (p.changed.length === 0) continue;
    for (const field of p.changed) {
      entries.push({ studentId: p.studentId, field, value: p.after[field] });
    }
    rows.push({
      studentId: p.studentId,
      values: p.after,
      inputsChanged: p.changed.some(isRecordInputKey),
    });
  }
  return { entries, rows, inputsChanged: rows.some((r) => r.inputsChanged) };
}

/**
 * PUT /api/classes/:id/record/:uid: one value set or cleared; the row as it now is. `access` is
 * the class policy's answer for the verb `record`, checked before the body was read.
 */
export async function setRecordCell(
  services: Services,
  actor: Actor,
  access: ClassAccess<"record">,
  studentId: string,
  body: RecordCellWrite,
): Promise<{ row: RecordRow; message: string }> {
  const classId = access.record.id;
  await enrolledOrThrow(services.db, classId, studentId);
  const row = await services.db.transaction().execute(async (tx) => {
    await lockClassRecord(tx, classId);
    const current = (await currentRecords(tx, classId, [studentId])).get(studentId);
    const planned = plan(current?.values, studentId, { [body.field]: body.value });
    if (outcomeConflict(planned.after)) {
      throw invalid(recordMessages.g3WithoutSitting, {
        [body.field]: recordMessages.g3WithoutSitting,
      });
    }
    const { entries, rows, inputsChanged } = writesOf([planned]);
    if (entries.length > 0) {
      await writeRecord(tx, classId, actor.user, "grid", entries, rows);
      await audit(tx, {
        ...who(actor, classId),
        action: "record.value_set",
        details: { studentId, field: body.field },
      });
      if (inputsChanged) await askRecompute(tx, classId, actor);
    }
    const [now] = await recordRowsOf(tx, classId, [studentId]);
    // The enrolment was checked above; it cannot go in this transaction's snapshot.
    if (!now) throw notFound(recordMessages.notEnrolled);
    return rowOf(now);
  });
  // The next prediction reads the committed record, not the cached one.
  forgetRecordContext(studentId);
  return { row, message: recordMessages.saved };
}

/** Asks for the class's predictions to be made again from the record (one waiting job). */
function askRecompute(tx: Db, classId: string, actor: Actor) {
  return enqueueJob(tx, {
    kind: jobKinds.recomputePredictions,
    key: classId,
    createdBy: actor.user.id,
  });
}

/**
 * POST /api/classes/:id/record/import: the values of a CSV file that differ from the record.
 * The preview (`dryRun`) writes nothing; the import writes them all in one transaction, with one
 * audit entry listing each student and field changed. A file with any bad line changes nothing.
 */
export async function importRecordFile(
  services: Services,
  actor: Actor,
  access: ClassAccess<"record">,
  file: unknown,
  dryRun: boolean,
): Promise<RecordImport> {
  const classId = access.record.id;
  if (!Buffer.isBuffer(file)) {
    throw invalid(recordMessages.importNotCsv, { file: recordMessages.importNotCsv });
  }
  const students = await enrolledStudentsOf(services.db, classId);
  const { rows, errors } = await parseRecordFile(file, students);
  if (Object.keys(errors).length > 0) throw invalid(recordMessages.importRefused, errors);

  const compare = async (db: Db) => {
    const current = await currentRecords(
      db,
      classId,
      rows.map((r) => r.student.id),
    );
    const planned: Planned[] = [];
    const changes: RecordChange[] = [];
    const refused: Record<string, string> = {};
    let unchanged = 0;
    for (const row of rows) {
      const p = plan(current.get(row.student.id)?.values, row.student.id, row.values);
      if (outcomeConflict(p.after)) {
        refused[recordLineKey(row.line)] = recordMessages.g3WithoutSitting;
        continue;
      }
      planned.push(p);
      unchanged += Object.keys(row.values).length - p.changed.length;
      for (const field of p.changed) {
        changes.push({
          line: row.line,
          studentId: row.student.id,
          name: row.student.name,
          email: row.student.email,
          field,
          from: p.before[field],
          to: p.after[field],
        });
      }
    }
    if (Object.keys(refused).length > 0) throw invalid(recordMessages.importRefused, refused);
    return { planned, changes, unchanged };
  };

  if (dryRun) {
    const { changes, unchanged } = await compare(services.db);
    return {
      dryRun,
      rows: rows.length,
      changes,
      unchanged,
      message: recordMessages.preview(changes.length),
    };
  }
  const { changes, unchanged } = await services.db.transaction().execute(async (tx) => {
    await lockClassRecord(tx, classId);
    const compared = await compare(tx);
    const { entries, rows: written, inputsChanged } = writesOf(compared.planned);
    if (entries.length > 0) {
      await writeRecord(tx, classId, actor.user, "import", entries, written);
      await audit(tx, {
        ...who(actor, classId),
        action: "record.imported",
        details: {
          rows: rows.length,
          changes: entries.map((e) => ({ studentId: e.studentId, field: e.field })),
        },
      });
      if (inputsChanged) await askRecompute(tx, classId, actor);
    }
    return compared;
  });
  if (changes.length > 0) forgetRecordContext(classId);
  return {
    dryRun,
    rows: rows.length,
    changes,
    unchanged,
    message: recordMessages.imported(changes.length),
  };
}
