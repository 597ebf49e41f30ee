import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { open, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { ConfigError, loadConfig } from "../src/config.ts";
import { lockIfEmbedded } from "../src/db/data-dir-lock.ts";

// npm run db:backup -- --out FILE [--force]
// Backs up the database `npm start` would use: with DATABASE_URL, a pg_dump archive in custom
// format (restore with pg_restore or npm run db:restore); otherwise a gzipped tarball of PGlite's
// data directory under DATA_DIR (the server must be stopped: PGlite is one process's database).
const usage = "Usage: npm run db:backup -- --out FILE [--force]";

export class UsageError extends Error {}

export type BackupKind = "pglite" | "postgres";

export interface BackupOptions {
  out: string;
  force: boolean;
}

/**
 * The arguments of db:backup and db:restore: `--NAME FILE` (or `-N FILE`, `--NAME=FILE`) and
 * `--force`.
 */
export function parseFileArgs(
  argv: string[],
  name: "out" | "in",
  usage: string,
): { file: string; force: boolean } {
  let file: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === `--${name}` || arg === `-${name[0]}`) file = argv[++i];
    else if (arg?.startsWith(`--${name}=`)) file = arg.slice(`--${name}=`.length);
    else if (arg === "--force") force = true;
    else if (arg === "--help" || arg === "-h") {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    } else throw new UsageError(`Unknown option ${arg}.\n${usage}`);
  }
  if (!file) throw new UsageError(`Name the backup file with --${name} FILE.\n${usage}`);
  return { file: path.resolve(file), force };
}

export function parseBackupArgs(argv: string[]): BackupOptions {
  const { file, force } = parseFileArgs(argv, "out", usage);
  return { out: file, force };
}

/** Which dialect wrote a backup file, from its first bytes; undefined when neither. */
export async function backupKindOf(file: string): Promise<BackupKind | undefined> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.subarray(0, 5).toString("latin1") === "PGDMP") return "postgres";
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "pglite";
    if (bytes.subarray(257, 262).toString("latin1") === "ustar") return "pglite";
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Runs a PostgreSQL client program; a missing program is a clear error, not a stack trace. */
export function runPgTool(program: "pg_dump" | "pg_restore" | "psql", args: string[]): void {
  const result = spawnSync(program, args, {
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
  });
  const error = result.error as NodeJS.ErrnoException | undefined;
  if (error?.code === "ENOENT") {
    throw new UsageError(
      `${program} was not found. Install the PostgreSQL client programs (Debian/Ubuntu: ` +
        "apt-get install postgresql-client, the same major version as the server or newer) " +
        "and make sure they are on PATH.",
    );
  }
  if (error) throw error;
  if (result.status !== 0) {
    throw new UsageError(`${program} failed (exit ${result.status}):\n${result.stderr.trim()}`);
  }
}

export const pgliteDirOf = (dataDir: string) => path.join(dataDir, "pglite");

/**
 * Takes the DATA_DIR lock that the server holds while it runs (the same as admin:create and
 * seed:demo): PGlite is one process's database, and a second process could corrupt it.
 */
export function lockPglite(dataDir: string, what: string): Promise<() => void> {
  return lockIfEmbedded(
    { dataDir },
    (pid) =>
      new UsageError(
        `A Gradecast server (process ${pid}) is running on the embedded database in ` +
          `${dataDir}: the database is in use. Stop the server, run ${what}, then start it again.`,
      ),
  );
}

/** A PostgreSQL URL without its password, for messages. */
export function safeUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

async function writeAtomically(target: string, write: (partial: string) => Promise<void>) {
  const partial = `${target}.${process.pid}.partial`;
  try {
    await write(partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export async function backup(
  env: NodeJS.ProcessEnv,
  options: BackupOptions,
): Promise<{ kind: BackupKind; file: string; bytes: number }> {
  const config = loadConfig(env);
  if (existsSync(options.out) && !options.force) {
    throw new UsageError(`${options.out} already exists. Choose another name or add --force.`);
  }
  if (config.databaseUrl) {
    const url = config.databaseUrl;
    await writeAtomically(options.out, async (partial) => {
      runPgTool("pg_dump", [
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        `--file=${partial}`,
        `--dbname=${url}`,
      ]);
    });
    return { kind: "postgres", file: options.out, bytes: (await stat(options.out)).size };
  }
  const dir = pgliteDirOf(config.dataDir);
  if (!existsSync(path.join(dir, "PG_VERSION"))) {
    throw new UsageError(`There is no Gradecast database in ${config.dataDir} to back up.`);
  }
  const release = await lockPglite(config.dataDir, "db:backup");
  let bytes = 0;
  try {
    const db = await PGlite.create(dir, { extensions: { pg_trgm } });
    try {
      const blob = await db.dumpDataDir("gzip");
      const data = Buffer.from(await blob.arrayBuffer());
      bytes = data.length;
      await writeAtomically(options.out, (partial) => writeFile(partial, data));
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
  return { kind: "pglite", file: options.out, bytes };
}

async function main() {
  const options = parseBackupArgs(process.argv.slice(2));
  const started = Date.now();
  const result = await backup(process.env, options);
  const env = loadConfig(process.env);
  const source =
    result.kind === "postgres"
      ? `PostgreSQL at ${safeUrl(env.databaseUrl ?? "")} (pg_dump, custom format)`
      : `PGlite in ${pgliteDirOf(env.dataDir)} (data directory, gzipped tar)`;
  process.stdout.write(
    `Backed up ${source} to ${result.file} (${(result.bytes / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
      `Restore it with: npm run db:restore -- --in ${result.file}\n`,
  );
}

export function reportFailure(name: string, error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${name} cannot start. Fix these environment variables:\n`);
    for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
  } else if (error instanceof Error && error.constructor !== Error) {
    process.stderr.write(`${name}: ${error.message}\n`);
  } else {
    process.stderr.write(`${name} failed: ${(error as Error).stack ?? String(error)}\n`);
  }
  process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => reportFailure("db:backup", error));
}
