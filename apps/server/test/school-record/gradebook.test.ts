import {
  type ClassRecord,
  classRecordSchema,
  type RecordHistory,
  type RecordImport,
  type RecordRow,
  recordHistorySchema,
  recordImportLimits,
  recordImportSchema,
  recordLineKey,
  recordMessages,
  recordRowAnswerSchema,
} from "@gradecast/contract/school-record";
import { describe, expect } from "vitest";
import { jobKinds } from "../../src/jobs/queue.ts";
import { randomIp, type SignedInUser, signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, type DialectName, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// The gradebook (issue 29) through the real API: who reads and who changes a class's school
// record (every relationship), a value's history (a correction keeps the earlier value), the
// audit log (who, which student, which field, never the value), the recomputation asked for when
// a value the model reads changes (and not for the outcome), and the CSV import: its preview,
// each bad line's reason, a repeat that changes nothing, and a file of 2,000 rows.

// The school's people, made once per database for the file (the tests make a class each).
const tests = Object.fromEntries(
  Object.entries(apiTests({ env: { RATE_LIMITS: "off" }, runJobs: false })).map(
    ([dialect, test]) => [dialect, withSchool(test)],
  ),
) as Record<DialectName, ReturnType<typeof withSchool>>;

type Caller = SignedInUser | undefined;

interface School {
  teacher: SignedInUser;
  coTeacher: SignedInUser;
  otherTeacher: SignedInUser;
  unverifiedTeacher: SignedInUser;
  pendingTeacher: SignedInUser;
  admin: SignedInUser;
  amy: SignedInUser;
  ben: SignedInUser;
  /** Enrolled in another class only. */
  otherStudent: SignedInUser;
}

function calls(t: TestApp) {
  const inject = (method: "GET" | "PUT" | "POST", url: string, who: Caller, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: who ? who.auth : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    get: (who: Caller, classId: string) => inject("GET", `/api/classes/${classId}/record`, who),
    history: (who: Caller, classId: string, uid: string) =>
      inject("GET", `/api/classes/${classId}/record/${uid}/history`, who),
    set: (who: Caller, classId: string, uid: string, field: string, value: unknown) =>
      inject("PUT", `/api/classes/${classId}/record/${uid}`, who, { field, value }),
    upload: (who: Caller, classId: string, file: string | Buffer, dryRun = false) =>
      t.app.inject({
        method: "POST",
        url: `/api/classes/${classId}/record/import${dryRun ? "?dryRun=true" : ""}`,
        remoteAddress: randomIp(),
        headers: { ...(who ? who.auth : {}), "content-type": "text/csv" },
        payload: file,
      }),
  };
}

/** Students enrolled in the class, written directly (the import tests need many). */
async function pupils(t: TestApp, classId: string, count: number) {
  const tag = Math.random().toString(36).slice(2, 8);
  const users = await t.database.db
    .insertInto("users")
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: `Pupil ${String(i).padStart(4, "0")}`,
        email: `pupil-${tag}-${i}@example.com`,
        password_hash: "not a hash",
        role: "student" as const,
        email_verified: true,
      })),
    )
    .returning(["id", "email"])
    .execute();
  await t.database.db
    .insertInto("enrolments")
    .values(users.map((u) => ({ class_id: classId, student_id: u.id })))
    .execute();
  return users;
}

async function makeSchool(t: TestApp): Promise<School> {
  const [teacher, coTeacher, otherTeacher, unverifiedTeacher, pendingTeacher, admin] =
    await Promise.all([
      signIn(t, "teacher", { name: "Class Teacher" }),
      signIn(t, "teacher", { name: "Co Teacher" }),
      signIn(t, "teacher", { name: "Other Teacher" }),
      signIn(t, "teacher", { verified: false }),
      signIn(t, "teacher", { pending: true }),
      signIn(t, "admin"),
    ]);
  const [amy, ben, otherStudent] = await Promise.all([
    signIn(t, "student", { name: "Amy Student" }),
    signIn(t, "student", { name: "Ben Student" }),
    signIn(t, "student", { name: "Other Student" }),
  ]);
  await makeClass(t, { teachers: [otherTeacher.user.uid], students: [otherStudent.user.uid] });
  return {
    teacher,
    coTeacher,
    otherTeacher,
    unverifiedTeacher,
    pendingTeacher,
    admin,
    amy,
    ben,
    otherStudent,
  };
}

/** A new class of the school's teacher and co-teacher (and the unverified one), Amy and Ben in it. */
async function classOf(t: TestApp, s: School, extraStudents: string[] = []): Promise<string> {
  return makeClass(t, {
    teachers: [s.teacher.user.uid, s.coTeacher.user.uid, s.unverifiedTeacher.user.uid],
    students: [s.amy.user.uid, s.ben.user.uid, ...extraStudents],
  });
}

/** The school, the gradebook calls, and a new class of the school for each test that asks. */
function withSchool(test: ReturnType<typeof apiTests>[DialectName]) {
  return test
    .extend("school", { scope: "file" }, ({ t }) => makeSchool(t))
    .extend("c", { scope: "file" }, ({ t }) => calls(t))
    .extend("classId", ({ t, school }) => classOf(t, school));
}

const jobsOf = (t: TestApp, classId: string) =>
  t.database.db
    .selectFrom("jobs")
    .select(["id", "state", "created_by"])
    .where("kind", "=", jobKinds.recomputePredictions)
    .where("key", "=", classId)
    .execute();

const entriesOf = (t: TestApp, classId: string) =>
  t.database.db.selectFrom("record_entries").selectAll().where("class_id", "=", classId).execute();

const recordOf = (t: TestApp, classId: string, studentId: string) =>
  t.database.db
    .selectFrom("school_records")
    .selectAll()
    .where("class_id", "=", classId)
    .where("student_id", "=", studentId)
    .executeTakeFirst();

describe.each(dialects)("gradebook (%s)", (dialect) => {
  const test = tests[dialect];

  const rowOf = (record: ClassRecord, who: SignedInUser): RecordRow => {
    const row = record.items.find((i) => i.studentId === who.user.uid);
    if (!row) throw new Error(`${who.user.name} is not in the gradebook`);
    return row;
  };

  test("reads and changes the record by relationship: the class's teachers, an admin reads only, anybody else 404 or refused", async ({
    t,
    school: s,
    c,
    classId,
  }) => {
    const amy = s.amy.user.uid;
    const file = `email,G1\n${s.amy.email},11\n`;

    // The class's teachers: read, write, history, import.
    for (const [who, value] of [
      [s.teacher, 10],
      [s.coTeacher, 11],
    ] as const) {
      const read = await c.get(who, classId);
      expect(read.statusCode, read.body).toBe(200);
      const record = classRecordSchema.parse(read.json());
      expect(record.canEdit).toBe(true);
      expect(record.class.id).toBe(classId);
      expect(record.items.map((i) => i.name)).toEqual(["Amy Student", "Ben Student"]);
      const set = await c.set(who, classId, amy, "G1", value);
      expect(set.statusCode, set.body).toBe(200);
      expect(recordRowAnswerSchema.parse(set.json()).row.values.G1?.value).toBe(value);
      expect((await c.history(who, classId, amy)).statusCode).toBe(200);
      const preview = await c.upload(who, classId, file, true);
      expect(preview.statusCode, preview.body).toBe(200);
    }
    const applied = await c.upload(s.coTeacher, classId, file);
    expect(applied.statusCode, applied.body).toBe(200);

    // An admin reads the record and its history, and changes nothing (a teacher's call alone).
    const adminRead = await c.get(s.admin, classId);
    expect(adminRead.statusCode, adminRead.body).toBe(200);
    expect(classRecordSchema.parse(adminRead.json()).canEdit).toBe(false);
    expect((await c.history(s.admin, classId, amy)).statusCode).toBe(200);
    const adminSet = await c.set(s.admin, classId, amy, "G1", 5);
    expect(adminSet.statusCode).toBe(403);
    expect(errorOf(adminSet.body).code).toBe("forbidden");
    expect((await c.upload(s.admin, classId, file, true)).statusCode).toBe(403);
    expect((await c.upload(s.admin, classId, file)).statusCode).toBe(403);

    // A teacher of another class: 404 for every call, as for a class that does not exist.
    for (const res of [
      await c.get(s.otherTeacher, classId),
      await c.history(s.otherTeacher, classId, amy),
      await c.set(s.otherTeacher, classId, amy, "G1", 5),
      await c.upload(s.otherTeacher, classId, file, true),
      await c.upload(s.otherTeacher, classId, file),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }

    // Students (the one concerned, another, one of another class), a teacher waiting for approval
    // (a student's account until then), an unverified teacher of the class, nobody signed in.
    const refused: [Caller, number][] = [
      [s.amy, 403],
      [s.ben, 403],
      [s.otherStudent, 403],
      [s.pendingTeacher, 403],
      [s.unverifiedTeacher, 403],
      [undefined, 401],
    ];
    for (const [who, status] of refused) {
      for (const res of [
        await c.get(who, classId),
        await c.history(who, classId, amy),
        await c.set(who, classId, amy, "G1", 5),
        await c.upload(who, classId, file, true),
        await c.upload(who, classId, file),
      ]) {
        expect(res.statusCode, res.body).toBe(status);
      }
    }
    const unverified = await c.get(s.unverifiedTeacher, classId);
    expect(errorOf(unverified.body).code).toBe("email_not_verified");

    // Nothing the refused calls sent was kept: G1 is the co-teacher's import, 11.
    const after = classRecordSchema.parse((await c.get(s.teacher, classId)).json());
    expect(rowOf(after, s.amy).values.G1).toMatchObject({
      value: 11,
      setBy: { id: s.coTeacher.user.uid, name: "Co Teacher" },
    });
    const all = await entriesOf(t, classId);
    expect(all.map((e) => e.value).sort()).toEqual([10, 11]);
  });

  test("a value carries who set it and when; a correction keeps the earlier value in the history, newest first", async ({
    school: s,
    c,
    classId,
  }) => {
    const amy = s.amy.user.uid;
    const before = Date.now();
    const first = await c.set(s.teacher, classId, amy, "G1", 9);
    expect(first.statusCode, first.body).toBe(200);
    const answer = recordRowAnswerSchema.parse(first.json());
    expect(answer.message).toBe(recordMessages.saved);
    expect(answer.row).toMatchObject({ studentId: amy, name: "Amy Student", email: s.amy.email });
    expect(answer.row.values.G1).toMatchObject({
      value: 9,
      setBy: { id: s.teacher.user.uid, name: "Class Teacher" },
    });
    expect(Date.parse(answer.row.values.G1?.setAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.row.values.G2).toBeNull();

    expect((await c.set(s.coTeacher, classId, amy, "G1", 13)).statusCode).toBe(200);
    expect((await c.set(s.teacher, classId, amy, "absences", 4)).statusCode).toBe(200);
    const cleared = await c.set(s.teacher, classId, amy, "absences", null);
    expect(recordRowAnswerSchema.parse(cleared.json()).row.values.absences).toMatchObject({
      value: null,
      setBy: { name: "Class Teacher" },
    });

    const res = await c.history(s.teacher, classId, amy);
    expect(res.statusCode, res.body).toBe(200);
    const history: RecordHistory = recordHistorySchema.parse(res.json());
    expect(history.items.map((i) => [i.field, i.value, i.setBy.name, i.via])).toEqual([
      ["absences", null, "Class Teacher", "grid"],
      ["absences", 4, "Class Teacher", "grid"],
      ["G1", 13, "Co Teacher", "grid"],
      ["G1", 9, "Class Teacher", "grid"],
    ]);
    // Ben's history is his own: empty.
    const ben = recordHistorySchema.parse(
      (await c.history(s.teacher, classId, s.ben.user.uid)).json(),
    );
    expect(ben.items).toEqual([]);
  });

  test("every change is audited (who, which student, which field, never the value); the same value again changes nothing", async ({
    t,
    school: s,
    c,
    classId,
  }) => {
    const ben = s.ben.user.uid;
    expect((await c.set(s.teacher, classId, ben, "failures", 2)).statusCode).toBe(200);
    const again = await c.set(s.teacher, classId, ben, "failures", 2);
    expect(again.statusCode, again.body).toBe(200);
    expect(recordRowAnswerSchema.parse(again.json()).row.values.failures?.value).toBe(2);

    const entries = await auditOf(t, "record.value_set", classId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_id: s.teacher.user.uid,
      actor_email: s.teacher.email,
    });
    expect(entries[0]?.details).toEqual({ studentId: ben, field: "failures" });
    expect(await entriesOf(t, classId)).toHaveLength(1);
    expect((await recordOf(t, classId, ben))?.inputs_version).toBe(1);
  });

  test("a change of what the model reads queues one recomputation of the class; the outcome does not", async ({
    t,
    school: s,
    c,
    classId: inputs,
  }) => {
    expect(await jobsOf(t, inputs)).toEqual([]);
    expect((await c.set(s.teacher, inputs, s.amy.user.uid, "G1", 12)).statusCode).toBe(200);
    expect((await c.set(s.teacher, inputs, s.ben.user.uid, "G2", 8)).statusCode).toBe(200);
    expect((await c.set(s.coTeacher, inputs, s.amy.user.uid, "absences", 3)).statusCode).toBe(200);
    const queued = await jobsOf(t, inputs);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ state: "queued", created_by: s.teacher.user.uid });
    expect((await recordOf(t, inputs, s.amy.user.uid))?.inputs_version).toBe(2);

    const outcomes = await classOf(t, s);
    expect((await c.set(s.teacher, outcomes, s.amy.user.uid, "G3", 14)).statusCode).toBe(200);
    expect((await c.set(s.teacher, outcomes, s.ben.user.uid, "sat", false)).statusCode).toBe(200);
    expect(await jobsOf(t, outcomes)).toEqual([]);
    const amy = await recordOf(t, outcomes, s.amy.user.uid);
    expect(amy).toMatchObject({ g3: 14, inputs_version: 0 });
    expect(amy?.outcome_at).not.toBeNull();
    const firstOutcome = amy?.outcome_at;
    // The outcome's time is the first one: a corrected G3 keeps it.
    expect((await c.set(s.teacher, outcomes, s.amy.user.uid, "G3", 15)).statusCode).toBe(200);
    expect((await recordOf(t, outcomes, s.amy.user.uid))?.outcome_at).toEqual(firstOutcome);
  });

  test("a final grade for a student who did not sit, a value out of range and a student not in the class are refused", async ({
    school: s,
    c,
    classId,
  }) => {
    const amy = s.amy.user.uid;
    const ben = s.ben.user.uid;
    expect((await c.set(s.teacher, classId, amy, "sat", false)).statusCode).toBe(200);
    const g3 = await c.set(s.teacher, classId, amy, "G3", 12);
    expect(g3.statusCode).toBe(400);
    expect(errorOf(g3.body)).toMatchObject({
      message: recordMessages.g3WithoutSitting,
      fields: { G3: recordMessages.g3WithoutSitting },
    });
    expect((await c.set(s.teacher, classId, ben, "G3", 12)).statusCode).toBe(200);
    const sat = await c.set(s.teacher, classId, ben, "sat", false);
    expect(sat.statusCode).toBe(400);
    expect(errorOf(sat.body).fields).toEqual({ sat: recordMessages.g3WithoutSitting });
    // Sitting with a grade is fine.
    expect((await c.set(s.teacher, classId, ben, "sat", true)).statusCode).toBe(200);

    const range = await c.set(s.teacher, classId, amy, "G1", 21);
    expect(range.statusCode).toBe(400);
    expect(errorOf(range.body).message).toContain(recordMessages.valueRange("G1"));
    const notInt = await c.set(s.teacher, classId, amy, "absences", 2.5);
    expect(notInt.statusCode).toBe(400);

    for (const res of [
      await c.set(s.teacher, classId, s.otherStudent.user.uid, "G1", 10),
      await c.history(s.teacher, classId, s.otherStudent.user.uid),
      await c.history(s.admin, classId, s.otherStudent.user.uid),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(errorOf(res.body).message).toBe(recordMessages.notEnrolled);
    }
    const record = classRecordSchema.parse((await c.get(s.teacher, classId)).json());
    expect(rowOf(record, s.amy).values).toMatchObject({
      G1: null,
      G3: null,
      sat: { value: false },
    });
    expect(rowOf(record, s.ben).values).toMatchObject({ G3: { value: 12 }, sat: { value: true } });
  });

  test("imports a CSV: the preview writes nothing, the import writes what differs, a repeat changes nothing", async ({
    t,
    school: s,
    c,
    classId,
  }) => {
    expect((await c.set(s.teacher, classId, s.ben.user.uid, "G1", 15)).statusCode).toBe(200);
    await t.database.db.deleteFrom("jobs").where("key", "=", classId).execute();
    // A spreadsheet's semicolons, a BOM, quoted fields, the address in another case, a blank
    // cell (left as it is), sat as words.
    const file = `\uFEFFemail;G1;"G2";sat\r\n"${s.amy.email.toUpperCase()}";10;;yes\r\n${s.ben.email};15;"9";no\r\n`;

    const preview = await c.upload(s.teacher, classId, file, true);
    expect(preview.statusCode, preview.body).toBe(200);
    const planned: RecordImport = recordImportSchema.parse(preview.json());
    expect(planned).toMatchObject({ dryRun: true, rows: 2, unchanged: 1 });
    expect(planned.message).toBe(recordMessages.preview(4));
    expect(planned.changes.map((ch) => [ch.line, ch.name, ch.field, ch.from, ch.to])).toEqual([
      [2, "Amy Student", "G1", null, 10],
      [2, "Amy Student", "sat", null, true],
      [3, "Ben Student", "G2", null, 9],
      [3, "Ben Student", "sat", null, false],
    ]);
    expect(await entriesOf(t, classId)).toHaveLength(1);
    expect(await jobsOf(t, classId)).toEqual([]);

    const applied = await c.upload(s.teacher, classId, file);
    expect(applied.statusCode, applied.body).toBe(200);
    const done = recordImportSchema.parse(applied.json());
    expect(done).toMatchObject({ dryRun: false, rows: 2, unchanged: 1 });
    expect(done.message).toBe(recordMessages.imported(4));
    expect(done.changes).toEqual(planned.changes);
    const record = classRecordSchema.parse((await c.get(s.teacher, classId)).json());
    expect(rowOf(record, s.amy).values).toMatchObject({
      G1: { value: 10, setBy: { name: "Class Teacher" } },
      G2: null,
      sat: { value: true },
    });
    expect(rowOf(record, s.ben).values).toMatchObject({
      G1: { value: 15 },
      G2: { value: 9 },
      sat: { value: false },
    });
    const history = recordHistorySchema.parse(
      (await c.history(s.teacher, classId, s.amy.user.uid)).json(),
    );
    expect(history.items.every((i) => i.via === "import")).toBe(true);
    const audits = await auditOf(t, "record.imported", classId);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toEqual({
      rows: 2,
      changes: [
        { studentId: s.amy.user.uid, field: "G1" },
        { studentId: s.amy.user.uid, field: "sat" },
        { studentId: s.ben.user.uid, field: "G2" },
        { studentId: s.ben.user.uid, field: "sat" },
      ],
    });
    expect(await jobsOf(t, classId)).toHaveLength(1);

    // The same file again: nothing changes, nothing is written, audited or queued.
    await t.database.db.deleteFrom("jobs").where("key", "=", classId).execute();
    const repeat = await c.upload(s.teacher, classId, file);
    expect(repeat.statusCode, repeat.body).toBe(200);
    const twice = recordImportSchema.parse(repeat.json());
    expect(twice).toMatchObject({ changes: [], unchanged: 5 });
    expect(twice.message).toBe(recordMessages.imported(0));
    expect(await entriesOf(t, classId)).toHaveLength(5);
    expect(await auditOf(t, "record.imported", classId)).toHaveLength(1);
    expect(await jobsOf(t, classId)).toEqual([]);

    // Only the outcome: no recomputation.
    const outcome = await c.upload(s.teacher, classId, `email,G3\n${s.amy.email},16\n`);
    expect(recordImportSchema.parse(outcome.json()).changes).toHaveLength(1);
    expect(await jobsOf(t, classId)).toEqual([]);
  });

  test("a file with a bad line is refused whole, each line with its reason", async ({
    t,
    school: s,
    c,
    classId,
  }) => {
    const refusal = async (file: string, dryRun = false) => {
      const res = await c.upload(s.teacher, classId, file, dryRun);
      expect(res.statusCode, res.body).toBe(400);
      const error = errorOf(res.body);
      return error.fields ?? {};
    };
    const [p1, p2, p3, p4, p5, p6, p7] = await pupils(t, classId, 7);
    const bad = [
      "email,G1,absences,sat",
      `${s.amy.email},10,3,yes`,
      "nobody@example.com,10,3,yes",
      `${s.otherStudent.email},10,3,yes`,
      `${p1?.email},21,3,yes`,
      `${s.ben.email.toUpperCase()},10,3,yes`,
      `${p2?.email},10,3`,
      `${p3?.email},ten,3,no`,
      `${p4?.email},10,101,no`,
      `${p5?.email},10,3,maybe`,
      "",
      `${p6?.email},10.5,3,no`,
      `${p7?.email},,,`,
    ].join("\n");
    for (const dryRun of [true, false]) {
      expect(await refusal(bad, dryRun)).toEqual({
        [recordLineKey(3)]: recordMessages.importUnknownEmail,
        [recordLineKey(4)]: recordMessages.importUnknownEmail,
        [recordLineKey(5)]: recordMessages.valueRange("G1"),
        [recordLineKey(7)]: recordMessages.importColumns(4, 3),
        [recordLineKey(8)]: recordMessages.valueRange("G1"),
        [recordLineKey(9)]: recordMessages.valueRange("absences"),
        [recordLineKey(10)]: recordMessages.satValue,
        [recordLineKey(12)]: recordMessages.valueRange("G1"),
      });
    }
    // A repeated address (the first good line is kept, the second named).
    expect(await refusal(`email,G1\n${s.ben.email},10\n${s.ben.email.toUpperCase()},11\n`)).toEqual(
      { [recordLineKey(3)]: recordMessages.importDuplicateEmail(2) },
    );
    // A final grade for a student who did not sit.
    expect(await refusal(`email,G3,sat\n${s.amy.email},12,no\n`)).toEqual({
      [recordLineKey(2)]: recordMessages.g3WithoutSitting,
    });
    // The header.
    expect(await refusal(`email,G1,grade\n${s.amy.email},1,2\n`)).toEqual({
      [recordLineKey(1)]: recordMessages.importUnknownColumn("grade"),
    });
    expect(await refusal(`email,G1,g1\n${s.amy.email},1,2\n`)).toEqual({
      [recordLineKey(1)]: recordMessages.importRepeatedColumn("g1"),
    });
    expect(await refusal(`G1,G2\n1,2\n`)).toEqual({
      [recordLineKey(1)]: recordMessages.importHeader,
    });
    expect(await refusal(`email\n${s.amy.email}\n`)).toEqual({
      [recordLineKey(1)]: recordMessages.importNoValueColumn,
    });
    // No rows; too many rows.
    expect(await refusal("email,G1\n\n,\n")).toEqual({ file: recordMessages.importEmpty });
    const many = Array.from({ length: recordImportLimits.rows + 1 }, (_, i) => `x${i}@e.com,1`);
    expect(await refusal(`email,G1\n${many.join("\n")}\n`)).toEqual({
      file: recordMessages.importTooManyRows(recordImportLimits.rows),
    });

    // Nothing was written by any of them.
    expect(await entriesOf(t, classId)).toEqual([]);
    expect(await jobsOf(t, classId)).toEqual([]);
    expect(await auditOf(t, "record.imported", classId)).toEqual([]);
  });

  test("imports 2,000 rows in one go", async ({ t, school: s, c, classId }) => {
    const count = 2000;
    const users = await pupils(t, classId, count);
    const valuesOf = (i: number) => [i % 21, (i + 3) % 21, i % 101, i % 5, (i + 7) % 21];
    const file = [
      "email,G1,G2,absences,failures,G3,sat",
      ...users.map((u, i) => [u.email, ...valuesOf(i), i % 2 ? "yes" : "1"].join(",")),
    ].join("\n");

    const preview = recordImportSchema.parse(
      (await c.upload(s.teacher, classId, file, true)).json(),
    );
    expect(preview.changes).toHaveLength(count * 6);
    const res = await c.upload(s.teacher, classId, file);
    expect(res.statusCode, res.body).toBe(200);
    const done = recordImportSchema.parse(res.json());
    expect(done).toMatchObject({ rows: count, unchanged: 0 });
    expect(done.changes).toHaveLength(count * 6);

    const record = classRecordSchema.parse((await c.get(s.teacher, classId)).json());
    expect(record.items).toHaveLength(count + 2);
    const byId = new Map(record.items.map((i) => [i.studentId, i]));
    users.forEach((u, i) => {
      const values = byId.get(u.id)?.values;
      const [G1, G2, absences, failures, G3] = valuesOf(i);
      expect(values?.G1?.value).toBe(G1);
      expect(values?.G2?.value).toBe(G2);
      expect(values?.absences?.value).toBe(absences);
      expect(values?.failures?.value).toBe(failures);
      expect(values?.G3?.value).toBe(G3);
      expect(values?.sat?.value).toBe(true);
    });
    expect(await entriesOf(t, classId)).toHaveLength(count * 6);
    expect(await jobsOf(t, classId)).toHaveLength(1);
    const audits = await auditOf(t, "record.imported", classId);
    expect(audits).toHaveLength(1);
    expect((audits[0]?.details as { changes?: unknown[] } | undefined)?.changes).toHaveLength(
      count * 6,
    );

    const again = recordImportSchema.parse((await c.upload(s.teacher, classId, file)).json());
    expect(again).toMatchObject({ changes: [], unchanged: count * 6 });
    expect(await entriesOf(t, classId)).toHaveLength(count * 6);
  });
});
