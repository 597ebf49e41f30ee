/**
 * Group commit in process (docs/decisions/0007-group-commit.md): 4,000 stored-prediction rows
 * written by 32 concurrent writers through db/group-commit.ts, on PGlite opened as the server
 * opens it (a data directory under bench/results) and on PostgreSQL, with batches of at most 1
 * row (a statement per prediction: before) and of at most 64 (the server's setting: after), in
 * alternating rounds. Each batch is one multi-row insert of the server's columns.
 * Prints rows a second and this process's CPU per row (PGlite runs in it; PostgreSQL's own CPU
 * is not counted).
 * Run: npx tsx bench/group-commit/index.ts [--rows 4000] [--skip-postgres]
 */
import { randomUUID } from "node:crypto";
import { type Database, migrate } from "../../apps/server/src/db/database.ts";
import { groupCommit } from "../../apps/server/src/db/group-commit.ts";
import { numberArg } from "../lib/args.ts";
import { printRunStart } from "../lib/load.ts";
import { onBothDatabases } from "../lib/timed.ts";

const ROWS = numberArg("rows", 4000);
const WRITERS = 32;

async function measure(db: Database["db"], userId: string, maxBatch: number) {
  const write = groupCommit(
    async (items: number[]) => {
      // The multi-row insert the server sends (db/predictions.ts), built by Kysely here.
      const r = await db
        .insertInto("predictions")
        .values(
          items.map((i) => ({
            id: randomUUID(),
            user_id: userId,
            inputs: JSON.stringify({ G1: i % 21, absences: i % 50, school: "GP" }),
            score: 12.5,
            raw_score: 12.5,
            interval_low: 10,
            interval_high: 15,
            extrapolation: false,
            model_version: "bench",
          })),
        )
        .returning(["id", "created_at"])
        .execute();
      return r;
    },
    { maxBatch },
  );
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < ROWS) await write(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rps: ROWS / seconds, cpuMs: (used.user + used.system) / 1000 / ROWS };
}

async function run(name: string, database: Database) {
  await migrate(database.db);
  const userId = randomUUID();
  await database.db
    .insertInto("users")
    .values({
      id: userId,
      email: `${userId}@bench.test`,
      name: "Bench",
      password_hash: "x",
      role: "student",
    } as never)
    .execute();
  const results: Record<number, { rps: number; cpuMs: number }[]> = { 1: [], 64: [] };
  await measure(database.db, userId, 64); // warm-up
  for (let round = 0; round < 3; round++) {
    for (const batch of [1, 64]) results[batch]!.push(await measure(database.db, userId, batch));
  }
  for (const batch of [1, 64]) {
    const rs = results[batch]!;
    console.log(
      `| ${name} | ${batch === 1 ? "a statement per row (before)" : "group commit, up to 64 (after)"} | ${rs.map((r) => r.rps.toFixed(0)).join(", ")} | ${rs.map((r) => r.cpuMs.toFixed(3)).join(", ")} |`,
    );
  }
}

printRunStart(`${ROWS} rows, ${WRITERS} writers, 3 alternating rounds`);
console.log("| database | writes | rows/s (rounds) | CPU ms/row in this process (rounds) |");
console.log("| --- | --- | --- | --- |");
await onBothDatabases("group-commit", run);
