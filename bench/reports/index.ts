/**
 * Student reports at 100,000 rows: requests per second and p50/p99 latency of a name-search page
 * and of an unfiltered first page (GET /api/reports, 25 rows, newest first) at 16 concurrent
 * clients (and GET /api/me, the floor of any signed-in call, for comparison), on PGlite and on
 * PostgreSQL, through the real server process on loopback, beside the bare Node http route
 * (bench/lib/bare-http.mjs, its own process), both driven by autocannon in a process of its own
 * (bench/lib/load.ts), whose ceiling on the bare route is printed first. The searches cycle
 * through several surnames of the seeded school, so no figure rests on one query.
 * The machines are shared and noisy, so each figure is taken in rounds that alternate the bare
 * route and the route under test; the ratio compares figures taken side by side.
 * Targets on PostgreSQL: p99 under 30 ms, at least a third of the bare route's requests per second.
 *
 * Run: npx tsx bench/reports/index.ts [--reports 100000] [--seconds 8] [--rounds 4] [--clients 16] [--skip-pglite] [--skip-postgres]
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * the bench creates a database of its own there and drops it at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { seedSyntheticReports } from "../../apps/server/scripts/synthetic-reports.ts";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { type RunningServer, startServer } from "../../e2e/harness.ts";
import { flag, numberArgs } from "../lib/args.ts";
import { postgresCpuMs } from "../lib/cpu-time.ts";
import {
  bareGet,
  type LoadRequest,
  runBench,
  runLoad,
  type Started,
  withBareRoute,
} from "../lib/load.ts";
import { withBenchDatabase } from "../lib/postgres.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

const options = numberArgs({ reports: 100_000, seconds: 8, rounds: 4, clients: 16 });
const WARMUP_SECONDS = 1;
const skipPostgres = flag("skip-postgres");
const skipPglite = flag("skip-pglite");

interface Result {
  rps: number;
  /** Median of the rounds' p50; the highest of their p99 (autocannon reads whole ms). */
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** CPU milliseconds per answered request: the server, PostgreSQL's processes, autocannon. */
  cpu: { server: number; postgres: number; loops: number };
}

/** One round of autocannon against one server (PostgreSQL's CPU read around it). */
async function round(
  base: string,
  requests: LoadRequest[],
  seconds: number,
  pid: number | undefined,
): Promise<Result> {
  const before = postgresCpuMs();
  const r = await runLoad(base, requests, {
    connections: options.clients,
    seconds,
    serverPid: pid,
  });
  const postgres = postgresCpuMs() - before;
  return {
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    requests: r.ok,
    errors: r.failed,
    cpu: {
      server: r.serverCpuPerRequest,
      postgres: postgres / r.ok,
      loops: r.generatorCpuPerRequest,
    },
  };
}

/** The route under test and the bare route, in alternating rounds after a warm-up of each. */
async function measurePair(base: string, requests: LoadRequest[], bare: Started, pid?: number) {
  const first = await fetch(`${base}${requests[0]!.path}`, { headers: requests[0]!.headers });
  if (first.status !== 200)
    throw new Error(`${requests[0]!.path}: ${first.status} ${await first.text()}`);
  await first.arrayBuffer();
  await round(base, requests, WARMUP_SECONDS, pid);
  await round(bare.url, bareGet, WARMUP_SECONDS, bare.pid);
  // Alternating rounds: a neighbour's load falls on both sides alike.
  const target: Result[] = [];
  const bareSide: Result[] = [];
  for (let i = 0; i < options.rounds; i++) {
    bareSide.push(await round(bare.url, bareGet, options.seconds / options.rounds, bare.pid));
    target.push(await round(base, requests, options.seconds / options.rounds, pid));
  }
  return { target: merge(target), bare: merge(bareSide) };
}

/** Rounds taken apart (alternating with the other side) as one figure. */
function merge(parts: Result[]): Result {
  const ok = parts.reduce((n, r) => n + r.requests, 0);
  const elapsed = parts.reduce((n, r) => n + r.requests / r.rps, 0);
  const perRequest = (pick: (r: Result) => number) =>
    parts.reduce((n, r) => n + pick(r) * r.requests, 0) / ok;
  const p50s = parts.map((r) => r.p50).sort((a, b) => a - b);
  return {
    rps: ok / elapsed,
    p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
    p99: Math.max(...parts.map((r) => r.p99)),
    requests: ok,
    errors: parts.reduce((n, r) => n + r.errors, 0),
    cpu: {
      server: perRequest((r) => r.cpu.server),
      postgres: perRequest((r) => r.cpu.postgres),
      loops: perRequest((r) => r.cpu.loops),
    },
  };
}

class SkipPglite extends Error {}

const columns = `${"".padEnd(42)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}   ${"bare req/s".padStart(10)}${"p50".padStart(7)}${"p99".padStart(7)}${"of bare".padStart(9)}${"errors".padStart(7)}   CPU ms/req: server / PostgreSQL / autocannon (bare: server / autocannon)`;

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

// The surnames searched, in turn (each in the seeded school; bench/search keeps the one word).
const SURNAMES = ["sMiTh", "garcia", "NGUYEN", "rossi", "tanaka", "Patel", "kim", "chen"];

async function benchServer(
  label: string,
  server: RunningServer,
  email: string,
  bare: Started,
  rows: Row[],
) {
  try {
    const headers = await signIn(server.url, email);
    const get = (path: string): LoadRequest => ({ method: "GET", path, headers });
    for (const [what, requests] of [
      // The floor of any signed-in call: bearer verification and the user's row, nothing else.
      ["GET /api/me (signed-in floor)", [get("/api/me")]],
      ["unfiltered first page", [get("/api/reports?limit=25")]],
      ["search page", SURNAMES.map((name) => get(`/api/reports?search=${name}&limit=25`))],
    ] as const) {
      const row = {
        label: `${label}, ${what}`,
        ...(await measurePair(server.url, [...requests], bare, server.process.pid)),
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
    `${options.reports} reports; ${options.clients} concurrent clients; ${options.seconds} s per figure in ${options.rounds} rounds alternating with the bare route; ` +
      `pages of 25; searches ${SURNAMES.join(", ")} in turn; ${os.cpus().length} cores, load average ${load1.toFixed(1)} at start`,
  );
  const rows: Row[] = [];
  await withBareRoute(bareGet, options.clients, "answering a GET", async (bare) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-bench-reports-"));
    try {
      if (skipPglite) throw new SkipPglite();
      const lite = await openDatabase({ dataDir });
      let seconds: number;
      let email: string;
      try {
        await migrate(lite.db);
        seconds = await seedSyntheticReports(lite.db, options.reports);
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
      await withBenchDatabase(async ({ url }) => {
        const database = await openDatabase({ url, poolSize: 2 });
        let email: string;
        try {
          await migrate(database.db);
          const seconds = await seedSyntheticReports(database.db, options.reports);
          email = await makeAdmin(database.db);
          console.log(`PostgreSQL: seeded in ${seconds.toFixed(1)} s\n${columns}`);
        } finally {
          await database.close();
        }
        const server = await startServer({
          env: { DATABASE_URL: url, RATE_LIMITS: "off" },
        });
        await benchServer("PostgreSQL", server, email, bare, rows);
      });
    }
  });

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

runBench(main);
