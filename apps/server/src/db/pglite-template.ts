import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// A fresh PGlite database costs an initdb: about 3 seconds on a 2-core machine, most of
// Gradecast's start-up budget. The build makes one empty cluster (with pg_trgm) once and keeps
// its data directory as a tarball; a new DATA_DIR, and every test database, starts from a copy
// in well under a second. Migrations still run on top at each start.
const here = path.dirname(fileURLToPath(import.meta.url));
const cacheDir = path.resolve(here, "../../../../node_modules/.cache/gradecast");
const pgliteVersion = JSON.parse(
  await readFile(
    path.join(
      path.dirname(fileURLToPath(import.meta.resolve("@electric-sql/pglite"))),
      "../package.json",
    ),
    "utf8",
  ),
).version as string;
export const templateFile = path.join(cacheDir, `pglite-template-${pgliteVersion}.tar`);

let cached: Blob | undefined;

/** The template as a Blob, or undefined when it was never built (initdb then runs as usual). */
export async function loadTemplate(): Promise<Blob | undefined> {
  if (cached) return cached;
  if (!existsSync(templateFile)) return undefined;
  cached = new Blob([await readFile(templateFile)]);
  return cached;
}

/** Builds the template if it is missing; returns its path. */
export async function ensureTemplate(): Promise<string> {
  if (existsSync(templateFile)) return templateFile;
  const db = await PGlite.create({ extensions: { pg_trgm } });
  await db.query("create extension if not exists pg_trgm");
  const blob = await db.dumpDataDir("none");
  await db.close();
  await mkdir(cacheDir, { recursive: true });
  const partial = `${templateFile}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  await rename(partial, templateFile);
  return templateFile;
}
