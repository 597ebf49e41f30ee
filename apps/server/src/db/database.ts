import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from "kysely";
import * as initial from "./migrations/0001-initial.ts";
import * as analyticsRollups from "./migrations/0002-analytics-rollups.ts";
import * as reportNameStatistics from "./migrations/0003-report-name-statistics.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { loadTemplate, seedDataDir } from "./pglite-template.ts";
import type { DB } from "./schema.ts";

// One interface over the two engines Gradecast runs on: embedded PGlite (files under
// DATA_DIR) by default, a PostgreSQL server when DATABASE_URL is set.
export interface Database {
  db: Kysely<DB>;
  kind: "pglite" | "postgres";
  /** Where the data lives, for the start-up banner (no password). */
  location: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * PGlite only: how many statements so far may have written to the users table. Only this
   * process can write to an embedded database, so while it stays the same a user read earlier
   * is still what the table holds. Undefined on PostgreSQL, which other processes share.
   */
  userWrites?: () => number;
}

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; otherwise PGlite. */
  url?: string | undefined;
  /** PGlite's data directory; omitted means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
}

const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-analytics-rollups": analyticsRollups,
  "0003-report-name-statistics": reportNameStatistics,
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // Loaded only for PostgreSQL: one less package to load at every PGlite start.
    const { default: pg } = await import("pg");
    // Numbers come back as numbers: counts (bigint) and double precision are parsed by pg as text.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
    pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 3_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
      // A database that stops answering without closing the connection (a network black hole)
      // fails the query on our side too, and the call answers 503 instead of hanging.
      query_timeout: 20_000,
    });
    // A dropped connection must not crash the process; the next query reports the fault. The
    // pool only listens to idle clients: a client checked out when its socket dies emits an
    // 'error' event of its own, which would be unhandled (and kill the process) without this.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const target = new URL(options.url);
    return wrap(db, "postgres", `${target.host}${target.pathname}`);
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = path.join(options.dataDir, "pglite");
    // A new DATA_DIR starts as a file copy of the migrated template (see pglite-template.ts).
    const isNew = !existsSync(path.join(dir, "PG_VERSION")) && !(await seedDataDir(dir));
    await mkdir(dir, { recursive: true });
    const template = isNew ? await loadTemplate() : undefined;
    client = await PGlite.create(dir, {
      extensions: { pg_trgm },
      ...(template ? { loadDataDir: template } : {}),
    });
  } else {
    const template = await loadTemplate();
    client = await PGlite.create({
      extensions: { pg_trgm },
      ...(template ? { loadDataDir: template } : {}),
    });
  }
  const dialect = new PGliteDialect(client);
  const db = new Kysely<DB>({ dialect });
  const location = options.dataDir ? path.join(options.dataDir, "pglite") : "memory";
  return { ...wrap(db, "pglite", location), userWrites: () => dialect.writes.users };
}

function wrap(db: Kysely<DB>, kind: Database["kind"], location: string): Database {
  let closed = false;
  return {
    db,
    kind,
    location,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/** Applies every pending migration; safe to run at each start and from several instances. */
export async function migrate(db: Kysely<DB>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
