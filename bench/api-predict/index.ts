/**
 * Stored predictions under load: POST /api/predict at 32 connections (autocannon, its own
 * process, pipelining off) against Gradecast started as a user starts it (`npm start`, default
 * configuration: LOG_LEVEL info, embedded PGlite; then DATABASE_URL on PostgreSQL), beside the
 * bare Node http route parsing the same bodies, in alternating rounds. The bodies vary (256
 * different questionnaires, cycled), so nothing keyed on a body could help. The one setting
 * changed from the defaults is RATE_LIMITS=off: the limits allow 120 predictions a minute per
 * account. Every stored answer acknowledged must be in the database afterwards.
 *
 * Targets (issue 22): at least 25 % of the bare route's requests per second, p99 at most 5 times
 * the bare route's, at most 0.15 ms of server CPU per request, nothing acknowledged lost.
 *
 * Run: npx tsx bench/api-predict/index.ts [--seconds 12] [--rounds 4] [--clients 32]
 *   [--skip-postgres] [--what-if]
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { repoRoot } from "../../e2e/harness.ts";
import { benchAccount, questionnaireBodies } from "../lib/accounts.ts";
import { numberArg } from "../lib/args.ts";
import {
  checkGeneratorCeiling,
  type LoadRequest,
  type LoadResult,
  loadAverage,
  runLoad,
  type Started,
  startBareHttp,
  startGradecast,
  targetLine,
} from "../lib/load.ts";
import { createBenchDatabase } from "../lib/postgres.ts";

const SECONDS = numberArg("seconds", 12);
const ROUNDS = numberArg("rounds", 4);
const CLIENTS = numberArg("clients", 32);

const bodies = questionnaireBodies();
const posts = (route: string, headers: Record<string, string>): LoadRequest[] =>
  bodies.map((body) => ({ method: "POST", path: route, headers, body }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)}`;

interface Rounds {
  results: LoadResult[];
  loads: string[];
}

/** The route and the bare route in alternating rounds of SECONDS / ROUNDS each. */
async function alternate(
  bare: Started,
  server: Started,
  route: string,
  headers: Record<string, string>,
): Promise<{ bare: Rounds; target: Rounds; warmUpOk: number }> {
  const json = { "content-type": "application/json" };
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  const opts = { connections: CLIENTS, seconds };
  // Warm-up of each (JIT, connections, the database's caches).
  await runLoad(bare.url, posts("/", json), { ...opts, seconds: 2 });
  const warmUp = await runLoad(server.url, posts(route, headers), { ...opts, seconds: 2 });
  const out = {
    bare: { results: [], loads: [] },
    target: { results: [], loads: [] },
    warmUpOk: warmUp.ok,
  } as { bare: Rounds; target: Rounds; warmUpOk: number };
  for (let r = 0; r < ROUNDS; r++) {
    out.bare.loads.push(loadAverage());
    out.bare.results.push(
      await runLoad(bare.url, posts("/", json), { ...opts, serverPid: bare.pid }),
    );
    out.target.loads.push(loadAverage());
    out.target.results.push(
      await runLoad(server.url, posts(route, headers), { ...opts, serverPid: server.pid }),
    );
  }
  return out;
}

async function studentHeaders(url: string): Promise<Record<string, string>> {
  const token = await benchAccount(url, "Bench Student");
  return { "content-type": "application/json", authorization: `Bearer ${token}` };
}

/** Rows in `predictions` once the server has stopped (PGlite: the DATA_DIR opened here). */
async function storedRows(dataDir: string, url: string | undefined): Promise<number> {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const n = Number((await client.query("select count(*) as n from predictions")).rows[0].n);
    await client.end();
    return n;
  }
  const { openDatabase } = await import("../../apps/server/src/db/database.ts");
  const database = await openDatabase({ dataDir });
  const counted = await database.db
    .selectFrom("predictions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const n = Number(counted.n);
  await database.close();
  return n;
}

function row(name: string, r: Rounds) {
  const rps = r.results.map((x) => x.rps);
  const p99 = r.results.map((x) => x.p99);
  return `| ${name} | ${range(rps)} | ${median(r.results.map((x) => x.p50)).toFixed(1)} | ${range(p99, 1)} | ${median(r.results.map((x) => x.serverCpuPerRequest)).toFixed(3)} | ${median(r.results.map((x) => x.generatorCpuPerRequest)).toFixed(3)} | ${r.loads[0]} |`;
}

async function main() {
  console.log(
    `POST /api/predict, ${CLIENTS} connections (autocannon, pipelining off), ${ROUNDS} alternating rounds of ${Math.round(SECONDS / ROUNDS)} s, ${new Date().toISOString()}, load average ${loadAverage()}`,
  );
  const bare = await startBareHttp();
  const targets: string[] = [];
  const table: string[] = [];
  const databases = process.argv.includes("--skip-postgres") ? [false] : [false, true];
  try {
    const json = { "content-type": "application/json" };
    await checkGeneratorCeiling(bare, posts("/", json), CLIENTS, "parsing the same bodies");
    for (const onPostgres of databases) {
      const name = onPostgres ? "PostgreSQL" : "PGlite";
      const database = onPostgres ? await createBenchDatabase() : undefined;
      const dataDir = path.join(
        repoRoot,
        "bench/results",
        `predict-${randomBytes(4).toString("hex")}`,
      );
      await mkdir(dataDir, { recursive: true });
      const server = await startGradecast(
        { RATE_LIMITS: "off", ...(database ? { DATABASE_URL: database.url } : {}) },
        dataDir,
      );
      let acknowledged = 0;
      try {
        const headers = await studentHeaders(server.url);
        const stored = await alternate(bare, server, "/api/predict", headers);
        // Every 2xx answer to a stored prediction, the warm-up's included. A run ends with
        // requests in flight whose rows may be stored unanswered, so rows may exceed this.
        acknowledged = stored.target.results.reduce((s, r) => s + r.ok, stored.warmUpOk);
        table.push(row(`${name}: bare http route (same rounds)`, stored.bare));
        table.push(row(`${name}: stored prediction`, stored.target));
        const ratio = median(
          stored.target.results.map((r, i) => r.rps / stored.bare.results[i]!.rps),
        );
        const p99Ratio = median(
          stored.target.results.map((r, i) => r.p99 / Math.max(1, stored.bare.results[i]!.p99)),
        );
        const cpu = median(stored.target.results.map((r) => r.serverCpuPerRequest));
        const failed = stored.target.results.reduce((s, r) => s + r.failed, 0);
        targets.push(
          targetLine(
            `${name} stored prediction, req/s at least 25 % of the bare route`,
            ratio >= 0.25,
            `${(ratio * 100).toFixed(0)} % (median of the rounds' ratios)`,
          ),
          targetLine(
            `${name} stored prediction, p99 at most 5x the bare route's`,
            p99Ratio <= 5,
            `${p99Ratio.toFixed(1)}x (autocannon's p99 in whole ms; bare p99 taken as at least 1 ms)`,
          ),
          targetLine(
            `${name} stored prediction, server CPU at most 0.15 ms per request`,
            cpu <= 0.15,
            `${cpu.toFixed(3)} ms (bare route's server: ${median(stored.bare.results.map((r) => r.serverCpuPerRequest)).toFixed(3)} ms)`,
          ),
        );
        if (failed > 0)
          targets.push(
            targetLine(`${name} stored prediction, no failed answers`, false, `${failed} failed`),
          );
        if (process.argv.includes("--what-if")) {
          const whatIf = await alternate(bare, server, "/api/predict?store=false", headers);
          table.push(row(`${name}: what-if (?store=false)`, whatIf.target));
        }
      } finally {
        await server.stop();
      }
      const rows = await storedRows(dataDir, database?.url);
      targets.push(
        targetLine(
          `${name} nothing acknowledged lost`,
          rows >= acknowledged,
          `${rows} rows stored, ${acknowledged} stored predictions acknowledged`,
        ),
      );
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  } finally {
    await bare.stop();
  }
  console.log(
    "\n| call | req/s (rounds) | p50 ms | p99 ms (rounds) | server CPU ms/req | generator CPU ms/req | load average |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of table) console.log(r);
  console.log("");
  for (const t of targets) console.log(t);
  console.log(`load average at the end: ${loadAverage()}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
