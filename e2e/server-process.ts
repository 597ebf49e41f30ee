import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The real server as a child process, on a free port and a fresh DATA_DIR: for the browser tests
// (harness.ts) and the API tests that need the process itself (file modes, start-up lines).
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  outboxDir: string;
  process: ChildProcess;
  logs: () => string;
  stop(options?: { keepData?: boolean; signal?: NodeJS.Signals }): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A server's environment on 127.0.0.1:`port` with its data in `dataDir`, whatever the shell
 * holds: the embedded database, mail to the outbox, rate-limit counters in memory.
 */
export function localServerEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: "",
    REDIS_URL: "",
    SMTP_URL: "",
  };
}

/**
 * Starts `apps/server/src/main.ts` as `npm start` would, and waits for /api/health. `setUp` runs
 * on the DATA_DIR before the server opens it (accounts made by the command line, say).
 */
export async function startServer(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    setUp?: (dataDir: string) => Promise<void>;
    /** Start under this umask (e.g. "022", an operator's usual one) instead of the test's own. */
    umask?: string;
  } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "gradecast-e2e-")));
  try {
    await options.setUp?.(dataDir);
  } catch (err) {
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const main = ["--import", "tsx", "apps/server/src/main.ts"];
  const command = options.umask
    ? ["sh", ["-c", `umask ${options.umask}; exec "$0" "$@"`, process.execPath, ...main]]
    : [process.execPath, main];
  const child = spawn(command[0] as string, command[1] as string[], {
    cwd: repoRoot,
    env: { ...process.env, ...localServerEnv(port, dataDir), LOG_LEVEL: "warn", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    outboxDir: path.join(dataDir, "outbox"),
    process: child,
    logs: () => output,
    async stop({ keepData = false, signal = "SIGTERM" } = {}) {
      if (child.exitCode === null) {
        child.kill(signal);
        await exited;
      }
      if (!keepData && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
