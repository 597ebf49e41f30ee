import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import {
  Kysely,
  type Migration,
  Migrator,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  sql,
} from "kysely";
import type { Pool, PoolClient } from "pg";
import * as initial from "./migrations/0001-initial.ts";
import * as analyticsRollups from "./migrations/0002-analytics-rollups.ts";
import * as reportNameStatistics from "./migrations/0003-report-name-statistics.ts";
import * as userChangeNotices from "./migrations/0004-user-change-notices.ts";
import * as reportNameLowercase from "./migrations/0005-report-name-lowercase.ts";
import * as sessionChangeNotices from "./migrations/0006-session-change-notices.ts";
import * as sessionDetails from "./migrations/0007-session-details.ts";
import * as mfaAndReauth from "./migrations/0008-mfa-and-reauth.ts";
import * as classes from "./migrations/0009-classes.ts";
import * as teacherInvitations from "./migrations/0010-teacher-invitations.ts";
import * as reportVisibility from "./migrations/0011-report-visibility.ts";
import * as predictionSetups from "./migrations/0012-prediction-setups.ts";
import * as classRisk from "./migrations/0013-class-risk.ts";
import * as reportListWalks from "./migrations/0015-report-list-walks.ts";
import * as auditNoteText from "./migrations/0016-audit-note-text.ts";
import * as schoolFromConfiguration from "./migrations/0023-school-from-configuration.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { loadTemplate, seedDataDir } from "./pglite-template.ts";
import { preparedName } from "./prepared.ts";
import type { DB } from "./schema.ts";
import { hasSqlState, sqlStates } from "./sql-errors.ts";
import { listenForUserChanges } from "./user-notices.ts";

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
   * A count that moves whenever the users table, or a session's end, may have changed: while it
   * stays the same, a user read earlier is still what the tables hold. PGlite: the changes this
   * process reports with usersChanged (only this process can write to an embedded database).
   * PostgreSQL: those too, plus every change notice of migrations 0004 and 0006 from any
   * process; while the listening connection is down it moves on every call, so nothing is
   * trusted.
   */
  userWrites: () => number;
  /**
   * Said by the service that changed a user or ended a session, once the change is committed:
   * users read before it are no longer trusted (auth/authenticate.ts).
   */
  usersChanged: () => void;
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
  "0004-user-change-notices": userChangeNotices,
  "0005-report-name-lowercase": reportNameLowercase,
  "0006-session-change-notices": sessionChangeNotices,
  "0007-session-details": sessionDetails,
  "0008-mfa-and-reauth": mfaAndReauth,
  "0009-classes": classes,
  "0010-teacher-invitations": teacherInvitations,
  "0011-report-visibility": reportVisibility,
  "0012-prediction-setups": predictionSetups,
  "0013-class-risk": classRisk,
  "0015-report-list-walks": reportListWalks,
  "0016-audit-note-text": auditNoteText,
  "0023-school-from-configuration": schoolFromConfiguration,
};

/**
 * The database a configuration names (PostgreSQL at its URL, else PGlite in its DATA_DIR),
 * migrated: what the server and each command open. Closed again if the migrations fail.
 */
export async function openMigrated(
  config: { databaseUrl?: string | undefined; dataDir: string },
  poolSize: number,
): Promise<Database> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize,
  });
  try {
    await migrate(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

// PGlite's PostgreSQL with 16 MB of shared buffers instead of 128: the buffers live in the
// WebAssembly memory, all of it resident once started (a later start: 389 MB of resident memory
// at rest, 244 MB with 16 MB), while pages read again come from the operating system's file
// cache behind them at no measurable cost in CPU (100,000 reports: the analytics queries, a
// search and a full scan took the same CPU time with 16, 32 and 128 MB; bench/README.md).
const startParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

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
    const writes = { users: 0 };
    const db = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: preparing(pool) }),
    });
    const notices = listenForUserChanges(
      (config) => new pg.Client(config),
      options.url,
      () => {
        writes.users++;
      },
    );
    const target = new URL(options.url);
    return {
      ...wrap(db, "postgres", `${target.host}${target.pathname}`, () => notices.close()),
      userWrites: () => (notices.listening ? writes.users : ++writes.users),
      usersChanged: () => {
        writes.users++;
      },
    };
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
      startParams,
      ...(template ? { loadDataDir: template } : {}),
    });
  } else {
    const template = await loadTemplate();
    client = await PGlite.create({
      extensions: { pg_trgm },
      startParams,
      ...(template ? { loadDataDir: template } : {}),
    });
  }
  const dialect = new PGliteDialect(client);
  const db = new Kysely<DB>({ dialect });
  const location = options.dataDir ? path.join(options.dataDir, "pglite") : "memory";
  const writes = { users: 0 };
  return {
    ...wrap(db, "pglite", location),
    userWrites: () => writes.users,
    usersChanged: () => {
      writes.users++;
    },
  };
}

/**
 * The pool as Kysely sees it: registered texts (prepared.ts) go out as named statements.
 */
function preparing(pool: Pool): PostgresPool {
  // One adapter per pg client, so Kysely keeps one connection object per client.
  const adapters = new WeakMap<PoolClient, PostgresPoolClient>();
  const adapt = (client: PoolClient): PostgresPoolClient => ({
    query: ((text: unknown, values?: unknown[]) => {
      if (typeof text !== "string") return client.query(text as never);
      const name = preparedName(text);
      return name ? client.query({ name, text, values }) : client.query(text, values);
    }) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let adapter = adapters.get(client);
      if (!adapter) {
        adapter = adapt(client);
        adapters.set(client, adapter);
      }
      return adapter;
    },
    end: () => pool.end(),
  };
}

function wrap(
  db: Kysely<DB>,
  kind: Database["kind"],
  location: string,
  beforeClose?: () => Promise<void>,
): Omit<Database, "userWrites" | "usersChanged"> {
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
      await beforeClose?.();
      await db.destroy();
    },
  };
}

/**
 * Applies every pending migration; safe to run at each start and from several instances.
 * `upTo` stops after that migration (tests build a database as an earlier release left it).
 */
export async function migrate(db: Kysely<DB>, upTo?: string): Promise<void> {
  if (!upTo && (await upToDate(db))) return;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  if (error) throw error;
}

/**
 * Whether the database has exactly this build's migrations applied: a later start then skips the
 * migrator's lock and table checks (about a second on a busy 2-core machine). Anything else (a
 * new database, a migration to run, one this build does not know) goes through the migrator.
 */
async function upToDate(db: Kysely<DB>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    const known = Object.keys(migrations);
    return rows.length === known.length && known.every((name) => applied.has(name));
  } catch (error) {
    if (hasSqlState(error, sqlStates.undefinedTable)) return false; // no migration table yet
    throw error;
  }
}
