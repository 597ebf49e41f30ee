import { type Kysely, sql } from "kysely";
import type { DB } from "./schema.ts";

// PGlite runs no autovacuum: every update leaves a dead row behind for good. The analytics
// running totals (migration 0002) update the same few hundred rows for each report written, so
// after 100,000 reports their table held 49,616 dead rows beside 1,375 live ones over 625 pages,
// and every staff report read all of them. This does what PostgreSQL's autovacuum would, with
// its default rule (vacuum once dead rows pass 50 + 20 % of the live ones, analyze once changes
// pass 50 + 10 %), on the process's one connection. A vacuum there holds every other query
// until it ends, so tables over `maxBytes` are only analyzed (a sample, quick at any size), not
// vacuumed (their rows, reports above all, are rarely updated; docs/operations.md says how to
// vacuum them with the server stopped).
// PostgreSQL deployments have autovacuum and never run this.

export interface VacuumOptions {
  /** Tables larger than this are analyzed but never vacuumed here (that would stall every call). */
  maxBytes?: number;
}

/** Vacuums and analyzes the tables that need it now; returns what it did, table by table. */
export async function vacuumWhereNeeded(
  db: Kysely<DB>,
  { maxBytes = 32 * 1024 * 1024 }: VacuumOptions = {},
): Promise<{ table: string; action: "vacuum" | "analyze" }[]> {
  const { rows } = await sql<{ table: string; vacuum: boolean; analyze: boolean }>`
    select relname as table,
      n_dead_tup > 50 + 0.2 * n_live_tup and pg_relation_size(relid) <= ${maxBytes} as vacuum,
      n_mod_since_analyze > 50 + 0.1 * n_live_tup as analyze
    from pg_stat_user_tables
    order by relname`.execute(db);
  const done: { table: string; action: "vacuum" | "analyze" }[] = [];
  for (const row of rows.filter((r) => r.vacuum || r.analyze)) {
    const action = row.vacuum ? "vacuum" : "analyze";
    await (row.vacuum
      ? sql`vacuum (analyze) ${sql.table(row.table)}`
      : sql`analyze ${sql.table(row.table)}`
    ).execute(db);
    done.push({ table: row.table, action });
  }
  return done;
}

/** Runs vacuumWhereNeeded every `everyMs` until stopped; a failure is reported, not thrown. */
export function startVacuuming(
  db: Kysely<DB>,
  onError: (error: unknown) => void,
  everyMs = 60_000,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    vacuumWhereNeeded(db)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
