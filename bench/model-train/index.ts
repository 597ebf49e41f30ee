/**
 * Training a candidate model on a school's outcomes (issue 30), two figures:
 *
 * 1. Training time: the server's training work (model/train-task.ts, with the server's default
 *    settings: weights 1, 2 and 4 chosen by 5-fold cross-validation over the school's rows, a
 *    second repeat, the final fit choosing among the eleven score candidates with 10-fold
 *    calibration, the gate's structural checks) on the UCI rows plus N school rows (default
 *    5,000, drawn from the UCI rows with their G3 moved by up to one point), beside the baseline
 *    measured in the same run: the shipped model's training on the UCI rows alone
 *    (`buildArtifact`, what `npm run model:train` does). Issue 30's target: at most 60 s.
 * 2. The server's POST /api/predict p99 while a training job runs on its worker thread, beside
 *    its p99 idle, in alternating rounds, Gradecast started as a user starts it (`npm start`,
 *    PGlite, RATE_LIMITS=off), autocannon in its own process; first the generator's ceiling on
 *    the bare Node http route. Target: at most 2x the idle p99.
 *
 * Run: npx tsx bench/model-train/index.ts [--school-rows 5000] [--seconds 8] [--clients 8]
 *   [--skip-time] [--skip-server]
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  concatDatasets,
  loadDefaultModel,
  type OutcomeRow,
  parseCsv,
  RISK_PARAMS,
  readOutcomes,
  SCORE_CANDIDATES,
  toDataset,
} from "@gradecast/model";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { defaultTrainSettings, runTraining } from "../../apps/server/src/model/train-task.ts";
import { repoRoot } from "../../e2e/harness.ts";
import { mulberry32 } from "../../packages/model/src/prng.ts";
import { buildArtifact } from "../../packages/model/src/train.ts";
import { benchAccount, questionnaireBodies } from "../lib/accounts.ts";
import { flag, numberArgs } from "../lib/args.ts";
import {
  type LoadResult,
  loadAverage,
  runLoad,
  startGradecast,
  targetLine,
  withBareRoute,
} from "../lib/load.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

const options = numberArgs({ "school-rows": 5000, seconds: 8, clients: 8 });
const dataDir = path.resolve(repoRoot, "../shared/data");
const files = ["student-mat.csv", "student-por.csv"];

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function schoolRows(n: number): OutcomeRow[] {
  const uci = files.flatMap((f) =>
    readOutcomes(readFileSync(path.join(dataDir, f), "utf8"), f.includes("mat") ? "mat" : "por"),
  );
  const rand = mulberry32(30);
  return Array.from({ length: n }, (_, i) => {
    const r = uci[Math.floor(rand() * uci.length)]!;
    const g3 = r.g3 === 0 ? 0 : Math.max(0, Math.min(20, r.g3 + Math.round(rand() * 2 - 1)));
    return { ...r, key: `id:bench-${i}`, g3 };
  });
}

async function trainingTime() {
  const shipped = loadDefaultModel();
  const uci = files.map((file) => {
    const text = readFileSync(path.join(dataDir, file), "utf8");
    return {
      file,
      sha256: "",
      data: toDataset(parseCsv(text), true, file.includes("mat") ? "mat" : "por"),
    };
  });
  console.log(`\n1. training time (load average ${loadAverage()})`);
  let wall = performance.now();
  let cpu = cpuSeconds();
  buildArtifact(uci, {
    scoreCandidates: SCORE_CANDIDATES,
    riskParams: RISK_PARAMS,
    seed: 20080401,
  });
  const base = { wall: (performance.now() - wall) / 1000, cpu: cpuSeconds() - cpu };
  console.log(
    `  baseline, the UCI rows alone (${concatDatasets(uci.map((u) => u.data)).n} rows, npm run model:train): ${base.wall.toFixed(1)} s wall, ${base.cpu.toFixed(1)} s CPU (load average ${loadAverage()})`,
  );
  const school = schoolRows(options["school-rows"]);
  wall = performance.now();
  cpu = cpuSeconds();
  const out = runTraining({
    dataDir,
    files: shipped.artifact.data.map(({ file, sha256 }) => ({ file, sha256 })),
    school,
    current: shipped.artifact,
    minOutcomes: 50,
    seed: 20080401,
    settings: defaultTrainSettings,
  });
  const cand = { wall: (performance.now() - wall) / 1000, cpu: cpuSeconds() - cpu };
  console.log(
    `  candidate, UCI + ${options["school-rows"]} school rows (server defaults): ${cand.wall.toFixed(1)} s wall, ${cand.cpu.toFixed(1)} s CPU; weights ${out.weights.map((w) => `${w.setup} ${w.weight}`).join(", ")}; gate ${out.report.promotable ? "passes" : "refuses"} (load average ${loadAverage()})`,
  );
  console.log(
    targetLine(
      "model-train: UCI + school rows trained in at most 60 s",
      cand.wall <= 60,
      `${cand.wall.toFixed(1)} s (baseline UCI alone ${base.wall.toFixed(1)} s, ratio ${(cand.wall / base.wall).toFixed(2)})`,
    ),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function predictDuringTraining() {
  console.log(`\n2. POST /api/predict p99 during training (load average ${loadAverage()})`);
  const dir = path.join(repoRoot, "bench/results", `model-train-${randomBytes(4).toString("hex")}`);
  await mkdir(dir, { recursive: true });
  try {
    const database = await openDatabase({ dataDir: dir });
    let adminEmail: string;
    try {
      await migrate(database.db);
      adminEmail = await makeAdmin(database.db);
    } finally {
      await database.close();
    }
    const bodies = questionnaireBodies();
    const plain = bodies.map((body) => ({ method: "POST" as const, path: "/", body }));
    await withBareRoute(plain, options.clients, "(POST, the same bodies)", async () => {
      const server = await startGradecast({ RATE_LIMITS: "off", MODEL_DATA_DIR: dataDir }, dir);
      try {
        const token = await benchAccount(server.url, "Bench Student");
        const admin = await signIn(server.url, adminEmail);
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
        const requests = bodies.map((body) => ({
          method: "POST" as const,
          path: "/api/predict?store=false",
          headers,
          body,
        }));
        const opts = {
          connections: options.clients,
          seconds: options.seconds,
          serverPid: server.pid,
        };
        await runLoad(server.url, requests, { ...opts, seconds: 2 });
        const idle: LoadResult[] = [];
        const training: LoadResult[] = [];
        for (let round = 0; round < 2; round++) {
          idle.push(await runLoad(server.url, requests, opts));
          const res = await fetch(`${server.url}/api/admin/model/train`, {
            method: "POST",
            headers: admin,
          });
          if (res.status !== 202) throw new Error(`train: ${res.status} ${await res.text()}`);
          const { job } = (await res.json()) as { job: { id: string } };
          // measured once the job runs on its thread
          for (;;) {
            const s = (await (
              await fetch(`${server.url}/api/jobs/${job.id}`, { headers: admin })
            ).json()) as { state: string };
            if (s.state !== "queued") break;
            await new Promise((r) => setTimeout(r, 100));
          }
          training.push(await runLoad(server.url, requests, opts));
          // the job ends before the next idle round
          for (;;) {
            const s = (await (
              await fetch(`${server.url}/api/jobs/${job.id}`, { headers: admin })
            ).json()) as { state: string; error: string | null };
            if (s.state === "done" || s.state === "failed") {
              if (s.error) console.log(`  (the training job ended: ${s.error})`);
              break;
            }
            await new Promise((r) => setTimeout(r, 250));
          }
        }
        const row = (what: string, rs: LoadResult[]) =>
          console.log(
            `| ${what} | ${median(rs.map((r) => r.rps)).toFixed(0)} | ${median(rs.map((r) => r.p50))} | ${rs.map((r) => r.p99).join(", ")} | ${median(rs.map((r) => r.serverCpuPerRequest)).toFixed(3)} | ${rs.reduce((s, r) => s + r.failed, 0)} |`,
          );
        console.log("\n| what | req/s | p50 ms | p99 ms (rounds) | server CPU ms/req | failed |");
        console.log("| --- | --- | --- | --- | --- | --- |");
        row("predict, idle", idle);
        row("predict, training running", training);
        const idleP99 = Math.max(1, median(idle.map((r) => r.p99)));
        const trainP99 = median(training.map((r) => r.p99));
        console.log(
          targetLine(
            "model-train: predict p99 during training at most 2x idle",
            trainP99 <= 2 * idleP99,
            `${trainP99} ms against ${idleP99} ms idle, ratio ${(trainP99 / idleP99).toFixed(2)} (load average ${loadAverage()})`,
          ),
        );
      } finally {
        await server.stop();
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `model-train, ${new Date().toISOString()}, ${options["school-rows"]} school rows, load average ${loadAverage()}`,
  );
  if (!flag("skip-server")) await predictDuringTraining();
  if (!flag("skip-time")) await trainingTime();
}

await main();
