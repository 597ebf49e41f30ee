import { existsSync } from "node:fs";
import path from "node:path";
import type { JobStatus } from "@gradecast/contract/jobs";
import type { ModelState } from "@gradecast/contract/model-lifecycle";
import type { PredictionResult } from "@gradecast/contract/prediction";
import { loadDefaultModel, type ModelArtifact } from "@gradecast/model";
import { describe, expect } from "vitest";
import { type SignedInUser, staleSignIn, totpCode } from "../support/accounts.ts";
import { enrol, makeClass } from "../support/class-fixtures.ts";
import { api, type Caller } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// Issue 30, the model's versions: only admins read them, train, promote and roll back; one
// training at a time (a second request names the first and its progress); promotion needs a
// recent sign-in, is audited and recomputes the stored predictions with the new version, and a
// rollback brings back the earlier version's predictions; a training job stores a candidate
// with its gate report.

const queued = apiTests({ env: { RATE_LIMITS: "off" }, runJobs: false });
const running = apiTests({
  env: { RATE_LIMITS: "off", MODEL_MIN_OUTCOMES: "50" },
  // a small training: one weight, two folds, one score candidate, few checks
  services: {
    modelTraining: {
      folds: 2,
      repeats: 1,
      weights: [1],
      candidates: 1,
      calibrationFolds: 3,
      cvCalibrationFolds: 2,
      checkProfiles: 3,
    },
  },
});

const shipped = loadDefaultModel();
const hasData = existsSync(path.resolve("../shared/data/student-mat.csv"));

const call = (t: TestApp, method: "GET" | "POST", url: string, who: Caller, body?: object) =>
  api(t).call(method, url, who, body);

/** A version that predicts one grade higher when the student sits: told apart at a glance. */
function shiftedArtifact(id: string): ModelArtifact {
  const a = JSON.parse(JSON.stringify(shipped.artifact)) as ModelArtifact;
  a.modelVersion = id;
  for (const s of a.setups) s.score.baseScore += 1;
  return a;
}

async function addVersion(t: TestApp, id: string, state: "candidate" | "refused") {
  await t.database.db
    .insertInto("model_versions")
    .values({
      id,
      artifact: JSON.stringify(shiftedArtifact(id)),
      state,
      gate_report: JSON.stringify({
        promotable: state === "candidate",
        reasons:
          state === "candidate" ? [] : ["mat: 3 outcomes, fewer than the 50 a candidate needs."],
        minOutcomes: 50,
        outcomes: { mat: 3, por: 0 },
        comparison: [],
        coverage: [],
        checks: { monotone: true, additivity: true, failures: [] },
      }),
    })
    .execute();
}

/** Waits for a job to finish (the app runs it), then its status. */
async function finished(t: TestApp, admin: SignedInUser, id: string): Promise<JobStatus> {
  for (let i = 0; i < 600; i++) {
    const res = await call(t, "GET", `/api/jobs/${id}`, admin);
    const job = res.json() as JobStatus;
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} did not finish`);
}

const newestOf = async (t: TestApp, who: SignedInUser) =>
  t.database.db
    .selectFrom("predictions")
    .select(["model_version", "score", "score_if_sits", "made_by"])
    .where("user_id", "=", who.user.uid)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();

describe.each(dialects)("the model's versions on %s", (dialect) => {
  const test = queued[dialect];

  test("are for admins only: every other caller is refused and changes nothing", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const student = await signedIn("student");
    const pending = await signedIn("teacher", { pending: true });
    const unverified = await signedIn("student", { verified: false });
    // a teacher of a class with a recorded outcome, and one of another class
    const own = await makeClass(t, { teachers: [teacher.user.uid], subject: "mat" });
    const other = await signedIn("teacher");
    await makeClass(t, { teachers: [other.user.uid], subject: "por" });
    await enrol(t, own, student.user.uid);
    await addVersion(t, "test-only-admins", "candidate");
    const calls: ["GET" | "POST", string, object?][] = [
      ["GET", "/api/admin/model"],
      ["POST", "/api/admin/model/train"],
      ["POST", "/api/admin/model/promote", { version: "test-only-admins" }],
      ["POST", "/api/admin/model/rollback", { version: shipped.version }],
      ["GET", "/api/admin/model/outcomes.csv"],
    ];
    const callers: [string, Caller, number][] = [
      ["anonymous", undefined, 401],
      ["student", student, 403],
      ["unverified student", unverified, 403],
      ["pending teacher", pending, 403],
      ["teacher of the class", teacher, 403],
      ["teacher of another class", other, 403],
    ];
    for (const [name, who, status] of callers) {
      for (const [method, url, body] of calls) {
        const res = await call(t, method, url, who, body);
        expect(res.statusCode, `${name} ${method} ${url}`).toBe(status);
      }
    }
    const jobs = await t.database.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "in", ["model.train", "predictions.recompute"])
      .execute();
    expect(jobs).toEqual([]);
    const row = await t.database.db
      .selectFrom("model_versions")
      .select("state")
      .where("id", "=", "test-only-admins")
      .executeTakeFirstOrThrow();
    expect(row.state).toBe("candidate");
  });

  test("shows an admin the version in use, its card and the school's outcomes", async ({
    t,
    admin,
  }) => {
    const res = await call(t, "GET", "/api/admin/model", admin);
    expect(res.statusCode, res.body).toBe(200);
    const state = res.json() as ModelState;
    expect(state.active).toMatchObject({ id: shipped.version, shipped: true, state: "active" });
    expect(state.minOutcomes).toBe(50);
    expect(state.card.length).toBeGreaterThan(0);
    expect(state.outcomes).toHaveLength(6);
    expect(state.versions.map((v) => v.id)).toContain(shipped.version);
  });

  test("refuses a second training while one waits, naming it and its progress", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const first = await call(t, "POST", "/api/admin/model/train", admin);
    expect(first.statusCode, first.body).toBe(202);
    const { job } = first.json() as { job: JobStatus };
    expect(job).toMatchObject({ kind: "model.train", state: "queued" });

    const second = await call(t, "POST", "/api/admin/model/train", admin);
    expect(second.statusCode).toBe(409);
    expect(errorOf(second.body)).toMatchObject({
      code: "conflict",
      message: "A candidate is already being trained (not started yet).",
      fields: { job: job.id },
    });
    // while it runs: its progress
    await t.database.db
      .updateTable("jobs")
      .set({ state: "running", progress_done: 3, progress_total: 21 })
      .where("id", "=", job.id)
      .execute();
    const third = await call(t, "POST", "/api/admin/model/train", await signedIn("admin"));
    expect(third.statusCode).toBe(409);
    expect(errorOf(third.body).message).toBe(
      "A candidate is already being trained (3 of 21 steps done).",
    );
    const state = (await call(t, "GET", "/api/admin/model", admin)).json() as ModelState;
    expect(state.training).toMatchObject({ id: job.id, progress: { done: 3, total: 21 } });
    await t.database.db.deleteFrom("jobs").where("id", "=", job.id).execute();
  });

  test("asks an admin who signed in over 10 minutes ago to confirm, and never promotes a refused candidate", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    await addVersion(t, "test-refused", "refused");
    await addVersion(t, "test-reauth", "candidate");
    const refused = await call(t, "POST", "/api/admin/model/promote", admin, {
      version: "test-refused",
    });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused.body).message).toBe(
      "The gate refused this candidate; it cannot be put in use.",
    );
    const missing = await call(t, "POST", "/api/admin/model/promote", admin, { version: "nope" });
    expect(missing.statusCode).toBe(404);

    // The code of that sign-in was used then, not in this 30-second step.
    await staleSignIn(t, admin);
    const stale = await call(t, "POST", "/api/admin/model/promote", admin, {
      version: "test-reauth",
    });
    expect(stale.statusCode).toBe(403);
    expect(errorOf(stale.body).code).toBe("reauth_required");
    const confirm = await call(t, "POST", "/api/auth/reauth", admin, {
      password: admin.password,
      code: totpCode(admin.mfaSecret ?? ""),
    });
    expect(confirm.statusCode, confirm.body).toBe(204);
    const ok = await call(t, "POST", "/api/admin/model/promote", admin, { version: "test-reauth" });
    expect(ok.statusCode, ok.body).toBe(200);
    // back to the shipped version for the other tests of this app
    const back = await call(t, "POST", "/api/admin/model/rollback", admin, {
      version: shipped.version,
    });
    expect(back.statusCode, back.body).toBe(200);
    // a candidate that was never in use is not a rollback target
    const notEarlier = await call(t, "POST", "/api/admin/model/rollback", admin, {
      version: "test-refused",
    });
    expect(notEarlier.statusCode).toBe(409);
  });
});

describe.each(dialects)("switching versions on %s", (dialect) => {
  const test = running[dialect];

  test("promotion recomputes every stored prediction with the new version; a rollback brings the earlier ones back", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const student = await signedIn("student");
    const res = await call(t, "POST", "/api/predict", student, sampleQuestionnaire);
    expect(res.statusCode, res.body).toBe(200);
    const before = res.json() as PredictionResult;
    expect(before.modelVersion).toBe(shipped.version);

    await addVersion(t, "test-shifted", "candidate");
    const promoted = await call(t, "POST", "/api/admin/model/promote", admin, {
      version: "test-shifted",
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const p = promoted.json() as { active: { id: string }; recomputeJob: string };
    expect(p.active.id).toBe("test-shifted");
    expect(await finished(t, admin, p.recomputeJob)).toMatchObject({ state: "done" });
    const after = await newestOf(t, student);
    expect(after).toMatchObject({ model_version: "test-shifted", made_by: "school" });
    expect(Number(after.score_if_sits)).toBeCloseTo(Math.min(20, before.scoreIfSits + 1), 6);
    // what the student sees now comes from the version in use
    const mine = await call(t, "POST", "/api/predict?store=false", student, sampleQuestionnaire);
    expect((mine.json() as PredictionResult).modelVersion).toBe("test-shifted");
    const audits = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("actor_id", "=", admin.user.uid)
      .execute();
    expect(audits.map((a) => a.action)).toContain("model.promote");

    const rolled = await call(t, "POST", "/api/admin/model/rollback", admin, {
      version: shipped.version,
    });
    expect(rolled.statusCode, rolled.body).toBe(200);
    const r = rolled.json() as { active: { id: string }; recomputeJob: string };
    expect(r.active.id).toBe(shipped.version);
    expect(await finished(t, admin, r.recomputeJob)).toMatchObject({ state: "done" });
    const restored = await newestOf(t, student);
    expect(restored.model_version).toBe(shipped.version);
    expect(Number(restored.score)).toBeCloseTo(before.prediction, 9);
    expect(Number(restored.score_if_sits)).toBeCloseTo(before.scoreIfSits, 9);
    const state = (await call(t, "GET", "/api/admin/model", admin)).json() as ModelState;
    expect(state.active.id).toBe(shipped.version);
    expect(state.versions.find((v) => v.id === "test-shifted")?.state).toBe("retired");
    const actions = (
      await t.database.db
        .selectFrom("audit_log")
        .select("action")
        .where("actor_id", "=", admin.user.uid)
        .execute()
    ).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["model.promote", "model.rollback"]));
  });

  test.skipIf(!hasData)(
    "trains a candidate from the school's outcomes as a job and stores its gate report",
    async ({ t, signedIn }) => {
      const admin = await signedIn("admin");
      const teacher = await signedIn("teacher");
      const classId = await makeClass(t, { teachers: [teacher.user.uid], subject: "por" });
      for (let i = 0; i < 4; i++) {
        const student = await signedIn("student");
        await enrol(t, classId, student.user.uid);
        const res = await call(t, "POST", "/api/predict", student, {
          ...sampleQuestionnaire,
          G1: 8 + i,
          G2: 9 + i,
        });
        expect(res.statusCode, res.body).toBe(200);
        await t.database.db
          .insertInto("school_records")
          .values({
            class_id: classId,
            student_id: student.user.uid,
            g3: 10 + i,
            sat: true,
            outcome_at: new Date(Date.now() + 1000),
          })
          .execute();
      }
      const csv = await call(t, "GET", "/api/admin/model/outcomes.csv", admin);
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.trimEnd().split("\n");
      // one row per student and stage, under pseudonyms; G3 last
      expect(lines[0]).toMatch(/^id;school;sex;age;.*;subject;G3$/);
      expect(lines).toHaveLength(5);
      for (const line of lines.slice(1)) expect(line).toMatch(/^"s-[0-9a-f]{16}";/);
      const exported = await t.database.db
        .selectFrom("audit_log")
        .select("details")
        .where("actor_id", "=", admin.user.uid)
        .where("action", "=", "model.outcomes_exported")
        .execute();
      expect(exported).toHaveLength(1);

      const started = await call(t, "POST", "/api/admin/model/train", admin);
      expect(started.statusCode, started.body).toBe(202);
      const { job } = started.json() as { job: JobStatus };
      const done = await finished(t, admin, job.id);
      expect(done.error).toBeNull();
      expect(done).toMatchObject({ state: "done" });
      expect(done.progress.total).toBeGreaterThan(0);
      expect(done.progress.done).toBe(done.progress.total);
      const state = (await call(t, "GET", "/api/admin/model", admin)).json() as ModelState;
      const candidate = state.versions.find((v) => !v.shipped && v.id.includes("-school-"));
      expect(candidate).toBeDefined();
      // four outcomes are fewer than the minimum: refused, and it says why
      expect(candidate!.state).toBe("refused");
      expect(candidate!.gate?.reasons).toContain(
        "por: 4 outcomes, fewer than the 50 a candidate needs.",
      );
      expect(candidate!.gate?.comparison.length).toBeGreaterThan(0);
      // the model in use did not change
      expect(state.active.id).toBe(shipped.version);
    },
  );
});
