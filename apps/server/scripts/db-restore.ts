import { existsSync } from "node:fs";
import { readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import {
  type BackupKind,
  backupKindOf,
  lockPglite,
  parseFileArgs,
  pgliteDirOf,
  reportFailure,
  runPgTool,
  safeUrl,
  UsageError,
} from "./db-backup.ts";

// npm run db:restore -- --in FILE [--force]
// Restores a file written by npm run db:backup into the database `npm start` would use. It
// refuses to replace a database that holds data unless --force is given. Stop every server on
// that database first (for PGlite this is checked).
const usage = "Usage: npm run db:restore -- --in FILE [--force]";

export interface RestoreOptions {
  input: string;
  force: boolean;
}

export function parseRestoreArgs(argv: string[]): RestoreOptions {
  const { file, force } = parseFileArgs(argv, "in", usage);
  return { input: file, force };
}

const describe = (kind: BackupKind) =>
  kind === "postgres" ? "a PostgreSQL backup (pg_dump)" : "a PGlite backup (data directory)";

export async function restore(
  env: NodeJS.ProcessEnv,
  options: RestoreOptions,
): Promise<{ kind: BackupKind; target: string }> {
  const config = loadConfig(env);
  if (!existsSync(options.input)) throw new UsageError(`${options.input} does not exist.`);
  const kind = await backupKindOf(options.input);
  if (!kind) throw new UsageError(`${options.input} is not a Gradecast backup.`);
  const wanted: BackupKind = config.databaseUrl ? "postgres" : "pglite";
  if (kind !== wanted) {
    throw new UsageError(
      `${options.input} is ${describe(kind)}, but the configured database is ` +
        `${wanted === "postgres" ? "PostgreSQL (DATABASE_URL is set)" : "PGlite (DATABASE_URL is not set)"}. ` +
        "Restore it where it came from, then move the data with the application if needed.",
    );
  }
  return config.databaseUrl
    ? restorePostgres(config.databaseUrl, options)
    : restorePglite(config.dataDir, options);
}

async function restorePostgres(url: string, options: RestoreOptions) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tables: number; others: number }>(
      `select
         (select count(*)::int from information_schema.tables where table_schema = 'public') as tables,
         (select count(*)::int from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()) as others`,
    );
    const { tables, others } = rows[0] ?? { tables: 0, others: 0 };
    if (tables > 0 && !options.force) {
      throw new UsageError(
        `The database ${safeUrl(url)} is not empty (${tables} tables). ` +
          "Restore into an empty database, or add --force to replace everything in it.",
      );
    }
    if (others > 0 && !options.force) {
      throw new UsageError(
        `${others} other connection(s) are open on ${safeUrl(url)} (a running server?). ` +
          "Stop every Gradecast server on this database first, or add --force.",
      );
    }
    if (tables > 0) {
      // --force: start from an empty public schema (this drops pg_trgm too; the backup has it).
      await client.query("drop schema public cascade");
      await client.query("create schema public");
    }
  } finally {
    await client.end();
  }
  runPgTool("pg_restore", [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--dbname=${url}`,
    options.input,
  ]);
  return { kind: "postgres" as const, target: safeUrl(url) };
}

async function restorePglite(dataDir: string, options: RestoreOptions) {
  const release = await lockPglite(dataDir, "db:restore");
  try {
    return await restorePgliteLocked(dataDir, options);
  } finally {
    release();
  }
}

async function restorePgliteLocked(dataDir: string, options: RestoreOptions) {
  const dir = pgliteDirOf(dataDir);
  const entries = existsSync(dir) ? await readdir(dir) : [];
  if (entries.length > 0) {
    if (!options.force) {
      throw new UsageError(
        `${dir} already holds a database. Restore into a new DATA_DIR, or add --force to replace it.`,
      );
    }
  }
  // Load into a new directory beside the old one, check it opens, then swap: a failed restore
  // leaves the previous database as it was.
  const staging = `${dir}.restore-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    const data = await readFile(options.input);
    const gzip = data[0] === 0x1f && data[1] === 0x8b;
    const blob = new Blob([data], { type: gzip ? "application/x-gzip" : "application/x-tar" });
    const db = await PGlite.create(staging, { extensions: { pg_trgm }, loadDataDir: blob });
    try {
      await db.query("select count(*) from users");
    } finally {
      await db.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${options.input} could not be restored: ${(error as Error).message}. Nothing was changed.`,
    );
  }
  const old = `${dir}.replaced-${process.pid}`;
  if (existsSync(dir)) await rename(dir, old);
  await rename(staging, dir);
  await rm(old, { recursive: true, force: true });
  return { kind: "pglite" as const, target: dir };
}

async function main() {
  const options = parseRestoreArgs(process.argv.slice(2));
  const started = Date.now();
  const result = await restore(process.env, options);
  process.stdout.write(
    `Restored ${options.input} into ${result.kind === "postgres" ? `PostgreSQL at ${result.target}` : `PGlite in ${result.target}`} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
      "Start the server as usual; pending migrations run at start.\n",
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => reportFailure("db:restore", error));
}
