import { createPostgresDatabase } from "../../e2e/proof-helpers.ts";
import { flag } from "./args.ts";

// The PostgreSQL server the benches run on, and the databases of their own they make there
// (each bench drops its database at the end, whatever happened).

/** BENCH_DATABASE_URL, else the tests' TEST_DATABASE_URL, else the machine's local server. */
export const pgAdminUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";

/** A new empty database on that server; drop() removes it, connections and all. */
export const createBenchDatabase = (prefix = "gradecast_bench") =>
  createPostgresDatabase(prefix, pgAdminUrl);

/** `run` on a new empty database of its own, dropped afterwards whatever happened. */
export async function withBenchDatabase<T>(
  run: (database: { name: string; url: string }) => Promise<T>,
  prefix?: string,
): Promise<T> {
  const database = await createBenchDatabase(prefix);
  try {
    return await run(database);
  } finally {
    await database.drop();
  }
}

/**
 * `bench` on PGlite, then on a PostgreSQL database of its own unless --skip-postgres is given:
 * its figures by engine, in that order.
 */
export async function onPgliteThenPostgres<T>(
  bench: (label: string, databaseUrl?: string) => Promise<T>,
): Promise<[string, T][]> {
  const results: [string, T][] = [["PGlite", await bench("PGlite")]];
  if (!flag("skip-postgres")) {
    const r = await withBenchDatabase((database) => bench("PostgreSQL", database.url));
    results.push(["PostgreSQL", r]);
  }
  return results;
}
