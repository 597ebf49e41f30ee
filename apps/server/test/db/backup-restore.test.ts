import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "../../src/db/data-dir-lock.ts";
import { type Database, migrate, openDatabase } from "../../src/db/database.ts";
import { createTestDatabase, type DialectName, dialects } from "../support/helpers.ts";

// npm run db:backup / db:restore, run as the real scripts: rows written before a backup are all
// there, byte for byte, after restoring it into a fresh place; the scripts refuse to overwrite a
// database that holds data, and refuse to touch a PGlite directory another process holds.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

function run(script: "db-backup" | "db-restore", args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", `apps/server/scripts/${script}.ts`, ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "silent", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => resolve({ code, out }));
  });
}

const tricky = `O'Brien "; drop table users; -- ü 漢字 <script>x</script>`;

async function writeRows(database: Database) {
  const user = await database.db
    .insertInto("users")
    .values({
      name: tricky,
      email: `backup-${randomBytes(4).toString("hex")}@example.test`,
      password_hash: "not-a-real-hash",
      role: "teacher",
    })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  const reports = Array.from({ length: 25 }, (_, i) => ({
    author_id: user.id,
    student_name: `${tricky} ${i}`,
    course: `Course ${i % 3}`,
    marks: i * 4,
    attendance: 100 - i,
    assignments: i % 7,
    behavior: "Good" as const,
    feedback: `Feedback\nline two ${i}`,
  }));
  await database.db.insertInto("student_reports").values(reports).execute();
  return snapshot(database);
}

async function snapshot(database: Database) {
  const users = await database.db
    .selectFrom("users")
    .select(["id", "name", "email", "role"])
    .orderBy("id")
    .execute();
  const reports = await database.db
    .selectFrom("student_reports")
    // Every column, stamps and links included: a restore brings each back as it was.
    .selectAll()
    .orderBy("id")
    .execute();
  return { users, reports };
}

const tmp: string[] = [];
async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tmp.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of tmp) await rm(dir, { recursive: true, force: true });
});

describe.each(dialects)("db:backup and db:restore on %s", (dialect: DialectName) => {
  const cleanups: Array<() => Promise<void>> = [];
  let backupFile = "";
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  });

  let source: { env: Record<string, string>; rows: Awaited<ReturnType<typeof snapshot>> };
  beforeAll(async () => {
    backupFile = path.join(await tempDir("gradecast-backup-"), `backup.${dialect}`);
    if (dialect === "pglite") {
      const dataDir = await tempDir("gradecast-backup-src-");
      const database = await openDatabase({ dataDir });
      await migrate(database.db);
      const rows = await writeRows(database);
      await database.close();
      // While a live process (this one, as a server would) holds DATA_DIR, backup and restore
      // refuse to run.
      const release = await lockDataDir(dataDir);
      try {
        const busy = await run("db-backup", ["--out", backupFile], { DATA_DIR: dataDir });
        expect(busy.out).toMatch(/is in use/);
        expect(busy.code).toBe(1);
        expect(existsSync(backupFile)).toBe(false);
      } finally {
        release();
      }
      source = { env: { DATA_DIR: dataDir }, rows };
    } else {
      const { database, url, drop } = await createTestDatabase("postgres");
      cleanups.push(drop);
      const rows = await writeRows(database);
      await database.close();
      source = { env: { DATABASE_URL: url ?? "" }, rows };
    }
  });

  it("backs up, then restores every row into a fresh database", async () => {
    const made = await run("db-backup", ["--out", backupFile], source.env);
    expect(made.out).toMatch(/Backed up/);
    expect(made.code).toBe(0);
    expect(existsSync(backupFile)).toBe(true);

    // A second backup to the same name is refused rather than overwriting it.
    const again = await run("db-backup", ["--out", backupFile], source.env);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/already exists/);

    const target = await freshTarget(dialect, cleanups);
    const restored = await run("db-restore", ["--in", backupFile], target.env);
    expect(restored.out).toMatch(/Restored/);
    expect(restored.code).toBe(0);

    const database = await target.open();
    try {
      const rows = await snapshot(database);
      expect(rows.reports).toHaveLength(25);
      expect(rows).toEqual(source.rows);
      // The restored database is a working Gradecast database: migrations find nothing to do
      // and new rows go in.
      await migrate(database.db);
      // A copy of a restored row under a new id (the lower-case name is generated).
      const { id: _id, student_name_folded: _folded, ...copy } = source.rows.reports[0]!;
      await database.db
        .insertInto("student_reports")
        .values({ ...copy, student_name: "after restore" })
        .execute();
    } finally {
      await database.close();
    }

    // Restoring over a database that holds data needs --force; with it, the data is replaced.
    const refused = await run("db-restore", ["--in", backupFile], target.env);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/already holds a database|is not empty/);
    const forced = await run("db-restore", ["--in", backupFile, "--force"], target.env);
    expect(forced.out).toMatch(/Restored/);
    expect(forced.code).toBe(0);
    const again2 = await target.open();
    try {
      expect(await snapshot(again2)).toEqual(source.rows);
    } finally {
      await again2.close();
    }
  });

  it("refuses a backup of the other dialect and a file that is no backup", async () => {
    // A backup of this test's own: the first test's may not be made yet in a shuffled run.
    const backupFile = path.join(await tempDir("gradecast-backup-own-"), `backup.${dialect}`);
    const made = await run("db-backup", ["--out", backupFile], source.env);
    expect(made.code, made.out).toBe(0);
    const other = path.join(await tempDir("gradecast-backup-bad-"), "not-a-backup");
    await import("node:fs/promises").then((fs) => fs.writeFile(other, "hello"));
    const target = await freshTarget(dialect, cleanups);
    const bad = await run("db-restore", ["--in", other], target.env);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/is not a Gradecast backup/);

    const wrongEnv: Record<string, string> =
      dialect === "pglite"
        ? { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" }
        : { DATA_DIR: await tempDir("gradecast-backup-wrong-"), DATABASE_URL: "" };
    const wrong = await run("db-restore", ["--in", backupFile], wrongEnv);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/but the configured database is/);

    if (dialect === "pglite") {
      // Not even --force restores into a DATA_DIR that a live server holds.
      const dataDir = source.env.DATA_DIR ?? "";
      const release = await lockDataDir(dataDir);
      try {
        const busy = await run("db-restore", ["--in", backupFile, "--force"], source.env);
        expect(busy.out).toMatch(/is in use/);
        expect(busy.code).toBe(1);
      } finally {
        release();
      }
      const database = await openDatabase({ dataDir });
      try {
        expect(await snapshot(database)).toEqual(source.rows);
      } finally {
        await database.close();
      }
    }
  });
});

async function freshTarget(
  dialect: DialectName,
  cleanups: Array<() => Promise<void>>,
): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (dialect === "pglite") {
    const dataDir = await tempDir("gradecast-backup-dst-");
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir }),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `gradecast_restore_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString(), poolSize: 2 }),
  };
}
