import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { migrate, openDatabase } from "../../apps/server/src/db/database.ts";
import { vacuumWhereNeeded } from "../../apps/server/src/db/pglite-vacuum.ts";
import { repoRoot } from "../../e2e/harness.ts";
import { type Started, startGradecast } from "./load.ts";

// A bench whose rows are written straight into the database before Gradecast starts on it: a
// data directory of its own, the database seeded and left as a running server keeps it, then
// the server started as a user starts it (rate limits off).

export type BenchDb = Awaited<ReturnType<typeof openDatabase>>["db"];

/** A new directory under bench/results named after the bench, removed after `run`. */
export async function withDataDir<T>(bench: string, run: (dataDir: string) => Promise<T>) {
  const dataDir = path.join(
    repoRoot,
    "bench/results",
    `${bench}-${randomBytes(4).toString("hex")}`,
  );
  await mkdir(dataDir, { recursive: true });
  try {
    return await run(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Opens the database (PostgreSQL at `databaseUrl`, else PGlite in `dataDir`), migrates it,
 * writes with `write`, then cleans up as the running server would: on PGlite its own vacuum
 * pass (db/pglite-vacuum.ts), on PostgreSQL a VACUUM ANALYZE (what autovacuum does there).
 * Answers what `write` answered and the seconds it all took.
 */
export async function seedDatabase<T>(
  dataDir: string,
  databaseUrl: string | undefined,
  write: (db: BenchDb) => Promise<T>,
): Promise<{ written: T; loadSeconds: number }> {
  const t0 = performance.now();
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir });
  let written: T;
  try {
    await migrate(database.db);
    written = await write(database.db);
    if (database.kind === "pglite") await vacuumWhereNeeded(database.db);
    else {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query("vacuum analyze");
      await client.end();
    }
  } finally {
    await database.close();
  }
  return { written, loadSeconds: (performance.now() - t0) / 1000 };
}

/** Gradecast on `dataDir` (and PostgreSQL at `databaseUrl` when given), stopped after `run`. */
export async function withGradecast<T>(
  dataDir: string,
  databaseUrl: string | undefined,
  run: (server: Started) => Promise<T>,
): Promise<T> {
  const server = await startGradecast(
    { RATE_LIMITS: "off", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    dataDir,
  );
  try {
    return await run(server);
  } finally {
    await server.stop();
  }
}
