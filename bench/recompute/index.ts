/**
 * Recomputing stored predictions after a model change (issue 29): 2,000 enrolled students in 8
 * classes, each with a prediction of their own made by an older model ("old-model"), written
 * into the database; then Gradecast started as a user starts it (`npm start`, RATE_LIMITS=off),
 * which at start queues the recomputation of every prediction another model made (job
 * "predictions.recompute", key "all"). Two starts per engine, each on fresh rows:
 *  - quiet: the job alone; its wall time (the job's started/finished times), the predictions the
 *    school made, and the server process's CPU time per prediction (from the first answer of
 *    /api/health to the job's end, the idle wait until it is due included);
 *  - loaded: POST /api/predict as a signed-in student (autocannon in its own process) while the
 *    job runs, then the same load once it is done (idle), and the bare Node http route's in the
 *    same run. The job is queued by the bench before the start so its id is known (the server's
 *    own request at start joins that waiting job); its state is read through GET /api/jobs/:id.
 * Issue 29 asks for the figures beside the idle ones; it sets no limit.
 *
 * Run: npx tsx bench/recompute/index.ts [--students 2000] [--seconds 5] [--clients 8] [--delay 25]
 *   [--skip-postgres]
 */
import { sql } from "kysely";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { insertDatedPredictions } from "../../apps/server/src/db/predictions.ts";
import { enqueueJob, jobKinds } from "../../apps/server/src/jobs/queue.ts";
import { questionnaireSchema } from "../../packages/contract/src/questionnaire.ts";
import { benchAccount, questionnaireBodies } from "../lib/accounts.ts";
import { flag, numberArgs } from "../lib/args.ts";
import { cpuMsOf } from "../lib/cpu-time.ts";
import {
  type LoadRequest,
  type LoadResult,
  printRunStart,
  runBench,
  runLoad,
  type Started,
  withBareRoute,
} from "../lib/load.ts";
import { createBenchDatabase } from "../lib/postgres.ts";
import { inChunks, studentRow, writeClasses } from "../lib/school-rows.ts";
import { type BenchDb, withDataDir, withGradecast } from "../lib/seeded.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

/** `delay`: seconds from the rows' writing to the job being due (the start must have ended). */
const options = numberArgs({ students: 2_000, seconds: 5, clients: 8, delay: 25 });
const CLASSES = 8;
const skipPostgres = flag("skip-postgres");

const bodies = questionnaireBodies();
const json = { "content-type": "application/json" };
/** The same bodies posted to the bare route. */
const plain = bodies.map((body) => ({ method: "POST" as const, path: "/", headers: json, body }));

/** The school: classes, enrolled students, each with a prediction of an older model. */
async function writeSchool(db: BenchDb): Promise<void> {
  const classIds = await writeClasses(db, CLASSES);
  const students = Array.from({ length: options.students }, (_, i) => studentRow(i));
  await inChunks(students, 500, async (slice, i) => {
    await db.insertInto("users").values(slice).execute();
    await db
      .insertInto("enrolments")
      .values(slice.map((s, k) => ({ class_id: classIds[(i + k) % CLASSES]!, student_id: s.id })))
      .execute();
  });
  // The inputs as the app stores them: the questionnaire parsed from the form's body.
  await insertDatedPredictions(
    db,
    students.map((s, i) => {
      const inputs = questionnaireSchema.parse(JSON.parse(bodies[i % bodies.length]!));
      return {
        userId: s.id,
        inputs,
        score: 11,
        rawScore: 11,
        intervalLow: 8,
        intervalHigh: 14,
        extrapolation: false,
        modelVersion: "old-model",
        modelSetup: "C",
        scoreIfSits: 12,
        noFinalScoreRisk: 0.1,
        createdAt: new Date(Date.UTC(2025, 9, 1)),
        classId: classIds[i % CLASSES]!,
        sources: {},
        ownValues: null,
        recordVersion: 0,
        madeBy: "student",
      };
    }),
  );
}

interface Job {
  state: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { done: number; total: number | null };
}

async function jobOf(url: string, auth: Record<string, string>, id: string): Promise<Job> {
  const res = await fetch(`${url}/api/jobs/${id}`, { headers: auth });
  if (res.status !== 200) throw new Error(`job: ${res.status} ${await res.text()}`);
  return (await res.json()) as Job;
}

async function untilDone(url: string, auth: Record<string, string>, id: string): Promise<Job> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const job = await jobOf(url, auth, id);
    if (job.state === "done") return job;
    if (job.state === "failed") throw new Error("the recompute job failed");
    if (Date.now() > deadline) throw new Error("the recompute job did not end in 10 minutes");
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Quiet {
  jobMs: number;
  /** From the first answer of /api/health to the job seen done (polling every 50 ms). */
  seenMs: number;
  made: number;
  cpuMs: number;
}

interface Loaded {
  during: LoadResult;
  idle: LoadResult;
  bare: LoadResult;
  /** Whether the job was still running when the load during it ended. */
  coveredWholeLoad: boolean;
  jobMs: number;
}

/** Fresh rows, the server started on them; `body` measures, then the server stops. */
async function withStart<T>(
  onPostgres: boolean,
  body: (server: Started, admin: Record<string, string>, jobId: string) => Promise<T>,
): Promise<{ result: T; made: number }> {
  const pg = onPostgres ? await createBenchDatabase() : undefined;
  const url = pg?.url;
  try {
    return await withDataDir("recompute", async (dataDir) => {
      const open = () => openDatabase(url ? { url } : { dataDir });
      let adminEmail: string;
      let jobId: string;
      const database = await open();
      try {
        await migrate(database.db);
        adminEmail = await makeAdmin(database.db);
        await writeSchool(database.db);
        jobId = await enqueueJob(database.db, { kind: jobKinds.recomputePredictions, key: "all" });
        // Due only once the server answers: started at once, it would end before the first request.
        await database.db
          .updateTable("jobs")
          .set({ run_after: sql<never>`now() + ${options.delay} * interval '1 second'` })
          .where("id", "=", jobId)
          .execute();
      } finally {
        await database.close();
      }
      const result = await withGradecast(dataDir, url, async (server) =>
        body(server, await signIn(server.url, adminEmail), jobId),
      );
      const after = await open();
      try {
        const row = await after.db
          .selectFrom("predictions")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("made_by", "=", "school")
          .executeTakeFirstOrThrow();
        return { result, made: Number(row.n) };
      } finally {
        await after.close();
      }
    });
  } finally {
    await pg?.drop();
  }
}

const jobMsOf = (job: Job) =>
  new Date(job.finishedAt!).getTime() - new Date(job.startedAt!).getTime();

async function quiet(onPostgres: boolean): Promise<Quiet> {
  const { result, made } = await withStart(onPostgres, async (server, admin, jobId) => {
    const cpu0 = cpuMsOf(server.pid);
    const t0 = performance.now();
    const job = await untilDone(server.url, admin, jobId);
    return {
      seenMs: performance.now() - t0,
      cpuMs: cpuMsOf(server.pid) - cpu0,
      jobMs: jobMsOf(job),
    };
  });
  return { ...result, made };
}

async function loaded(bare: Started, onPostgres: boolean): Promise<Loaded & { made: number }> {
  const { result, made } = await withStart(onPostgres, async (server, admin, jobId) => {
    const token = await benchAccount(server.url, "Bench Student");
    const predicts: LoadRequest[] = bodies.map((body) => ({
      method: "POST",
      path: "/api/predict",
      headers: { ...json, authorization: `Bearer ${token}` },
      body,
    }));
    const opts = { connections: options.clients, seconds: options.seconds, serverPid: server.pid };
    for (;;) {
      const state = (await jobOf(server.url, admin, jobId)).state;
      if (state !== "queued") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const during = await runLoad(server.url, predicts, opts);
    const stillRunning = (await jobOf(server.url, admin, jobId)).state !== "done";
    const job = await untilDone(server.url, admin, jobId);
    const idle = await runLoad(server.url, predicts, opts);
    const bareRun = await runLoad(bare.url, plain, { ...opts, serverPid: bare.pid });
    return { during, idle, bare: bareRun, coveredWholeLoad: stillRunning, jobMs: jobMsOf(job) };
  });
  return { ...result, made };
}

async function main() {
  printRunStart(
    `Recomputing ${options.students} predictions after a model change, ${CLASSES} classes; predict load ${options.clients} connections for ${options.seconds} s`,
  );
  const rows: string[] = [];
  await withBareRoute(plain, options.clients, "(POST of the same bodies)", async (bare) => {
    const engines: [string, boolean][] = [["PGlite", false]];
    if (!skipPostgres) engines.push(["PostgreSQL", true]);
    for (const [label, which] of engines) {
      const q = await quiet(which);
      console.log(
        `${label}: quiet: ${q.made} predictions made by the school; job ${q.jobMs.toFixed(0)} ms (seen done ${q.seenMs.toFixed(0)} ms after the first health answer), ${(q.jobMs / Math.max(1, q.made)).toFixed(2)} ms per prediction; server CPU ${q.cpuMs.toFixed(0)} ms, ${(q.cpuMs / Math.max(1, q.made)).toFixed(2)} ms per prediction`,
      );
      const l = await loaded(bare, which);
      console.log(
        `${label}: loaded: ${l.made} predictions made; job ${l.jobMs.toFixed(0)} ms under load; ${l.coveredWholeLoad ? "the job ran through the whole load" : `THE JOB ENDED BEFORE THE ${options.seconds} s OF LOAD DID: "during" mixes running and idle time`}`,
      );
      const bareP99 = Math.max(1, l.bare.p99);
      for (const [what, r] of [
        ["predict during recompute", l.during],
        ["predict idle (after)", l.idle],
        ["bare http route", l.bare],
      ] as const) {
        rows.push(
          `| ${label}: ${what} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.failed} | ${r.serverCpuPerRequest.toFixed(2)} | ${(r.p99 / bareP99).toFixed(1)}x |`,
        );
      }
      console.log(
        `${label}: p99 during / idle ${(l.during.p99 / Math.max(1, l.idle.p99)).toFixed(2)}x`,
      );
    }
  });
  // autocannon reports whole milliseconds: a bare p99 under 1 ms is taken as 1 ms for the ratio.
  console.log(
    "\n| what | req/s | p50 ms | p99 ms | failed | server CPU ms/req | p99 ratio to bare |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
}

runBench(main);
