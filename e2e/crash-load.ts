import { rm } from "node:fs/promises";
import { expect } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";
import { type Answer, call, databaseFor } from "./proof-helpers.ts";

// The crash tests' load (issue 9): numbered writes from several concurrent clients, the server
// SIGKILLed in the middle, then a restart on the same data. What is written and how it is read
// back differ between the tests; the kill and the checks around it do not.

export interface CrashLoad {
  total: number;
  clients: number;
  /** The SIGKILL comes once this many writes were acknowledged. */
  killAfter: number;
  /** Write number `i`. */
  send(i: number): Promise<Answer>;
  /** The id of what an acknowledged write stored; undefined for any other answer. */
  acknowledgedId(answer: Answer): string | undefined;
}

/**
 * Runs the load and checks the kill landed in the middle: nothing failed before it, the process
 * died of the SIGKILL, some writes were acknowledged and some never happened. Returns the
 * number of each acknowledged write by the id the server gave.
 */
export async function writeUntilKilled(
  server: RunningServer,
  load: CrashLoad,
): Promise<Map<string, number>> {
  const acknowledged = new Map<string, number>();
  const failures: string[] = [];
  let next = 0;
  let killed = false;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= load.total) return;
      try {
        const res = await load.send(i);
        const id = load.acknowledgedId(res);
        if (id) acknowledged.set(id, i);
        else if (!killed) failures.push(`${i}: ${res.status} ${JSON.stringify(res.body)}`);
      } catch (error) {
        // After the kill, refused connections are expected; before it, nothing fails.
        if (!killed) failures.push(`${i}: ${(error as Error).message}`);
      }
      if (!killed && acknowledged.size >= load.killAfter) {
        killed = true;
        server.process.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: load.clients }, worker));
  expect(failures, server.logs().slice(-3000)).toEqual([]);
  expect(killed).toBe(true);
  await new Promise<void>((resolve) => {
    if (server.process.exitCode !== null || server.process.signalCode !== null) resolve();
    else server.process.once("exit", () => resolve());
  });
  expect(server.process.signalCode).toBe("SIGKILL");
  expect(acknowledged.size).toBeGreaterThanOrEqual(load.killAfter);
  expect(acknowledged.size).toBeLessThan(load.total);
  return acknowledged;
}

/**
 * The server of a crash test on a fresh DATA_DIR, rate limits off, on `dialect`'s database.
 * `restart()` starts it again on the same data and checks it comes up healthy, with nothing to
 * repair by hand (no error in its log); `cleanups` stops the last one started and removes the
 * data.
 */
export async function startCrashServer(
  dialect: string,
  env: Record<string, string>,
  cleanups: Array<() => Promise<unknown>>,
) {
  const serverEnv: Record<string, string> = {
    RATE_LIMITS: "off",
    LOG_LEVEL: "warn",
    ...env,
    ...(await databaseFor(dialect, "gradecast_crash", cleanups)),
  };
  let last = await startServer({ env: serverEnv });
  const { dataDir } = last;
  cleanups.push(async () => {
    await last.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    server: last,
    env: serverEnv,
    dataDir,
    async restart() {
      last = await startServer({ env: serverEnv, dataDir });
      const health = await call(last.url, "GET", "/api/health");
      expect(health.status).toBe(200);
      expect(last.logs()).not.toMatch(/"level":(50|60)|Error|failed/i);
      return { server: last, health };
    },
  };
}
