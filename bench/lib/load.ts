import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePort, localServerEnv, repoRoot } from "../../e2e/harness.ts";
import { cpuMsOf } from "./cpu-time.ts";

// Load runs (autocannon in its own process, load.mjs) and the servers they drive: the bare Node
// http route (bare-http.mjs) and Gradecast started as a user starts it (`npm start`).

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** 2xx answers */
  ok: number;
  /** answers other than 2xx, and connection errors and timeouts */
  failed: number;
  /** CPU milliseconds of the measured server per request, and of the generator */
  serverCpuPerRequest: number;
  generatorCpuPerRequest: number;
}

export function runLoad(
  url: string,
  requests: LoadRequest[],
  options: { connections: number; seconds: number; serverPid?: number | undefined },
): Promise<LoadResult> {
  const script = path.join(repoRoot, "bench/lib/load.mjs");
  const before = cpuMsOf(options.serverPid);
  const input = JSON.stringify({ url, requests, ...options });
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [script], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return reject(error);
      const r = JSON.parse(stdout.trim().split("\n").pop()!) as {
        requests: number;
        seconds: number;
        p50: number;
        p99: number;
        non2xx: number;
        errors: number;
        generatorCpuMs: number;
      };
      const serverCpu = cpuMsOf(options.serverPid) - before;
      resolve({
        rps: (r.requests - r.non2xx) / r.seconds,
        p50: r.p50,
        p99: r.p99,
        requests: r.requests,
        ok: r.requests - r.non2xx,
        failed: r.non2xx + r.errors,
        serverCpuPerRequest: serverCpu / Math.max(1, r.requests),
        generatorCpuPerRequest: r.generatorCpuMs / Math.max(1, r.requests),
      });
    });
    child.stdin?.end(input);
  });
}

export interface Started {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

async function waitFor(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not answer ${url}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      resolve();
    }
  });
}

export async function startBareHttp(): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(repoRoot, "bench/lib/bare-http.mjs")], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url, child, "the bare http server");
  return { url, pid: child.pid, stop: () => stopGroup(child) };
}

/** The process of the group whose command line holds `needle` (npm starts the server's). */
function pidInGroup(group: number, needle: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(stat[2]) !== group) continue;
      // The node process itself, not the shell npm runs it through.
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "node") continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/**
 * `npm start` with the default configuration (LOG_LEVEL info, embedded PGlite in a fresh
 * DATA_DIR under bench/results), except what `env` sets. Its output is thrown away as a
 * terminal would scroll it (the log lines are still written); BENCH_SERVER_STDERR=1 shows its
 * stderr.
 */
export async function startGradecast(
  env: Record<string, string>,
  dataDir: string,
): Promise<Started & { startMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: repoRoot,
    env: { ...process.env, ...localServerEnv(port, dataDir), LOG_LEVEL: "", ...env },
    stdio: process.env.BENCH_SERVER_STDERR ? ["ignore", "ignore", "inherit"] : "ignore",
    detached: true,
  });
  await waitFor(`${url}/api/health`, child, "npm start");
  const startMs = performance.now() - started;
  return {
    url,
    startMs,
    pid: pidInGroup(child.pid as number, "scripts/start.mjs"),
    stop: () => stopGroup(child),
  };
}

/** The server process's resident memory in MiB (VmRSS), NaN off Linux. */
export function rssMiB(pid: number | undefined): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The 1-minute load average, printed beside every figure. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

/** A target line: the figure beside its baseline and their ratio, and whether it holds. */
export function targetLine(name: string, holds: boolean, detail: string): string {
  return `${holds ? "HOLDS " : "MISSED"}  ${name}: ${detail}`;
}

/** Below this many requests a second from the bare route, the generator is the bound. */
export const generatorFloor = 10_000;

/**
 * The generator's own ceiling, printed before any figure: what autocannon gets from the bare
 * Node http route with the same requests and connections. Under `generatorFloor` the run says
 * that it measures the machine's load, not the route.
 */
export async function checkGeneratorCeiling(
  bare: Started,
  requests: LoadRequest[],
  connections: number,
  what: string,
): Promise<LoadResult> {
  const ceiling = await runLoad(bare.url, requests, {
    connections,
    seconds: 5,
    serverPid: bare.pid,
  });
  console.log(
    `generator ceiling: the bare Node http route ${what} answers ${ceiling.rps.toFixed(0)} req/s (p99 ${ceiling.p99} ms, load average ${loadAverage()})`,
  );
  if (ceiling.rps < generatorFloor) {
    console.log(
      `THE GENERATOR IS SATURATED: the bare route stayed under ${generatorFloor} req/s, so every figure below is bounded by this machine's load, not by the route.`,
    );
  }
  return ceiling;
}

/** A GET of the bare route, the load against it when the route under test takes no body. */
export const bareGet: LoadRequest[] = [{ method: "GET", path: "/" }];

/**
 * Runs `body` beside the bare Node http route, started for it and stopped after it, once the
 * generator's ceiling on that route with `requests` and `connections` is printed.
 */
export async function withBareRoute<T>(
  requests: LoadRequest[],
  connections: number,
  what: string,
  body: (bare: Started, ceiling: LoadResult) => Promise<T>,
): Promise<T> {
  const bare = await startBareHttp();
  try {
    return await body(bare, await checkGeneratorCeiling(bare, requests, connections, what));
  } finally {
    await bare.stop();
  }
}

/** The generator's ceiling (printed as above) on a bare route started for that check alone. */
export function generatorCeiling(
  requests: LoadRequest[],
  connections: number,
  what: string,
): Promise<LoadResult> {
  return withBareRoute(requests, connections, what, async (_bare, ceiling) => ceiling);
}

/** The run's first line: what it measures, when, and the load average then. */
export function printRunStart(what: string): void {
  console.log(`${what}, ${new Date().toISOString()}, load average ${loadAverage()}`);
}

/** Runs the bench's `main`, printing its error and exiting with 1 if it fails. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/** The run's last line: the load average at the end. */
export function printRunEnd(): void {
  console.log(`load average at the end: ${loadAverage()}`);
}
