import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Memo } from "../memo.ts";
import type { DB } from "./schema.ts";

// A fresh PGlite database costs an initdb (about 3 seconds on a 2-core machine) and then every
// migration: most of Gradecast's start-up budget. So the cluster is made once, migrated, and
// kept under node_modules/.cache/gradecast twice: as a directory that a new DATA_DIR copies
// (a plain file copy, about 0.1 s) and as a tarball that in-memory databases (tests) load.
// The name holds PGlite's version and a hash of the migration files, so a changed or added
// migration makes a new template; the migrations still run at each start and find nothing
// left to do.
const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.join(here, "migrations");
/** Where the templates are built (each build in a .partial folder of its own first). */
export const cacheDir = path.resolve(here, "../../../../node_modules/.cache/gradecast");
const pgliteVersion = JSON.parse(
  readFileSync(
    path.join(
      path.dirname(fileURLToPath(import.meta.resolve("@electric-sql/pglite"))),
      "../package.json",
    ),
    "utf8",
  ),
).version as string;

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(migrationsDir).sort()) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    hash.update(name);
    hash.update(readFileSync(path.join(migrationsDir, name)));
  }
  return hash.digest("hex").slice(0, 16);
}

const prefix = "pglite-template-";
const name = `${prefix}${pgliteVersion}-${migrationsHash()}`;
/** The migrated cluster as a directory, copied into each new DATA_DIR. */
export const templateDir = path.join(cacheDir, name);
/** The same as a tarball, for PGlite's loadDataDir (in-memory databases). */
export const templateFile = path.join(cacheDir, `${name}.tar`);

// The build under way in this process, if any, shared by its callers.
const building = new Memo<string, Promise<string>>(() =>
  build().finally(() => building.forget(templateFile)),
);

/** Builds the template if it is missing (once per install and per set of migrations). */
export function ensureTemplate(): Promise<string> {
  if (existsSync(templateFile) && existsSync(templateDir)) return Promise.resolve(templateFile);
  return building.get(templateFile);
}

async function build(): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  // Several processes (test workers) may build at once: each in its own place, first one wins.
  const work = path.join(cacheDir, `${name}.${process.pid}.partial`);
  await rm(work, { recursive: true, force: true });
  // Imported here: only a build needs the migrations and Kysely.
  const { migrate } = await import("./migrate.ts");
  const { Kysely } = await import("kysely");
  const { PGliteDialect } = await import("./pglite-dialect.ts");
  const client = await PGlite.create(work, { extensions: { pg_trgm } });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  try {
    await client.query("create extension if not exists pg_trgm");
    await migrate(db);
    const blob = await client.dumpDataDir("none");
    await writeFile(`${work}.tar`, Buffer.from(await blob.arrayBuffer()));
  } finally {
    await db.destroy();
  }
  try {
    await rename(work, templateDir);
  } catch {
    // Another process finished first: theirs is the same.
    await rm(work, { recursive: true, force: true });
  }
  await rename(`${work}.tar`, templateFile);
  removeOldTemplates();
  return templateFile;
}

/** Templates of other PGlite versions or migrations, left by earlier installs. */
function removeOldTemplates() {
  for (const entry of readdirSync(cacheDir)) {
    if (!entry.startsWith(prefix) || entry.startsWith(name) || entry.includes(".partial")) continue;
    rmSync(path.join(cacheDir, entry), { recursive: true, force: true });
  }
}

// Kept once read; a failed build or read is forgotten, so that the next call tries again.
const templateBlob = new Memo<string, Promise<Blob>>((file) =>
  ensureTemplate()
    .then(() => readFile(file))
    .then((bytes) => new Blob([bytes]))
    .catch((error: unknown) => {
      templateBlob.forget(file);
      throw error;
    }),
);

/** The template as a Blob for loadDataDir, built first if needed. */
export async function loadTemplate(): Promise<Blob | undefined> {
  return templateBlob.get(templateFile);
}

/**
 * Makes `dir` (a PGlite data directory that does not exist yet, or is empty) a copy of the
 * template. False when it cannot (the caller then lets PGlite load the tarball instead).
 */
export async function seedDataDir(dir: string): Promise<boolean> {
  try {
    await ensureTemplate();
    if (existsSync(dir) && readdirSync(dir).length > 0) return false;
    // Copied beside and renamed, so that a start stopped half-way leaves no half cluster.
    const partial = `${dir}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(templateDir, partial, { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
    return true;
  } catch {
    rmSync(`${dir}.${process.pid}.partial`, { recursive: true, force: true });
    return false;
  }
}
