/**
 * Soak: mixed realistic traffic at 50 concurrent connections against the real server process
 * (PGlite by default, `--postgres` for PostgreSQL), with the rate limits ON as in production:
 * sign-ins, report searches, report creations and stored predictions, for SOAK_SECONDS (default
 * 60) after a warm-up. Reports every request that did not get its expected answer (target: 0;
 * a 429 counts), requests per second, p50/p99 per kind, and the server's memory after the
 * warm-up and at the end (RSS from /proc, and the heap after a full GC through memory-probe.mjs;
 * target: RSS growth under 10 %). Baseline, same run: a bare Fastify route in its own process,
 * driven by the same 50 connections with the same requests (half before the soak, half after).
 *
 * The limits are kept by the clients, as real users would be spread out: each account signs in
 * at most once per 7 s (limit: 10 a minute per address and email) and each student predicts at
 * most once per 0.55 s (limit: 120 a minute), each teacher files a report at most once per
 * 0.21 s (limit: 300 a minute); when the next account is not due yet, that
 * connection searches instead, and the realised mix is printed.
 *
 * Run: SOAK_SECONDS=60 npx tsx bench/soak/index.ts [--postgres]
 * Other knobs: SOAK_CONNECTIONS (50), SOAK_WARMUP_SECONDS (10), SOAK_BASELINE_SECONDS (10).
 * PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test;
 * the bench creates a database of its own there and drops it at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { seedSyntheticReports } from "../../apps/server/scripts/synthetic-reports.ts";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { createOrPromoteAdmin } from "../../apps/server/src/users/admin.ts";
import { eachConcurrently } from "../../e2e/concurrently.ts";
import { freePort, repoRoot, startServer } from "../../e2e/harness.ts";
import { flag } from "../lib/args.ts";
import { bareGet, generatorCeiling, runBench } from "../lib/load.ts";
import { createBenchDatabase } from "../lib/postgres.ts";
import { type Account, type Kind, kinds, Mix, type Planned } from "./mix.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback) || fallback;
const SECONDS = num("SOAK_SECONDS", 60);
const CONNECTIONS = num("SOAK_CONNECTIONS", 50);
const WARMUP = num("SOAK_WARMUP_SECONDS", Math.min(10, Math.max(3, Math.round(SECONDS / 6))));
const BASELINE = num("SOAK_BASELINE_SECONDS", Math.min(10, Math.max(4, Math.round(SECONDS / 6))));
const SAMPLE_EVERY = 10;
const REPORTS = 10_000;
const TEACHERS = 10;
const STUDENTS = 60;
const PASSWORD = "soak test passphrase 2026";
const onPostgres = flag("postgres");

interface Tally {
  latencies: Record<Kind, number[]>;
  errors: Map<string, number>;
  fallbacks: number;
  seconds: number;
}

const emptyTally = (): Tally => ({
  latencies: Object.fromEntries(kinds.map((k) => [k, []])) as unknown as Record<Kind, number[]>,
  errors: new Map(),
  fallbacks: 0,
  seconds: 0,
});

/** CONNECTIONS loops, each sending its next planned request when the previous answer is read. */
async function drive(base: string, mix: Mix, seconds: number, into: Tally, bare: boolean) {
  const end = performance.now() + seconds * 1000;
  const count = (key: string) => into.errors.set(key, (into.errors.get(key) ?? 0) + 1);
  const connection = async () => {
    while (performance.now() < end) {
      const req: Planned = mix.next();
      if (req.fallback) into.fallbacks++;
      const t = performance.now();
      try {
        const res = await fetch(`${base}${req.path}`, {
          method: req.method,
          headers: req.headers,
          body: req.body,
        });
        const text = await res.text();
        const expected = bare ? 200 : req.expect;
        if (res.status !== expected) count(`${req.kind} ${res.status}`);
        else {
          into.latencies[req.kind].push(performance.now() - t);
          if (!bare) req.onAnswer?.(text);
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? "network error";
        count(`${req.kind} ${cause}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  into.seconds += (performance.now() - started) / 1000;
}

const bareSource = `
const app = require("fastify")({ logger: false, bodyLimit: 1024 * 1024 });
app.get("/*", async () => ({ ok: true }));
app.post("/*", async (request) => ({ received: Object.keys(request.body ?? {}).length }));
app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

async function startBare(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["-e", bareSource], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), NODE_PATH: path.join(repoRoot, "node_modules") },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      if (i > 400) throw new Error("bare server did not start");
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

interface MemorySample {
  t: number;
  rss: number;
  heapAfterGc: number;
}

const mib = (bytes: number) => bytes / 1024 / 1024;

/** RSS as the kernel sees it, then the heap after a full GC (written by memory-probe.mjs). */
async function sampleMemory(child: ChildProcess, file: string, t: number): Promise<MemorySample> {
  const status = await readFile(`/proc/${child.pid}/status`, "utf8");
  const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
  const asked = Date.now();
  child.kill("SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      const usage = JSON.parse(await readFile(file, "utf8")) as { at: number; heapUsed: number };
      if (usage.at >= asked) return { t, rss, heapAfterGc: usage.heapUsed };
    } catch {
      // not written yet
    }
  }
  throw new Error("the memory probe did not answer");
}

/** Samples at 0, 10, 20 … s and 1.5 s before the end, while the load is still running. */
async function sampleDuring(child: ChildProcess, file: string, seconds: number) {
  const started = performance.now();
  const times = [];
  for (let t = 0; t < seconds - 3; t += SAMPLE_EVERY) times.push(t);
  times.push(Math.max(0, seconds - 1.5));
  const samples: MemorySample[] = [];
  for (const t of times) {
    const wait = started + t * 1000 - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    samples.push(await sampleMemory(child, file, t));
  }
  return samples;
}

async function post(url: string, body: unknown) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Teachers as `admin:create --role teacher` makes them: approved and verified, no waiting. */
async function makeTeachers(db: Parameters<typeof createOrPromoteAdmin>[0], tag: string) {
  for (let i = 0; i < TEACHERS; i++) {
    await createOrPromoteAdmin(db, {
      email: `soak.teacher.${i}.${tag}@bench.test`,
      name: `Soak teacher ${i}`,
      password: PASSWORD,
      role: "teacher",
    });
  }
}

/** Registers the students and signs every account in, on a server started without limits. */
async function seedAccounts(url: string, tag: string): Promise<Account[]> {
  const plan = [
    ...Array.from({ length: TEACHERS }, (_, i) => ({ role: "teacher" as const, i })),
    ...Array.from({ length: STUDENTS }, (_, i) => ({ role: "student" as const, i })),
  ];
  const accounts: Account[] = [];
  await eachConcurrently(plan, 4, async (item) => {
    const email = `soak.${item.role}.${item.i}.${tag}@bench.test`;
    if (item.role === "student") {
      const reg = await post(`${url}/api/auth/register`, {
        name: `Soak student ${item.i}`,
        email,
        password: PASSWORD,
        role: item.role,
      });
      if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    }
    const login = await post(`${url}/api/auth/login`, { email, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };
    accounts.push({ email, password: PASSWORD, role: item.role, token });
  });
  return accounts;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function summary(t: Tally) {
  const all = kinds.flatMap((k) => t.latencies[k]).sort((a, b) => a - b);
  const errors = [...t.errors.values()].reduce((a, b) => a + b, 0);
  return { requests: all.length, errors, rps: all.length / t.seconds, all };
}

async function main() {
  const load0 = os.loadavg()[0] ?? 0;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-bench-soak-"));
  const database = onPostgres ? await createBenchDatabase("gradecast_soak") : undefined;
  const dbEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  const memoryFile = path.join(os.tmpdir(), `gradecast-soak-memory-${process.pid}.json`);
  const bare = await startBare();
  // The soak's own paced loops are no throughput generator: what one that is not the bound
  // (autocannon, its own process) gets from the bare Node http route, for scale.
  const ceiling = await generatorCeiling(bareGet, CONNECTIONS, "answering a GET");
  const tag = randomBytes(3).toString("hex");
  try {
    const seedDb = await openDatabase(database ? { url: database.url, poolSize: 2 } : { dataDir });
    try {
      await migrate(seedDb.db);
      await seedSyntheticReports(seedDb.db, REPORTS);
      await makeTeachers(seedDb.db, tag);
    } finally {
      await seedDb.close();
    }
    const seeder = await startServer({ dataDir, env: { ...dbEnv, RATE_LIMITS: "off" } });
    let accounts: Account[];
    try {
      accounts = await seedAccounts(seeder.url, tag);
    } finally {
      await seeder.stop({ keepData: true });
    }

    // The server under test: production settings (rate limits on), the memory probe loaded.
    const probe = pathToFileURL(path.join(here, "memory-probe.mjs")).href;
    const server = await startServer({
      dataDir,
      env: {
        ...dbEnv,
        RATE_LIMITS: "on",
        LOG_LEVEL: "warn",
        BENCH_MEMORY_FILE: memoryFile,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${probe}`.trim(),
      },
    });
    const mix = new Mix(accounts);
    const base = emptyTally();
    const soak = emptyTally();
    let samples: MemorySample[];
    try {
      console.log(
        `soak on ${onPostgres ? "PostgreSQL" : "PGlite"}: ${CONNECTIONS} connections, ${WARMUP} s warm-up then ${SECONDS} s; ` +
          `${REPORTS} seeded reports, ${TEACHERS} teachers and ${STUDENTS} students, rate limits on; ` +
          `${os.availableParallelism()} cores, Node ${process.version}, load average ${load0.toFixed(1)}, ${new Date().toISOString()}`,
      );
      await drive(bare.url, mix, BASELINE / 2, base, true);
      await drive(server.url, mix, WARMUP, emptyTally(), false);
      const sampling = sampleDuring(server.process, memoryFile, SECONDS);
      await drive(server.url, mix, SECONDS, soak, false);
      samples = await sampling;
      await drive(bare.url, mix, BASELINE / 2, base, true);
      const health = await fetch(`${server.url}/api/health`);
      if (health.status !== 200) throw new Error(`health after the soak: ${health.status}`);
    } finally {
      await server.stop({ keepData: true });
    }
    report(soak, base, samples, ceiling.rps);
  } finally {
    await bare.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(memoryFile, { force: true });
  }
}

function report(soak: Tally, base: Tally, samples: MemorySample[], ceilingRps: number) {
  const s = summary(soak);
  const b = summary(base);
  const ms = (n: number) => n.toFixed(1);
  console.log("\n| kind | requests | share | p50 ms | p99 ms |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const kind of kinds) {
    const sorted = [...soak.latencies[kind]].sort((x, y) => x - y);
    const share = ((100 * sorted.length) / s.requests).toFixed(1);
    console.log(
      `| ${kind} | ${sorted.length} | ${share} % | ${ms(percentile(sorted, 0.5))} | ${ms(percentile(sorted, 0.99))} |`,
    );
  }
  console.log(
    `| all | ${s.requests} | 100 % | ${ms(percentile(s.all, 0.5))} | ${ms(percentile(s.all, 0.99))} |`,
  );
  console.log(
    `\nthroughput ${s.rps.toFixed(0)} req/s; bare Fastify route, same ${CONNECTIONS} connections and requests: ` +
      `${b.rps.toFixed(0)} req/s (p50 ${ms(percentile(b.all, 0.5))} ms, p99 ${ms(percentile(b.all, 0.99))} ms); ` +
      `soak at ${((100 * s.rps) / b.rps).toFixed(0)} % of the bare route ` +
      `(both driven by this process's paced fetch loops, which cap the bare route at ${((100 * b.rps) / ceilingRps).toFixed(0)} % of autocannon's ${ceilingRps.toFixed(0)} req/s: a check of the mix's errors and memory, not of throughput)`,
  );
  console.log(
    `(${soak.fallbacks} planned sign-ins or predictions became searches because no account was due yet)`,
  );
  const errorList = [...soak.errors.entries()].map(([k, n]) => `${k}: ${n}`).join(", ");
  console.log(`errors: ${s.errors}${s.errors ? ` (${errorList})` : ""} (target 0)`);
  if (b.errors) console.log(`baseline errors: ${[...base.errors.entries()].join(", ")}`);

  const first = samples[0] as MemorySample;
  const last = samples.at(-1) as MemorySample;
  const growth = (100 * (last.rss - first.rss)) / first.rss;
  const heapGrowth = (100 * (last.heapAfterGc - first.heapAfterGc)) / first.heapAfterGc;
  console.log(
    `memory: RSS ${mib(first.rss).toFixed(1)} -> ${mib(last.rss).toFixed(1)} MiB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %; target under 10 %: ${growth < 10 ? "met" : "NOT met"}); ` +
      `heap after full GC ${mib(first.heapAfterGc).toFixed(1)} -> ${mib(last.heapAfterGc).toFixed(1)} MiB (${heapGrowth >= 0 ? "+" : ""}${heapGrowth.toFixed(1)} %)`,
  );
  console.log(
    `memory over time (s: RSS / heap MiB): ${samples.map((m) => `${m.t.toFixed(0)}: ${mib(m.rss).toFixed(0)} / ${mib(m.heapAfterGc).toFixed(1)}`).join(", ")}`,
  );
  console.log(`load average ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`);
  // Errors are a failure of the server, not a timing: they fail the bench.
  if (s.errors > 0) process.exitCode = 1;
}

runBench(main);
