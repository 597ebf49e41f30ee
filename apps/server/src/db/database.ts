import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from "kysely";
import type { Pool, PoolClient } from "pg";
import { makePrivate, privateDirMode } from "./data-dir-mode.ts";
import { migrate } from "./migrate.ts";
import { PGliteDialect } from "./pglite-dialect.ts";
import { loadTemplate, seedDataDir } from "./pglite-template.ts";
import { preparedName } from "./prepared.ts";
import type { DB } from "./schema.ts";
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
    await mkdir(dir, { recursive: true, mode: privateDirMode });
    const template = isNew ? await loadTemplate() : undefined;
    client = await PGlite.create(dir, {
      extensions: { pg_trgm },
      startParams,
      ...(template ? { loadDataDir: template } : {}),
    });
    // The template's copy keeps the modes it was built with, and PGlite's file system sets modes
    // of its own (0644, 0666) whatever the umask: made private once it is open. What it writes
    // later is inside this 0700 directory, which no other user can enter.
    makePrivate(dir);
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

export { migrate, migrations } from "./migrate.ts";
