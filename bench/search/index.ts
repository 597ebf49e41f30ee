/**
 * Report search at 100,000 reports, 16 clients: GET /api/reports?search=sMiTh&limit=25 through
 * Gradecast started by `npm start` (autocannon, its own process, pipelining off), beside the
 * very SQL text and parameters the server sends for it, for three readers (issue 17):
 * - admin: every report (the statement every teacher ran before classes);
 * - author: the seed teacher, who wrote all 100,000 and teaches one of the 100 classes;
 * - class teacher: teaches one class, wrote nothing, and so reads 1 % of the reports.
 * Baselines, measured in the same run:
 * - PostgreSQL: each statement run by pgbench at the same concurrency (custom script, extended
 *   protocol as the server's unnamed statement), in rounds alternating with Gradecast; for the
 *   two teachers also the statement of before migration 0015 (one `author or class` filter), so
 *   the plan's change shows beside today's. PostgreSQL's CPU per search is read from the
 *   server's own backends (/proc), Gradecast's from its process.
 * - PGlite: each statement in a bare in-process loop on the same data directory (before the
 *   server, which holds the directory's lock while it runs).
 * Target (issue 17): a teacher's search costs at most 20 % more than the admin's (CPU of the
 * server and of PostgreSQL per search, same rounds).
 * The one setting changed from the defaults is RATE_LIMITS=off; the accounts are made with the
 * admin:create code (verified, no sign-up wait).
 * Run: npx tsx bench/search/index.ts [--reports 100000] [--rounds 3] [--seconds 4] [--skip-pglite]
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { CompiledQuery } from "kysely";
import pg from "pg";
import {
  seedSyntheticClasses,
  seedSyntheticReports,
} from "../../apps/server/scripts/synthetic-reports.ts";
import { type Database, migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { listReports } from "../../apps/server/src/reports/queries.ts";
import { readsMostReports } from "../../apps/server/src/reports/reader-share.ts";
import { createOrPromoteAdmin } from "../../apps/server/src/users/admin.ts";
import { repoRoot } from "../../e2e/harness.ts";
import { benchPassword } from "../lib/accounts.ts";
import { flag, numberArgs } from "../lib/args.ts";
import { cpuMsOf } from "../lib/cpu-time.ts";
import {
  generatorCeiling,
  loadAverage,
  printRunEnd,
  printRunStart,
  runBench,
  runLoad,
  startGradecast,
  targetLine,
} from "../lib/load.ts";
import { createBenchDatabase, pgAdminUrl } from "../lib/postgres.ts";
import { makeAdmin, signIn } from "../lib/staff.ts";

const options = numberArgs({ reports: 100_000, rounds: 3, seconds: 4 });
const CLIENTS = 16;
const SEARCH = "sMiTh";
const LIMIT = 25;

/** The SQL text and parameters the server sends for this search (captured, not copied). */
async function searchStatement(
  viewerId?: string,
  scope?: "walks" | "wide",
): Promise<{ text: string; parameters: unknown[] }> {
  let captured: { text: string; parameters: unknown[] } | undefined;
  const spy = {
    executeQuery: async (q: { sql: string; parameters: readonly unknown[] }) => {
      captured = { text: q.sql, parameters: [...q.parameters] };
      return { rows: [] };
    },
  };
  await listReports(spy as never, { search: SEARCH, sort: "date", limit: LIMIT, viewerId, scope });
  if (!captured) throw new Error("no statement captured");
  return captured;
}

/**
 * The statement of before migration 0015 for a teacher: the admin's, with one filter for what
 * they may read (their reports or their classes', the classes read first and sent as an array).
 */
function beforeStatement(admin: { text: string }, viewerId: string, classIds: string[]) {
  const text = admin.text
    .replace(/\$(\d+)/g, (_, n) => `$${Number(n) + 2}`)
    .replace(/\bwhere\b/, "where (r.author_id = $1::uuid or r.class_id = any($2::uuid[])) and");
  return { text, parameters: [viewerId, `{${classIds.join(",")}}`, SEARCH, LIMIT] };
}

type Reader = {
  label: string;
  email: string;
  statement: { text: string; parameters: unknown[] };
  before?: { text: string; parameters: unknown[] };
};

async function seed(database: Database): Promise<{ seconds: number; readers: Reader[] }> {
  await migrate(database.db);
  const seconds = await seedSyntheticReports(database.db, options.reports);
  const { authorEmail, classTeacherEmail } = await seedSyntheticClasses(database.db, 100);
  const email = await makeAdmin(database.db);
  const readers: Reader[] = [{ label: "admin", email, statement: await searchStatement() }];
  for (const [label, teacherEmail] of [
    ["author (wrote 100 %)", authorEmail],
    ["class teacher (1 %)", classTeacherEmail],
  ] as const) {
    // Existing teachers: a password set, the role kept.
    await createOrPromoteAdmin(database.db, {
      email: teacherEmail,
      name: label,
      password: benchPassword,
      resetPassword: true,
      role: "teacher",
    });
    const user = await database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", teacherEmail)
      .executeTakeFirstOrThrow();
    const classes = await database.db
      .selectFrom("class_teachers")
      .select("class_id")
      .where("teacher_id", "=", user.id)
      .execute();
    // The statement the server picks for this teacher (reader-share.ts).
    const scope = (await readsMostReports(database.db, user.id)) ? "wide" : "walks";
    readers.push({
      label: `${label}, ${scope === "wide" ? "one filtered walk" : "two walks"}`,
      email: teacherEmail,
      statement: await searchStatement(user.id, scope),
      before: beforeStatement(
        readers[0]!.statement,
        user.id,
        classes.map((c) => c.class_id),
      ),
    });
  }
  return { seconds, readers };
}

const searchPath = `/api/reports?search=${SEARCH}&limit=${LIMIT}`;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/** pgbench with the statement as a custom script; p99 from its per-transaction log. */
async function pgbench(url: string, text: string, parameters: unknown[]) {
  const dir = await mkdtemp(path.join(repoRoot, "bench/results/pgbench-"));
  let script = text;
  // pgbench sends its variables untyped, and lower() takes more than text: a text parameter is
  // cast to text, which is the type the server's driver gets it resolved to.
  parameters.forEach((p, i) => {
    const v = typeof p === "string" ? `cast(:p${i + 1} as text)` : `:p${i + 1}`;
    script = script.replaceAll(new RegExp(`\\$${i + 1}(?!\\d)`, "g"), v);
  });
  // pgbench reads every :name as a variable, also inside a string literal (the time formats'
  // HH24:MI:SS): such a colon is spelled as a concatenation the planner folds back.
  script = script.replace(/(?<!:):(?!p\d)([A-Za-z_]\w*)/g, "' || ':' || '$1");
  await writeFile(path.join(dir, "search.sql"), `${script.replace(/\s+/g, " ").trim()};\n`);
  const args = [
    "-n",
    "-f",
    "search.sql",
    "-c",
    String(CLIENTS),
    "-j",
    "2",
    "-T",
    String(options.seconds),
    "-M",
    "extended",
    "-l",
    ...parameters.flatMap((p, i) => ["-D", `p${i + 1}=${p}`]),
    url,
  ];
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile("pgbench", args, { cwd: dir }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    ),
  );
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencies: number[] = [];
  for (const file of await readdir(dir)) {
    if (!file.startsWith("pgbench_log")) continue;
    for (const line of (await readFile(path.join(dir, file), "utf8")).split("\n")) {
      const us = Number(line.split(" ")[2]);
      if (Number.isFinite(us)) latencies.push(us / 1000);
    }
  }
  await rm(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  return { rps: tps, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

/** The same statement in a bare loop in this process (PGlite): CLIENTS loops for options.seconds. */
async function bareLoop(database: Database, text: string, parameters: unknown[]) {
  const latencies: number[] = [];
  const end = performance.now() + options.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await database.db.executeQuery(CompiledQuery.raw(text, parameters));
        latencies.push(performance.now() - t);
      }
    }),
  );
  const rps = latencies.length / ((performance.now() - started) / 1000);
  latencies.sort((a, b) => a - b);
  return { rps, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

type Figure = { rps: number; p50: number; p99: number };
const fmt = (f: Figure) =>
  `${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** CPU milliseconds so far of the PostgreSQL backends serving a database (the server's pool). */
async function backendsCpuMs(admin: pg.Client, database: string): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
    [database],
  );
  return rows.reduce((sum, r) => sum + (cpuMsOf(r.pid) || 0), 0);
}

/** The per-search CPU target: a teacher's search against the admin's of the same rounds. */
function targetLines(engine: string, cpu: Map<string, number>) {
  const base = cpu.get("admin")!;
  for (const [label, value] of cpu) {
    if (label === "admin") continue;
    const ratio = value / base;
    console.log(
      targetLine(
        `${engine} search by the ${label}, CPU at most 1.2x the admin's`,
        ratio <= 1.2,
        `${ms(value)} against ${ms(base)}, ${ratio.toFixed(2)}x`,
      ),
    );
  }
}

async function main() {
  printRunStart(
    `report search "${SEARCH}", ${options.reports} reports, ${CLIENTS} clients, ${options.rounds} alternating rounds of ${options.seconds} s`,
  );
  await mkdir(path.join(repoRoot, "bench/results"), { recursive: true });
  // The generator's own ceiling first: the bare route with the same GET at the same concurrency.
  await generatorCeiling([{ method: "GET", path: searchPath }], CLIENTS, "answering the same GET");

  // PostgreSQL against pgbench.
  const { name, url, drop } = await createBenchDatabase();
  // One connection for the backends' CPU readings, open through the rounds.
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  const dataDir = await mkdtemp(path.join(repoRoot, "bench/results/search-"));
  try {
    const database = await openDatabase({ url: url, poolSize: 2 });
    const { seconds, readers } = await seed(database);
    await database.close();
    console.log(`PostgreSQL seeded in ${seconds.toFixed(1)} s`);
    for (const r of readers) {
      console.log(
        `${r.label}: ${r.statement.text.replace(/\s+/g, " ")} -- parameters ${JSON.stringify(r.statement.parameters)}`,
      );
    }
    const server = await startGradecast({ RATE_LIMITS: "off", DATABASE_URL: url }, dataDir);
    type Round = { bench: Figure; before?: Figure; http: Figure; serverCpu: number; pgCpu: number };
    const rounds = new Map<string, Round[]>(readers.map((r) => [r.label, []]));
    try {
      const loads = [];
      for (const reader of readers) {
        const headers = await signIn(server.url, reader.email);
        loads.push({ reader, requests: [{ method: "GET" as const, path: searchPath, headers }] });
      }
      for (const { reader, requests } of loads) {
        await runLoad(server.url, requests, { connections: CLIENTS, seconds: 1 });
        await pgbench(url, reader.statement.text, reader.statement.parameters);
      }
      for (let round = 0; round < options.rounds; round++) {
        for (const { reader, requests } of loads) {
          const { text, parameters } = reader.statement;
          const bench = await pgbench(url, text, parameters);
          const before = reader.before
            ? await pgbench(url, reader.before.text, reader.before.parameters)
            : undefined;
          const pgBefore = await backendsCpuMs(admin, name);
          const http = await runLoad(server.url, requests, {
            connections: CLIENTS,
            seconds: options.seconds,
            serverPid: server.pid,
          });
          const pgCpu = ((await backendsCpuMs(admin, name)) - pgBefore) / http.requests;
          rounds
            .get(reader.label)!
            .push({ bench, before, http, serverCpu: http.serverCpuPerRequest, pgCpu });
        }
      }
    } finally {
      await server.stop();
    }
    const cpu = new Map<string, number>();
    for (const [label, list] of rounds) {
      list.forEach((r, i) => {
        console.log(
          `PostgreSQL ${label}, round ${i + 1}: pgbench ${fmt(r.bench)}${r.before ? `; pgbench, statement before 0015: ${fmt(r.before)}` : ""}; Gradecast ${fmt(r.http)}, server CPU ${ms(r.serverCpu)}, PostgreSQL CPU ${ms(r.pgCpu)} a search`,
        );
      });
      const share = median(list.map((r) => r.http.rps / r.bench.rps));
      const p99 = median(list.map((r) => r.http.p99 / r.bench.p99));
      const pgCpu = median(list.map((r) => r.pgCpu));
      const serverCpu = median(list.map((r) => r.serverCpu));
      cpu.set(label, pgCpu + serverCpu);
      const gain = list[0]?.before
        ? `; pgbench today against the statement before 0015: ${median(list.map((r) => r.bench.rps / r.before!.rps)).toFixed(1)}x the throughput`
        : "";
      console.log(
        `PostgreSQL ${label} (medians): Gradecast at ${(share * 100).toFixed(0)} % of pgbench's throughput, p99 ${p99.toFixed(1)}x; CPU a search: server ${ms(serverCpu)}, PostgreSQL ${ms(pgCpu)}${gain}`,
      );
    }
    const adminRounds = rounds.get("admin")!;
    const share = median(adminRounds.map((h) => h.http.rps / h.bench.rps));
    const p99 = median(adminRounds.map((h) => h.http.p99 / h.bench.p99));
    console.log(
      targetLine(
        "PostgreSQL search, at least 50 % of pgbench's throughput",
        share >= 0.5,
        `${(share * 100).toFixed(0)} %`,
      ),
    );
    console.log(
      targetLine("PostgreSQL search, p99 at most 3x pgbench's", p99 <= 3, `${p99.toFixed(1)}x`),
    );
    targetLines("PostgreSQL", cpu);
  } finally {
    await admin.end();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }

  if (flag("skip-pglite")) return;
  // PGlite against a bare loop on the same data directory.
  const liteDir = await mkdtemp(path.join(repoRoot, "bench/results/search-lite-"));
  try {
    const lite = await openDatabase({ dataDir: liteDir });
    const { seconds, readers } = await seed(lite);
    console.log(`PGlite seeded in ${seconds.toFixed(1)} s, load average ${loadAverage()}`);
    const bare = new Map<string, { now: Figure; before?: Figure }>();
    for (const reader of readers) {
      const { text, parameters } = reader.statement;
      await bareLoop(lite, text, parameters);
      const now = await bareLoop(lite, text, parameters);
      const before = reader.before
        ? await bareLoop(lite, reader.before.text, reader.before.parameters)
        : undefined;
      bare.set(reader.label, { now, before });
    }
    await lite.close();
    const server = await startGradecast({ RATE_LIMITS: "off" }, liteDir);
    const cpu = new Map<string, number>();
    try {
      for (const reader of readers) {
        const headers = await signIn(server.url, reader.email);
        const requests = [{ method: "GET" as const, path: searchPath, headers }];
        await runLoad(server.url, requests, { connections: CLIENTS, seconds: 1 });
        const http = await runLoad(server.url, requests, {
          connections: CLIENTS,
          seconds: options.seconds * options.rounds,
          serverPid: server.pid,
        });
        const b = bare.get(reader.label)!;
        cpu.set(reader.label, http.serverCpuPerRequest);
        console.log(
          `PGlite ${reader.label}: bare loop ${fmt(b.now)}${b.before ? `; statement before 0015 ${fmt(b.before)}` : ""}; Gradecast ${fmt(http)}, ${((http.rps / b.now.rps) * 100).toFixed(0)} % of the bare loop, server CPU (PGlite's included) ${ms(http.serverCpuPerRequest)} a search`,
        );
      }
    } finally {
      await server.stop();
    }
    targetLines("PGlite", cpu);
  } finally {
    await rm(liteDir, { recursive: true, force: true });
  }
  printRunEnd();
}

runBench(main);
