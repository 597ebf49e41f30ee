import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { type Database, openDatabase } from "../../apps/server/src/db/database.ts";
import { repoRoot } from "../../e2e/harness.ts";
import { printRunEnd } from "./load.ts";
import { createBenchDatabase } from "./postgres.ts";

/** The milliseconds a piece of work takes, and its value. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * Runs a bench on PGlite (a fresh data directory, as the server opens it), then on a fresh
 * PostgreSQL database unless --skip-postgres is given, and removes both afterwards.
 */
export async function onBothDatabases(
  name: string,
  run: (database: string, handle: Database, dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = path.join(repoRoot, "bench/results", `${name}-${randomBytes(4).toString("hex")}`);
  await mkdir(dataDir, { recursive: true });
  const pglite = await openDatabase({ dataDir });
  try {
    await run("PGlite", pglite, dataDir);
  } finally {
    await pglite.close();
  }
  if (!process.argv.includes("--skip-postgres")) {
    const { url, drop } = await createBenchDatabase();
    const database = await openDatabase({ url });
    try {
      await run("PostgreSQL", database, dataDir);
    } finally {
      await database.close();
      await drop();
    }
  }
  await rm(dataDir, { recursive: true, force: true });
  printRunEnd();
}
