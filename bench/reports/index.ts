/**
 * Student reports at 100,000 rows: requests per second and p50/p99 latency of a name-search page
 * and of an unfiltered first page (GET /api/reports, 25 rows, newest first) at 16 concurrent
 * clients (and GET /api/me, the floor of any signed-in call, for comparison), on PGlite and on PostgreSQL, through the real server process on loopback, beside a
 * bare Fastify route (its own process too) driven by the same load loop in the same run.
 * The machines are shared and noisy, so each figure is taken in rounds that alternate the bare
 * route and the route under test; the ratio compares figures taken side by side.
 * Targets on PostgreSQL: p99 under 30 ms, at least a third of the bare route's requests per second.
 *
 * Run: npx tsx bench/reports/index.ts [--reports 100000] [--seconds 8] [--rounds 4] [--clients 16] [--skip-pglite] [--skip-postgres]
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * the bench creates a database of its own there and drops it at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { seedSyntheticReports } from "../../apps/server/scripts/synthetic-reports.ts";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { freePort, type RunningServer, repoRoot, startServer } from "../../e2e/harness.ts";
import { numberArg } from "../lib/args.ts";
import { cpuMsOf, ownCpuMs, postgresCpuMs } from "../lib/cpu-time.ts";
import { createBenchDatabase } from "../lib/postgres.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

const REPORTS = numberArg("reports", 100_000);
const SECONDS = numberArg("seconds", 8);
const ROUNDS = numberArg("rounds", 4);
const CLIENTS = numberArg("clients", 16);
const WARMUP_SECONDS = 1;
const SEARCH = "sMiTh";
const skipPostgres = process.argv.includes("--skip-postgres");
const skipPglite = process.argv.includes("--skip-pglite");

type Headers = Record<string, string>;

interface Samples {
  latencies: number[];
  errors: number;
  seconds: number;
  /** CPU milliseconds meanwhile: the server process, PostgreSQL's processes, the load loops. */
  cpu: { server: number; postgres: number; loops: number };
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** CPU milliseconds per answered request, by process (see Samples). */
  cpu: { server: number; postgres: number; loops: number };
}

/** CLIENTS loops, each sending its next request when the previous answer is read. */
async function load(url: string, headers: Headers, seconds: number, into: Samples, pid?: number) {
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) into.errors++;
        else into.latencies.push(performance.now() - t);
      } catch {
        into.errors++;
      }
    }
  };
  const started = performance.now();
  const before = { server: cpuMsOf(pid), postgres: postgresCpuMs(), loops: ownCpuMs() };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  into.seconds += (performance.now() - started) / 1000;
  into.cpu.server += cpuMsOf(pid) - before.server;
  into.cpu.postgres += postgresCpuMs() - before.postgres;
  into.cpu.loops += ownCpuMs() - before.loops;
}

function summary(s: Samples): Result {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
  return {
    rps: sorted.length / s.seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: sorted.length,
    errors: s.errors,
    cpu: {
      server: s.cpu.server / sorted.length,
      postgres: s.cpu.postgres / sorted.length,
      loops: s.cpu.loops / sorted.length,
    },
  };
}

const empty = (): Samples => ({
  latencies: [],
  errors: 0,
  seconds: 0,
  cpu: { server: 0, postgres: 0, loops: 0 },
});

/** The route under test and the bare route, in alternating rounds after a warm-up of each. */
async function measurePair(
  url: string,
  headers: Headers,
  bare: { url: string; pid: number | undefined },
  pid: number | undefined,
) {
  const bareUrl = bare.url;
  const first = await fetch(url, { headers });
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  await first.arrayBuffer();
  await load(url, headers, WARMUP_SECONDS, empty());
  await load(bareUrl, {}, WARMUP_SECONDS, empty());
  const target = empty();
  const bareSamples = empty();
  for (let round = 0; round < ROUNDS; round++) {
    await load(bareUrl, {}, SECONDS / ROUNDS, bareSamples, bare.pid);
    await load(url, headers, SECONDS / ROUNDS, target, pid);
  }
  return { target: summary(target), bare: summary(bareSamples) };
}

const bareSource = `
const app = require("fastify")({ logger: false });
app.get("/api/ping", async () => ({ status: "ok" }));
app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

interface Bare {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

async function startBare(): Promise<Bare> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["-e", bareSource], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), NODE_PATH: path.join(repoRoot, "node_modules") },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}/api/ping`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      if (i > 400) throw new Error("bare server did not start");
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return {
    url,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

class SkipPglite extends Error {}

const columns = `${"".padEnd(42)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}   ${"bare req/s".padStart(10)}${"p50".padStart(7)}${"p99".padStart(7)}${"of bare".padStart(9)}${"errors".padStart(7)}   CPU ms/req: server / PostgreSQL / load loops (bare: server / loops)`;

interface Row {
  label: string;
  target: Result;
  bare: Result;
}

function line({ label, target: t, bare: b }: Row): string {
  const ms = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(2));
  // PGlite runs inside the server process: PostgreSQL's processes have nothing of its work.
  const db = label.startsWith("PostgreSQL") ? ms(t.cpu.postgres) : "-";
  return `${label.padEnd(42)}${t.rps.toFixed(0).padStart(8)}${t.p50.toFixed(2).padStart(9)}${t.p99.toFixed(2).padStart(9)}   ${b.rps.toFixed(0).padStart(10)}${b.p50.toFixed(1).padStart(7)}${b.p99.toFixed(1).padStart(7)}${`${((100 * t.rps) / b.rps).toFixed(0)}%`.padStart(9)}${String(t.errors + b.errors).padStart(7)}   ${ms(t.cpu.server)} / ${db} / ${ms(t.cpu.loops)} (${ms(b.cpu.server)} / ${ms(b.cpu.loops)})`;
}

async function benchServer(
  label: string,
  server: RunningServer,
  email: string,
  bare: Bare,
  rows: Row[],
) {
  try {
    const auth = await signIn(server.url, email);
    const base = `${server.url}/api/reports`;
    for (const [what, url] of [
      // The floor of any signed-in call: bearer verification and the user's row, nothing else.
      ["GET /api/me (signed-in floor)", `${server.url}/api/me`],
      ["unfiltered first page", `${base}?limit=25`],
      ["search page", `${base}?search=${SEARCH}&limit=25`],
    ] as const) {
      const row = {
        label: `${label}, ${what}`,
        ...(await measurePair(url, auth, bare, server.process.pid)),
      };
      rows.push(row);
      console.log(line(row));
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  const load1 = os.loadavg()[0] ?? 0;
  console.log(
    `${REPORTS} reports; ${CLIENTS} concurrent clients; ${SECONDS} s per figure in ${ROUNDS} rounds alternating with the bare route; ` +
      `pages of 25; search "${SEARCH}"; ${os.cpus().length} cores, load average ${load1.toFixed(1)} at start`,
  );
  // This bench's clients are fetch loops in this process: they cap the bare route (about 3,000
  // req/s here, where autocannon gets 12,000 to 50,000), so its ratios describe the loops too.
  console.log(
    "baseline: the bare route driven by this process's fetch loops, which cap it; for a generator that is not the bound see bench/search (autocannon with its ceiling, pgbench)",
  );
  const bare = await startBare();
  const rows: Row[] = [];
  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-bench-reports-"));
    try {
      if (skipPglite) throw new SkipPglite();
      const lite = await openDatabase({ dataDir });
      let seconds: number;
      let email: string;
      try {
        await migrate(lite.db);
        seconds = await seedSyntheticReports(lite.db, REPORTS);
        email = await makeAdmin(lite.db);
      } finally {
        await lite.close();
      }
      console.log(`PGlite: seeded in ${seconds.toFixed(1)} s\n${columns}`);
      const server = await startServer({ dataDir, env: { RATE_LIMITS: "off" } });
      await benchServer("PGlite", server, email, bare, rows);
    } catch (error) {
      if (!(error instanceof SkipPglite)) throw error;
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }

    if (!skipPostgres) {
      const { url, drop } = await createBenchDatabase();
      try {
        const database = await openDatabase({ url, poolSize: 2 });
        let email: string;
        try {
          await migrate(database.db);
          const seconds = await seedSyntheticReports(database.db, REPORTS);
          email = await makeAdmin(database.db);
          console.log(`PostgreSQL: seeded in ${seconds.toFixed(1)} s\n${columns}`);
        } finally {
          await database.close();
        }
        const server = await startServer({
          env: { DATABASE_URL: url, RATE_LIMITS: "off" },
        });
        await benchServer("PostgreSQL", server, email, bare, rows);
      } finally {
        await drop();
      }
    }
  } finally {
    await bare.stop();
  }

  console.log(`\n${columns}`);
  for (const row of rows) console.log(line(row));
  console.log(`load average ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`);
  for (const row of rows.filter(
    (r) => r.label.startsWith("PostgreSQL") && !r.label.includes("/api/me"),
  )) {
    const p99 = row.target.p99 < 30;
    const share = row.target.rps >= row.bare.rps / 3;
    console.log(
      `target ${row.label}: p99 under 30 ms ${p99 ? "met" : "NOT met"} (${row.target.p99.toFixed(1)} ms); ` +
        `at least 1/3 of bare req/s ${share ? "met" : "NOT met"} (${((100 * row.target.rps) / row.bare.rps).toFixed(0)}%)`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
