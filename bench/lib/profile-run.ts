/**
 * A CPU profile of Gradecast (`npm start`) under the stored-prediction load of
 * bench/api-predict (bench/lib/cpu-profile.mjs, from the first request measured to the stop):
 * `npx tsx bench/lib/profile-run.ts FILE.cpuprofile [--postgres-url URL] [--route R]`;
 * summarise with `node bench/lib/profile-summary.mjs FILE.cpuprofile`.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "../../e2e/harness.ts";
import { benchAccount, questionnaireBodies } from "./accounts.ts";
import { runLoad, startGradecast } from "./load.ts";

const out = path.resolve(process.argv[2] ?? "bench/results/predict.cpuprofile");
const opt = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const route = opt("route") ?? "/api/predict";
const bodies = questionnaireBodies();
const dataDir = path.join(repoRoot, "bench/results", `profile-${randomBytes(4).toString("hex")}`);
await mkdir(dataDir, { recursive: true });
const server = await startGradecast(
  {
    RATE_LIMITS: "off",
    NODE_OPTIONS: `--import ${path.join(repoRoot, "bench/lib/cpu-profile.mjs")}`,
    BENCH_CPU_PROFILE: out,
    ...(opt("postgres-url") ? { DATABASE_URL: opt("postgres-url")! } : {}),
  },
  dataDir,
);
const token = await benchAccount(server.url, "Bench");
const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
if (server.pid) process.kill(server.pid, "SIGUSR2");
const r = await runLoad(
  server.url,
  bodies.map((body) => ({ method: "POST" as const, path: route, headers, body })),
  { connections: 32, seconds: 6, serverPid: server.pid },
);
console.log(JSON.stringify(r));
await server.stop();
await rm(dataDir, { recursive: true, force: true });
