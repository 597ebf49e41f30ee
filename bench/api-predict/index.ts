/**
 * Stored predictions under load: POST /api/predict at 32 connections (autocannon, its own
 * process, pipelining off) against Gradecast started as a user starts it (`npm start`, default
 * configuration: LOG_LEVEL info, embedded PGlite; then DATABASE_URL on PostgreSQL), beside the
 * bare Node http route parsing the same bodies, in interleaved rounds: each round measures the
 * bare route and then every caller in turn, starting with a different caller each round, so
 * two callers are compared within one round, under nearly the same load. The bodies vary (256
 * different questionnaires, cycled), so nothing keyed on a body could help. The one setting
 * changed from the defaults is RATE_LIMITS=off: the limits allow 120 predictions a minute per
 * account. Every stored answer acknowledged must be in the database afterwards.
 *
 * Targets (issue 22): at least 25 % of the bare route's requests per second, p99 at most 5 times
 * the bare route's, at most 0.15 ms of server CPU per request, nothing acknowledged lost.
 *
 * Issue 29 (the school record): three callers, each a student of their own: one in no class
 * posting bodies with the subject; one enrolled in a class posting SPEC's body (no subject:
 * the server finds it in the enrolment); one enrolled in a class whose record holds their G1
 * and absences (SPEC's body: the record's values are overlaid). The classes and the record are
 * written into the database between two starts of the server. Targets: each enrolled caller at
 * least 0.9 of the first caller's requests per second (median of the rounds' ratios), p99 at
 * most 6 times the bare route's.
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
import { flag, numberArgs } from "../lib/args.ts";
import {
  type LoadRequest,
  type LoadResult,
  loadAverage,
  printRunEnd,
  printRunStart,
  runBench,
  runLoad,
  type Started,
  startGradecast,
  targetLine,
  withBareRoute,
} from "../lib/load.ts";
import { createBenchDatabase } from "../lib/postgres.ts";

const options = numberArgs({ seconds: 12, rounds: 4, clients: 32 });

const bodies = questionnaireBodies();
/** SPEC's body: the questionnaire without the subject. */
const specBodies = bodies.map((body) => {
  const { subject: _subject, ...rest } = JSON.parse(body) as Record<string, string>;
  return JSON.stringify(rest);
});
const posts = (
  route: string,
  headers: Record<string, string>,
  from: string[] = bodies,
): LoadRequest[] => from.map((body) => ({ method: "POST", path: route, headers, body }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)}`;

interface Rounds {
  results: LoadResult[];
  loads: string[];
}

interface Scenario {
  route: string;
  headers: Record<string, string>;
  from: string[];
}

/**
 * The bare route and each scenario in turn, round after round (--seconds / --rounds each): every
 * round measures all of them within a few seconds of each other, so a ratio between two callers
 * is taken within one round, where the machine's other load is nearly the same for both.
 */
async function interleave(
  bare: Started,
  server: Started,
  scenarios: Scenario[],
): Promise<{ bare: Rounds; targets: Rounds[]; warmUpOk: number }> {
  const json = { "content-type": "application/json" };
  const seconds = Math.max(1, Math.round(options.seconds / options.rounds));
  const opts = { connections: options.clients, seconds };
  // Warm-up of each (JIT, connections, the database's caches).
  await runLoad(bare.url, posts("/", json), { ...opts, seconds: 2 });
  let warmUpOk = 0;
  for (const s of scenarios) {
    warmUpOk += (
      await runLoad(server.url, posts(s.route, s.headers, s.from), { ...opts, seconds: 2 })
    ).ok;
  }
  const bareRounds: Rounds = { results: [], loads: [] };
  const targets: Rounds[] = scenarios.map(() => ({ results: [], loads: [] }));
  for (let r = 0; r < options.rounds; r++) {
    bareRounds.loads.push(loadAverage());
    bareRounds.results.push(
      await runLoad(bare.url, posts("/", json), { ...opts, serverPid: bare.pid }),
    );
    // Each round starts with another scenario, so none is always measured first.
    for (let k = 0; k < scenarios.length; k++) {
      const i = (k + r) % scenarios.length;
      const s = scenarios[i]!;
      targets[i]!.loads.push(loadAverage());
      targets[i]!.results.push(
        await runLoad(server.url, posts(s.route, s.headers, s.from), {
          ...opts,
          serverPid: server.pid,
        }),
      );
    }
  }
  return { bare: bareRounds, targets, warmUpOk };
}

async function studentHeaders(
  url: string,
  name = "Bench Student",
): Promise<Record<string, string>> {
  const token = await benchAccount(url, name);
  return { "content-type": "application/json", authorization: `Bearer ${token}` };
}

/**
 * A class of mathematics with the two enrolled callers, the second with a school record of G1
 * and absences, written while the server is stopped (PGlite: the DATA_DIR is the server's alone).
 */
async function enrolCallers(dataDir: string, url: string | undefined): Promise<void> {
  const { openDatabase } = await import("../../apps/server/src/db/database.ts");
  const database = await openDatabase(url ? { url, dataDir } : { dataDir });
  const db = database.db;
  const ids = async (name: string) =>
    (await db.selectFrom("users").select("id").where("name", "=", name).executeTakeFirstOrThrow())
      .id;
  const enrolled = await ids("Bench Enrolled");
  const recorded = await ids("Bench Recorded");
  const cls = await db
    .insertInto("classes")
    .values({ name: "Bench 10A", subject: "mat", year: "2026-27" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("enrolments")
    .values([
      { class_id: cls.id, student_id: enrolled },
      { class_id: cls.id, student_id: recorded },
    ])
    .execute();
  await db
    .insertInto("school_records")
    .values({ class_id: cls.id, student_id: recorded, g1: 12, absences: 6, inputs_version: 2 })
    .execute();
  await database.close();
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
  printRunStart(
    `POST /api/predict, ${options.clients} connections (autocannon, pipelining off), ${options.rounds} alternating rounds of ${Math.round(options.seconds / options.rounds)} s`,
  );
  const targets: string[] = [];
  const table: string[] = [];
  const databases = flag("skip-postgres") ? [false] : [false, true];
  const json = { "content-type": "application/json" };
  await withBareRoute(
    posts("/", json),
    options.clients,
    "parsing the same bodies",
    async (bare) => {
      for (const onPostgres of databases) {
        const name = onPostgres ? "PostgreSQL" : "PGlite";
        const database = onPostgres ? await createBenchDatabase() : undefined;
        const dataDir = path.join(
          repoRoot,
          "bench/results",
          `predict-${randomBytes(4).toString("hex")}`,
        );
        await mkdir(dataDir, { recursive: true });
        const env = { RATE_LIMITS: "off", ...(database ? { DATABASE_URL: database.url } : {}) };
        // Accounts through the API, then the class and the record while the server is stopped.
        const first = await startGradecast(env, dataDir);
        let callers: Record<string, string>[];
        try {
          callers = [
            await studentHeaders(first.url),
            await studentHeaders(first.url, "Bench Enrolled"),
            await studentHeaders(first.url, "Bench Recorded"),
          ];
        } finally {
          await first.stop();
        }
        await enrolCallers(dataDir, database?.url);
        const server = await startGradecast(env, dataDir);
        let acknowledged = 0;
        try {
          const scenarios = [
            {
              label: "stored prediction, subject in the body, no class",
              h: callers[0]!,
              from: bodies,
            },
            { label: "SPEC body (no subject), enrolled", h: callers[1]!, from: specBodies },
            {
              label: "SPEC body, enrolled, record G1 and absences",
              h: callers[2]!,
              from: specBodies,
            },
          ];
          const measured = await interleave(
            bare,
            server,
            scenarios.map((s) => ({ route: "/api/predict", headers: s.h, from: s.from })),
          );
          // Every 2xx answer to a stored prediction, the warm-up's included. A run ends with
          // requests in flight whose rows may be stored unanswered, so rows may exceed this.
          acknowledged += measured.warmUpOk;
          table.push(row(`${name}: bare http route (same rounds)`, measured.bare));
          const first = measured.targets[0]!;
          for (const [n, scenario] of scenarios.entries()) {
            const target = measured.targets[n]!;
            acknowledged += target.results.reduce((s, r) => s + r.ok, 0);
            table.push(row(`${name}: ${scenario.label}`, target));
            const rps = median(target.results.map((r) => r.rps));
            const ratio = median(
              target.results.map((r, i) => r.rps / measured.bare.results[i]!.rps),
            );
            const p99Ratio = median(
              target.results.map((r, i) => r.p99 / Math.max(1, measured.bare.results[i]!.p99)),
            );
            const cpu = median(target.results.map((r) => r.serverCpuPerRequest));
            const failed = target.results.reduce((s, r) => s + r.failed, 0);
            if (n === 0) {
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
                  `${cpu.toFixed(3)} ms (bare route's server: ${median(measured.bare.results.map((r) => r.serverCpuPerRequest)).toFixed(3)} ms)`,
                ),
              );
            } else {
              // Within each round, against the subject-in-body caller measured in that round.
              const vsFirst = median(target.results.map((r, i) => r.rps / first.results[i]!.rps));
              const firstCpu = median(first.results.map((r) => r.serverCpuPerRequest));
              targets.push(
                targetLine(
                  `${name} ${scenario.label}, req/s at least 0.9 of the subject-in-body caller's`,
                  vsFirst >= 0.9,
                  `${vsFirst.toFixed(2)} (median of the rounds' ratios; ${rps.toFixed(0)} against ${median(first.results.map((r) => r.rps)).toFixed(0)} req/s; server CPU ${cpu.toFixed(3)} against ${firstCpu.toFixed(3)} ms per request)`,
                ),
                targetLine(
                  `${name} ${scenario.label}, p99 at most 6x the bare route's`,
                  p99Ratio <= 6,
                  `${p99Ratio.toFixed(1)}x`,
                ),
              );
            }
            if (failed > 0)
              targets.push(
                targetLine(
                  `${name} ${scenario.label}, no failed answers`,
                  false,
                  `${failed} failed`,
                ),
              );
          }
          if (flag("what-if")) {
            const whatIf = await interleave(bare, server, [
              { route: "/api/predict?store=false", headers: scenarios[0]!.h, from: bodies },
            ]);
            table.push(row(`${name}: what-if (?store=false)`, whatIf.targets[0]!));
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
    },
  );
  console.log(
    "\n| call | req/s (rounds) | p50 ms | p99 ms (rounds) | server CPU ms/req | generator CPU ms/req | load average |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of table) console.log(r);
  console.log("");
  for (const t of targets) console.log(t);
  printRunEnd();
}

runBench(main);
