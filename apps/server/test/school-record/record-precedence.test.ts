import { riskCells, riskColumns, riskMessages } from "@gradecast/contract/class-risk";
import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { loadDefaultModel } from "@gradecast/model";
import { describe, expect } from "vitest";
import { forgetRecordContext } from "../../src/db/record-context.ts";
import { currentRecords } from "../../src/db/school-records.ts";
import type { JobContext } from "../../src/jobs/queue.ts";
import { recomputeAfterModelChange, recomputePredictions } from "../../src/prediction/recompute.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { enrol, makeClass } from "../support/class-fixtures.ts";
import { api, riskItemOf } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// Issue 29, "the record wins, and says so": for an enrolled student each class's prediction
// uses the class's record where it holds a value and the student's answers otherwise, every
// input says where it came from, the student's own answers are kept; the risk list shows the
// values with their sources and marks a student whose answers differ from the record, never a
// figure made from values older than the record; the recomputation makes the fresh one. The
// gradebook's routes are not these tests' subject: the record is written directly, as they
// would write it (then what the server keeps of the student is forgotten, as they do).

const tests = apiTests({ env: { RATE_LIMITS: "off" }, runJobs: false });

type Values = { g1?: number | null; g2?: number | null; absences?: number | null };

/** The record's current values for a student, at a new inputs_version, as the gradebook writes. */
async function setRecord(t: TestApp, classId: string, studentId: string, values: Values) {
  const db = t.database.db;
  const current = await currentRecords(db, classId, [studentId]);
  const version = (current.get(studentId)?.version ?? 0) + 1;
  await db
    .insertInto("school_records")
    .values({ class_id: classId, student_id: studentId, ...values, inputs_version: version })
    .onConflict((oc) =>
      oc.columns(["class_id", "student_id"]).doUpdateSet({ ...values, inputs_version: version }),
    )
    .execute();
  forgetRecordContext(studentId);
  return version;
}

/** A JobContext for calling the handler directly, recording its progress. */
function jobContext(key: string) {
  const progress: [number, number][] = [];
  const context: JobContext = {
    job: {
      id: "00000000-0000-0000-0000-000000000000",
      kind: "predictions.recompute",
      key,
      payload: {},
      createdBy: null,
      attempts: 1,
    },
    progress: async (done, total) => {
      progress.push([done, total]);
    },
    stopping: () => false,
  };
  return { context, progress };
}

const answers = { ...sampleQuestionnaire, G1: 10, G2: null, absences: 8, failures: 0 };

describe.each(dialects)("the record wins (%s)", (dialect) => {
  const test = tests[dialect];

  /** The handler with what the app's own services hold (its database, model and config). */
  const handler = (t: TestApp) =>
    recomputePredictions({ db: t.database.db, model: loadDefaultModel(), config: t.config });

  const predict = async (t: TestApp, who: SignedInUser, body: object, query = "") => {
    const res = await api(t).call("POST", `/api/predict${query}`, who, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as PredictionResult;
  };
  const storedOf = (t: TestApp, who: SignedInUser) =>
    t.database.db
      .selectFrom("predictions")
      .selectAll()
      .where("user_id", "=", who.user.uid)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  const riskOf = (t: TestApp, who: SignedInUser, classId: string) => api(t).riskList(who, classId);

  test("uses the record's values where it holds them, says so, and keeps the student's own", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const student = await signedIn("student");
    const classId = await makeClass(t, { teachers: [teacher.user.uid], subject: "mat" });
    await enrol(t, classId, student.user.uid);
    const version = await setRecord(t, classId, student.user.uid, { g1: 14, absences: 3 });

    const r = await predict(t, student, answers);
    expect(r.classId).toBe(classId);
    expect(r.inputs).toMatchObject({ G1: 14, G2: null, absences: 3, failures: 0, subject: "mat" });
    expect(r.sources).toMatchObject({
      G1: "school",
      absences: "school",
      G2: "student",
      failures: "student",
      Medu: "student",
    });
    expect(r.modelSetup).toBe("B");
    // The student's own answers are kept beside it; the model saw the record's.
    const [row] = await storedOf(t, student);
    expect(row).toMatchObject({
      class_id: classId,
      record_version: version,
      made_by: "student",
    });
    expect(row!.own_values).toEqual({ G1: 10, G2: null, absences: 8, failures: 0 });
    expect(row!.sources).toEqual({ G1: "school", absences: "school" });

    const mine = (
      await api(t).call("GET", "/api/predictions/mine", student)
    ).json() as PredictionHistory;
    expect(mine.items[0]).toMatchObject({ classId, sources: { G1: "school", G2: "student" } });
    expect(mine.latest).toMatchObject({ classId, sources: { G1: "school", absences: "school" } });
    expect(mine.latest?.inputs.G1).toBe(14);

    // A recorded G2 without any G1 is left out (no model knows G2 without G1): setup C.
    const other = await signedIn("student");
    await enrol(t, classId, other.user.uid);
    await setRecord(t, classId, other.user.uid, { g2: 12 });
    const c = await predict(t, other, { ...answers, G1: null });
    expect(c.inputs).toMatchObject({ G1: null, G2: null });
    expect(c.sources.G2).toBe("student");
    expect(c.modelSetup).toBe("C");

    // A what-if is answered the same way, and not stored.
    const whatIf = await predict(t, student, { ...answers, G1: 3 }, "?store=false");
    expect(whatIf).toMatchObject({ id: null, classId, inputs: { G1: 14 } });
    expect(await storedOf(t, student)).toHaveLength(1);
  });

  test("makes one prediction per class, each in its subject, and answers the one asked", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const student = await signedIn("student");
    const maths = await makeClass(t, { teachers: [teacher.user.uid], subject: "mat" });
    const portuguese = await makeClass(t, { teachers: [teacher.user.uid], subject: "por" });
    // Maths first: the answer without a subject is the first class's.
    await t.database.db
      .insertInto("enrolments")
      .values([
        {
          class_id: maths,
          student_id: student.user.uid,
          enrolled_at: new Date("2026-09-01") as never,
        },
        {
          class_id: portuguese,
          student_id: student.user.uid,
          enrolled_at: new Date("2026-09-02") as never,
        },
      ])
      .execute();
    forgetRecordContext(student.user.uid);
    await setRecord(t, portuguese, student.user.uid, { g1: 16 });

    const { subject: _s, ...spec } = answers;
    const first = await predict(t, student, spec);
    expect(first).toMatchObject({ classId: maths, inputs: { subject: "mat", G1: 10 } });
    expect(first.sources.G1).toBe("student");
    const rows = await storedOf(t, student);
    expect(rows.map((r) => [r.class_id, (r.inputs as { subject: string }).subject]).sort()).toEqual(
      [
        [maths, "mat"],
        [portuguese, "por"],
      ].sort(),
    );
    expect(rows.find((r) => r.class_id === portuguese)!.inputs).toMatchObject({ G1: 16 });

    const asked = await predict(t, student, { ...answers, subject: "por" });
    expect(asked).toMatchObject({ classId: portuguese, inputs: { subject: "por", G1: 16 } });
    expect(asked.sources.G1).toBe("school");
    expect(await storedOf(t, student)).toHaveLength(4);

    // A student in no class: as before, their answers alone, no class.
    const alone = await signedIn("student");
    const r = await predict(t, alone, answers);
    expect(r.classId).toBeNull();
    expect(Object.values(r.sources).every((s) => s === "student")).toBe(true);
  });

  test("shows the list the record's values with their sources, and who differs from it", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const [far, near, absent] = [
      await signedIn("student", { name: "Far Grade" }),
      await signedIn("student", { name: "Near Values" }),
      await signedIn("student", { name: "Many Absences" }),
    ];
    const classId = await makeClass(t, {
      teachers: [teacher.user.uid],
      students: [far.user.uid, near.user.uid, absent.user.uid],
    });
    await setRecord(t, classId, far.user.uid, { g1: 12 }); // by 2: differs
    await setRecord(t, classId, near.user.uid, { g1: 11, absences: 12 }); // by 1 and 4: not
    await setRecord(t, classId, absent.user.uid, { absences: 13 }); // by 5: differs
    for (const who of [far, near, absent]) await predict(t, who, answers);

    const r = await riskOf(t, teacher, classId);
    expect(riskItemOf(r, far)).toMatchObject({
      differs: true,
      updating: false,
      inputs: {
        G1: { value: 12, source: "school" },
        G2: { value: null, source: "student" },
        absences: { value: 8, source: "student" },
        failures: { value: 0, source: "student" },
      },
    });
    expect(riskItemOf(r, near)).toMatchObject({
      differs: false,
      inputs: { G1: { value: 11, source: "school" }, absences: { value: 12, source: "school" } },
    });
    expect(riskItemOf(r, absent)).toMatchObject({
      differs: true,
      inputs: { G1: { value: 10, source: "student" }, absences: { value: 13, source: "school" } },
    });
    for (const item of r.items) {
      expect(item.predictedAt).toEqual(expect.any(String));
      expect(item.prediction).toEqual(expect.any(Number));
      // The student's own answers that differ are never shown: only the mark.
      expect(Object.keys(item.inputs ?? {}).sort()).toEqual(
        ["G1", "G2", "absences", "failures"].sort(),
      );
    }
    expect(JSON.stringify(riskItemOf(r, far))).not.toContain('"value":10');
  });

  test("never shows a figure older than the record; the recomputation makes the fresh one", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const otherTeacher = await signedIn("teacher");
    const student = await signedIn("student", { name: "Stale Student" });
    const steady = await signedIn("student", { name: "Steady Student" });
    const silent = await signedIn("student", { name: "Silent Student" });
    const classId = await makeClass(t, {
      teachers: [teacher.user.uid],
      students: [student.user.uid, steady.user.uid, silent.user.uid],
    });
    const otherClass = await makeClass(t, { teachers: [otherTeacher.user.uid] });
    await setRecord(t, classId, student.user.uid, { g1: 12 });
    const before = await predict(t, student, answers);
    await predict(t, steady, answers);
    const version = await setRecord(t, classId, student.user.uid, { g1: 4 });

    const stale = riskItemOf(await riskOf(t, teacher, classId), student);
    expect(stale).toMatchObject({
      answered: true,
      updating: true,
      prediction: null,
      interval: null,
      band: null,
      noFinalScoreRisk: null,
      scoreIfSits: null,
      modelSetup: null,
      reasons: null,
      atRisk: false,
      predictedAt: null,
      inputs: { G1: { value: 4, source: "school" } },
      differs: true,
    });
    const listed = await riskOf(t, teacher, classId);
    // After the answered ones with figures, before the silent.
    expect(listed.items.map((i) => i.name)).toEqual([
      "Steady Student",
      "Stale Student",
      "Silent Student",
    ]);
    expect(riskCells(stale)[riskColumns.indexOf("Predicted final")]).toBe(riskMessages.updating);
    const csv = await api(t).call("GET", `/api/classes/${classId}/risk.csv`, teacher);
    expect(csv.body).toContain(riskMessages.updating);
    expect(csv.body).not.toContain(before.prediction.toFixed(1));
    // One waiting recomputation of the class, however often the list is read.
    const jobs = await t.database.db
      .selectFrom("jobs")
      .select(["kind", "key", "state"])
      .where("key", "=", classId)
      .execute();
    expect(jobs).toEqual([{ kind: "predictions.recompute", key: classId, state: "queued" }]);

    const { context, progress } = jobContext(classId);
    await handler(t)(context);
    expect(progress).toEqual([[1, 1]]);
    const rows = await storedOf(t, student);
    const made = rows[rows.length - 1]!;
    expect(made).toMatchObject({ made_by: "school", class_id: classId, record_version: version });
    expect(made.inputs).toMatchObject({ G1: 4, absences: 8 });
    expect(made.own_values).toEqual({ G1: 10, G2: null, absences: 8, failures: 0 });
    // Only the stale one: the steady student's and the silent student's are left alone.
    expect(await storedOf(t, steady)).toHaveLength(1);
    expect(await storedOf(t, silent)).toHaveLength(0);

    const fresh = riskItemOf(await riskOf(t, teacher, classId), student);
    expect(fresh).toMatchObject({
      updating: false,
      inputs: { G1: { value: 4, source: "school" } },
    });
    expect(fresh.prediction).toEqual(expect.any(Number));
    expect(fresh.predictedAt! > before.createdAt!).toBe(true);
    // Run again: nothing is stale, nothing is made.
    await handler(t)(jobContext(classId).context);
    expect(await storedOf(t, student)).toHaveLength(rows.length);

    // The student's own screen shows the school's value and source; their answers are kept.
    const mine = (
      await api(t).call("GET", "/api/predictions/mine", student)
    ).json() as PredictionHistory;
    expect(mine.latest).toMatchObject({ classId, inputs: { G1: 4 }, sources: { G1: "school" } });

    // Nobody else sees anything new: a teacher of another class, another student.
    const outsider = await api(t).call("GET", `/api/classes/${classId}/risk`, otherTeacher);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).not.toContain("Stale Student");
    const peer = await api(t).call("GET", `/api/classes/${classId}/risk`, steady);
    expect(peer.statusCode).toBe(403);
    const peers = (
      await api(t).call("GET", "/api/predictions/mine", steady)
    ).json() as PredictionHistory;
    expect(peers.items.map((i) => i.id)).not.toContain(made.id);
    expect((await riskOf(t, otherTeacher, otherClass)).items).toEqual([]);
  });

  test("after a model change, recomputes every class and the students in no class", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const enrolled = await signedIn("student");
    const alone = await signedIn("student");
    const classId = await makeClass(t, {
      teachers: [teacher.user.uid],
      students: [enrolled.user.uid],
    });
    for (const who of [enrolled, alone]) {
      await predict(t, who, answers);
      await t.database.db
        .updateTable("predictions")
        .set({ model_version: "an earlier model" })
        .where("user_id", "=", who.user.uid)
        .execute();
    }
    expect(riskItemOf(await riskOf(t, teacher, classId), enrolled)).toMatchObject({
      updating: true,
    });

    // At start, the newest prediction by another model asks for the recomputation of all.
    const services = { db: t.database.db, model: loadDefaultModel(), config: t.config };
    await recomputeAfterModelChange(services);
    const all = await t.database.db
      .selectFrom("jobs")
      .select(["kind", "key"])
      .where("key", "=", "all")
      .execute();
    expect(all).toEqual([{ kind: "predictions.recompute", key: "all" }]);

    const { context, progress } = jobContext("all");
    await handler(t)(context);
    const total = progress[0]![1];
    expect(progress[progress.length - 1]).toEqual([total, total]);
    for (const who of [enrolled, alone]) {
      const rows = await storedOf(t, who);
      expect(rows[rows.length - 1]).toMatchObject({
        made_by: "school",
        model_version: services.model.version,
      });
    }
    expect((await storedOf(t, alone)).at(-1)!.class_id).toBeNull();
    expect(riskItemOf(await riskOf(t, teacher, classId), enrolled)).toMatchObject({
      updating: false,
    });
  });
});
