// Start-up: from `npm start` on a built checkout to the first 200 from /api/health, on an empty
// PGlite DATA_DIR (migrations included) and again on the same data, beside a bare Fastify
// server started the same way in the same run.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { freePort, repoRoot } from "../../e2e/harness.ts";
import { printRunEnd, rssMiB, startGradecast } from "../lib/load.ts";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const resultsDir = path.join(repoRoot, "bench/results");

async function timeToHealthy(command: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: process.env.BENCH_VERBOSE ? "inherit" : "ignore",
    // Its own process group, stopped and waited for as a whole: npm passes SIGTERM on to the
    // server (e2e/npm-start.test.ts), and the next start needs DATA_DIR's lock free.
    detached: true,
  });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not yet listening
      }
      if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
    // The server itself may outlive npm by a moment: wait until the group is empty.
    for (let i = 0; i < 500; i++) {
      try {
        process.kill(-(child.pid as number), 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const bare = `
const app = require("fastify")();
app.get("/api/health", async () => ({ status: "ok" }));
app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

function summary(label: string, values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  console.log(
    `${label.padEnd(34)} median ${median.toFixed(0).padStart(5)} ms   min ${sorted[0]?.toFixed(0)} ms   max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
  return median;
}

const empty: number[] = [];
const reused: number[] = [];
const baseline: number[] = [];
for (let i = 0; i < runs; i++) {
  // Inside the checkout, like the default ./data (bench/results/ is ignored by git): on these
  // machines /tmp is a slower place to write a new cluster's 40 MB than the checkout's disk.
  await mkdir(resultsDir, { recursive: true });
  const dataDir = await mkdtemp(path.join(resultsDir, "startup-data-"));
  empty.push(await timeToHealthy(["npm", "start", "--silent"], { DATA_DIR: dataDir }));
  reused.push(await timeToHealthy(["npm", "start", "--silent"], { DATA_DIR: dataDir }));
  await rm(dataDir, { recursive: true, force: true });
  baseline.push(
    await timeToHealthy(["node", "-e", bare], { NODE_PATH: path.join(repoRoot, "node_modules") }),
  );
}
console.log(`Start-up to first 200 from /api/health, ${runs} runs each`);
const b = summary("bare Fastify (node -e)", baseline);
const e = summary("Gradecast, empty DATA_DIR", empty);
const r = summary("Gradecast, same DATA_DIR again", reused);
console.log(
  `ratio to bare: empty ${(e / b).toFixed(1)}x, reused ${(r / b).toFixed(1)}x; budget 3000 ms`,
);

// Memory at rest: the server's resident set 10 s after a start with nothing asked of it but
// /api/health (PGlite, default configuration), on a data directory that was used before.
const restDir = await mkdtemp(path.join(resultsDir, "startup-rest-"));
await startGradecast({}, restDir).then((s) => s.stop());
const resting = await startGradecast({}, restDir);
await new Promise((r) => setTimeout(r, 10_000));
const rss = rssMiB(resting.pid);
await resting.stop();
await rm(restDir, { recursive: true, force: true });
console.log(`memory at rest (RSS, 10 s after a start on used data): ${rss.toFixed(0)} MiB`);
const line = (name: string, holds: boolean, detail: string) =>
  console.log(`${holds ? "HOLDS " : "MISSED"}  ${name}: ${detail}`);
line(
  "a later npm start to the first 200 under 3 s",
  r < 3000,
  `${r.toFixed(0)} ms median (bare Fastify ${b.toFixed(0)} ms)`,
);
line("memory at rest under 150 MB", rss * 1.048576 < 150, `${(rss * 1.048576).toFixed(0)} MB`);
printRunEnd();
