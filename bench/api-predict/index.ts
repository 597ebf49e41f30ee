/**
 * POST /api/predict at 32 concurrent clients through the real server process on loopback (PGlite,
 * RATE_LIMITS=off, a signed-in student): requests per second and p50/p99 latency, for the stored
 * prediction (the Predict button) and for the what-if call that does not store
 * (`?store=false`), beside a bare Fastify route in its own process that parses the same JSON body
 * and answers a small JSON object, driven by the same load loop in the same run. The machines
 * are shared and noisy, so each figure is taken in rounds that alternate the bare route and the
 * route under test; the ratio compares figures taken side by side. GET /api/me is measured too:
 * it is the cost every signed-in call pays before its handler (the ID token checked, the user
 * read from the database), the floor under POST /api/predict.
 * Targets: at least 50 % of the bare route's requests per second, p99 under 10 ms.
 *
 * Run: npx tsx bench/api-predict/index.ts [--seconds 8] [--rounds 4] [--clients 32] [--postgres]
 *   [--only stored|what-if|me] [--log-level warn] [--profile FILE.cpuprofile]
 * --only: one call alone; --log-level: the server's LOG_LEVEL (default warn; `info` writes a
 * line per request, as a default install does); --profile: a CPU profile of the server process
 * (bench/lib/cpu-profile.mjs), written when the server stops.
 * --postgres: the server on PostgreSQL instead of PGlite (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; the bench creates a database
 * of its own there and drops it at the end).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { freePort, type RunningServer, repoRoot, startServer } from "../../e2e/harness.ts";
import { cpuMsOf } from "../lib/cpu-time.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const SECONDS = arg("seconds", 8);
const ROUNDS = arg("rounds", 4);
const CLIENTS = arg("clients", 32);
const WARMUP_SECONDS = 1;
const onPostgres = process.argv.includes("--postgres");
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = option("only");
const logLevel = option("log-level") ?? "warn";
const profileFile = option("profile");
const pgAdminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

// The whole questionnaire as the original form sent it: every value a string.
const form = {
  school: "GP",
  sex: "F",
  age: "17",
  address: "U",
  famsize: "GT3",
  Pstatus: "T",
  Medu: "3",
  Fedu: "2",
  Mjob: "services",
  Fjob: "other",
  reason: "course",
  guardian: "mother",
  traveltime: "1",
  studytime: "2",
  failures: "0",
  schoolsup: "no",
  famsup: "yes",
  paid: "no",
  activities: "yes",
  nursery: "yes",
  higher: "yes",
  internet: "yes",
  romantic: "no",
  famrel: "4",
  freetime: "3",
  goout: "3",
  health: "4",
  absences: "4",
  G1: "12",
  G2: "13",
};
const body = JSON.stringify(form);

type Headers = Record<string, string>;

interface Samples {
  latencies: number[];
  errors: number;
  seconds: number;
  /** CPU time the server process used meanwhile (user + system), when /proc tells it. */
  cpuMs: number;
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  /** Server CPU milliseconds per answered request: what the noise of a shared machine moves least. */
  cpuPerRequest: number;
}

/** CLIENTS loops, each posting the form again when the previous answer is read. */
async function load(url: string, headers: Headers, seconds: number, into: Samples, pid?: number) {
  const post = !url.endsWith("/api/me");
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const res = await fetch(url, post ? { method: "POST", headers, body } : { headers });
        await res.arrayBuffer();
        if (res.status !== 200) into.errors++;
        else into.latencies.push(performance.now() - t);
      } catch {
        into.errors++;
      }
    }
  };
  const started = performance.now();
  const cpuBefore = cpuMsOf(pid);
  await Promise.all(Array.from({ length: CLIENTS }, client));
  into.seconds += (performance.now() - started) / 1000;
  into.cpuMs += cpuMsOf(pid) - cpuBefore;
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
    cpuPerRequest: s.cpuMs / (sorted.length + s.errors),
  };
}

const empty = (): Samples => ({ latencies: [], errors: 0, seconds: 0, cpuMs: 0 });
interface Pids {
  server: number | undefined;
  bare: number | undefined;
}

/** The route under test and the bare route, in alternating rounds after a warm-up of each. */
async function measurePair(
  url: string,
  headers: Headers,
  bareUrl: string,
  pids: Pids,
  onWarm = () => {},
) {
  const json = { "content-type": "application/json" };
  const first = await fetch(
    url,
    url.endsWith("/api/me") ? { headers } : { method: "POST", headers, body },
  );
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  await first.arrayBuffer();
  await load(url, headers, WARMUP_SECONDS, empty());
  await load(bareUrl, json, WARMUP_SECONDS, empty());
  onWarm();
  const target = empty();
  const bare = empty();
  for (let round = 0; round < ROUNDS; round++) {
    await load(bareUrl, json, SECONDS / ROUNDS, bare, pids.bare);
    await load(url, headers, SECONDS / ROUNDS, target, pids.server);
  }
  return { target: summary(target), bare: summary(bare) };
}

// The baseline: Fastify parsing the same JSON body and answering a small JSON object.
const bareSource = `
const app = require("fastify")({ logger: false, bodyLimit: 1024 * 1024 });
app.post("/api/predict", async (request) => ({ received: Object.keys(request.body).length }));
app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

async function startBare(): Promise<{
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["-e", bareSource], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), NODE_PATH: path.join(repoRoot, "node_modules") },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}/api/predict`;
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      if (res.ok) break;
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

async function studentHeaders(server: RunningServer): Promise<Headers> {
  const email = `bench.${randomBytes(4).toString("hex")}@bench.test`;
  const password = "bench-password-1234";
  const post = (url: string, payload: unknown) =>
    fetch(`${server.url}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
  const reg = await post("/api/auth/register", { name: "Bench Student", email, password });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await post("/api/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return { "content-type": "application/json", authorization: `Bearer ${token}` };
}

const ms = (n: number) => n.toFixed(2);

/** A database of its own on the PostgreSQL server, dropped by the returned function. */
async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gradecast_bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: pgAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function main() {
  const database = onPostgres ? await postgresDatabase() : undefined;
  const server = await startServer({
    env: {
      RATE_LIMITS: "off",
      LOG_LEVEL: logLevel,
      ...(profileFile
        ? {
            NODE_OPTIONS: `--import ${path.join(repoRoot, "bench/lib/cpu-profile.mjs")}`,
            BENCH_CPU_PROFILE: path.resolve(profileFile),
          }
        : {}),
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  });
  const bare = await startBare();
  try {
    const headers = await studentHeaders(server);
    console.log(
      `POST /api/predict, ${CLIENTS} concurrent clients, ${SECONDS} s per figure in ${ROUNDS} alternating rounds, ${onPostgres ? "PostgreSQL" : "PGlite"}, LOG_LEVEL=${logLevel}, ${new Date().toISOString()}`,
    );
    const rows: string[] = [];
    const calls = [
      ["stored", "stored prediction", "/api/predict"],
      ["what-if", "what-if (?store=false)", "/api/predict?store=false"],
      ["me", "GET /api/me (the sign-in check every call pays: token + user read)", "/api/me"],
    ] as const;
    for (const [key, name, route] of calls) {
      if (only && only !== key) continue;
      const { target, bare: base } = await measurePair(
        `${server.url}${route}`,
        headers,
        bare.url,
        { server: server.process.pid, bare: bare.pid },
        // The profile covers the measured rounds only (bench/lib/cpu-profile.mjs).
        () => profileFile && server.process.kill("SIGUSR2"),
      );
      rows.push(
        `| bare Fastify route (baseline, same rounds) | ${base.rps.toFixed(0)} | ${ms(base.p50)} | ${ms(base.p99)} | ${ms(base.cpuPerRequest)} | 100 % |`,
        `| ${name} | ${target.rps.toFixed(0)} | ${ms(target.p50)} | ${ms(target.p99)} | ${ms(target.cpuPerRequest)} | ${((target.rps / base.rps) * 100).toFixed(0)} % |`,
      );
      if (target.errors + base.errors > 0) {
        console.log(`${name}: ${target.errors} errors; baseline ${base.errors} errors`);
      }
    }
    console.log("\n| call | req/s | p50 ms | p99 ms | server CPU ms/req | req/s vs bare route |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const r of rows) console.log(r);
    console.log(
      "\nTargets: at least 50 % of the bare route's requests per second, p99 under 10 ms.",
    );
  } finally {
    await bare.stop();
    await server.stop();
    await database?.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
