// Start-up: from `npm start` on a built checkout to the first 200 from /api/health, on an empty
// PGlite DATA_DIR (migrations included) and again on the same data, beside a bare Fastify
// server started the same way in the same run.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, repoRoot } from "../../e2e/harness.ts";

const runs = Number(process.env.BENCH_RUNS ?? 5);

async function timeToHealthy(command: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
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
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
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
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-bench-start-"));
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
