import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/auth/passwords.ts";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { createTestDatabase, dialects } from "../support/helpers.ts";
import { runScript } from "../support/run-script.ts";

// `npm run admin:create -- --email E --name N` as an operator runs it: a separate process on the
// configured database. It creates or promotes, and never opens a PGlite directory a server holds.
const run = (args: string[], env: Record<string, string>) =>
  runScript("apps/server/scripts/admin-create.ts", args, env);

describe.each(dialects)("admin:create (%s)", (dialect) => {
  let dataDir: string;
  let env: Record<string, string>;
  let drop = async () => {};
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-admin-"));
    env = { DATA_DIR: dataDir };
    if (dialect === "postgres") {
      const made = await createTestDatabase("postgres");
      await made.database.close();
      env.DATABASE_URL = made.url ?? "";
      drop = made.drop;
    }
  });
  afterAll(async () => {
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The command's database, opened as another process would, for the time of `use`. */
  async function withDatabase<T>(use: (db: Database["db"]) => Promise<T>): Promise<T> {
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir });
    try {
      return await use(database.db);
    } finally {
      await database.close();
    }
  }
  const userRow = (email: string) =>
    withDatabase((db) =>
      db
        .selectFrom("users")
        .select(["role", "pending_role", "name", "email_verified", "password_hash"])
        .where("email", "=", email)
        .executeTakeFirst(),
    );
  /** An account made before the command runs, with a hash the command must keep. */
  const addUser = (user: {
    name: string;
    email: string;
    role: "student" | "teacher";
    pending_role: "teacher" | null;
  }) =>
    withDatabase((db) =>
      db
        .insertInto("users")
        .values({ ...user, password_hash: "kept-hash" })
        .execute(),
    );

  it("creates an admin with ADMIN_PASSWORD (email lower-cased, hash stored), then leaves it as is", async () => {
    const first = await run(["--email", "Head@School.ORG", "--name", "Head Teacher"], {
      ...env,
      ADMIN_PASSWORD: "a long admin passphrase",
    });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Created admin head@school\.org/);
    const row = await userRow("head@school.org");
    expect(row).toMatchObject({ role: "admin", name: "Head Teacher", email_verified: true });
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const again = await run(["--email", "head@school.org"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^Already an admin: head@school\.org .*; password kept \(--reset-password sets a new one\)$/m,
    );
    expect((await userRow("head@school.org"))?.password_hash).toBe(row?.password_hash);
  }, 120_000);

  it("sets a new password for a locked-out admin with --reset-password, and refuses a weak one", async () => {
    await run(["--email", "locked@school.org", "--name", "Locked Out"], {
      ...env,
      ADMIN_PASSWORD: "the forgotten passphrase",
    });
    const before = await userRow("locked@school.org");
    const weak = await run(["--email", "locked@school.org", "--reset-password"], {
      ...env,
      ADMIN_PASSWORD: "password1",
    });
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/password: .*too common/);
    expect((await userRow("locked@school.org"))?.password_hash).toBe(before?.password_hash);

    const reset = await run(["--email", "locked@school.org", "--reset-password"], {
      ...env,
      ADMIN_PASSWORD: "a remembered passphrase",
    });
    expect(reset.stderr).toBe("");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/; new password set, signed out everywhere$/m);
    const after = await userRow("locked@school.org");
    expect(after?.password_hash).not.toBe(before?.password_hash);
    expect(await verifyPassword(after?.password_hash ?? "", "a remembered passphrase")).toBe(true);
  }, 120_000);

  it("promotes an existing account, keeping its password", async () => {
    await addUser({ name: "Tess", email: "tess@school.org", role: "teacher", pending_role: null });
    const res = await run(["--email", "TESS@school.org"], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Promoted to admin tess@school\.org/);
    expect(await userRow("tess@school.org")).toMatchObject({
      role: "admin",
      password_hash: "kept-hash",
    });
  }, 120_000);

  it("--role teacher makes a verified teacher (TEACHER_SIGNUP=closed), and approves a waiting sign-up", async () => {
    const made = await run(
      ["--email", "made.teacher@school.org", "--name", "Made Teacher", "--role", "teacher"],
      { ...env, ADMIN_PASSWORD: "a long enough teacher password" },
    );
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Created teacher made\.teacher@school\.org/);
    expect(await userRow("made.teacher@school.org")).toMatchObject({
      role: "teacher",
      email_verified: true,
    });

    await addUser({
      name: "Waiting",
      email: "waiting@school.org",
      role: "student",
      pending_role: "teacher",
    });
    const approved = await run(["--email", "waiting@school.org", "--role", "teacher"], env);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/^Promoted to teacher waiting@school\.org/);
    expect(await userRow("waiting@school.org")).toMatchObject({
      role: "teacher",
      pending_role: null,
      password_hash: "kept-hash",
    });
    const bad = await run(["--email", "x@school.org", "--role", "owner"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--role must be admin or teacher/);
  }, 120_000);

  it("refuses a common or short password, a missing name, and no password without a terminal", async () => {
    const common = await run(["--email", "a@school.org", "--name", "A"], {
      ...env,
      ADMIN_PASSWORD: "password1",
    });
    expect(common.code).toBe(1);
    expect(common.stderr).toMatch(/too common/);
    const noName = await run(["--email", "b@school.org"], {
      ...env,
      ADMIN_PASSWORD: "long enough pass",
    });
    expect(noName.code).toBe(1);
    expect(noName.stderr).toMatch(/--name is required/);
    const noPassword = await run(["--email", "c@school.org", "--name", "C"], env);
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toMatch(/ADMIN_PASSWORD/);
    const noEmail = await run([], env);
    expect(noEmail.code).toBe(1);
    expect(noEmail.stderr).toMatch(/--email is required/);
    expect(await userRow("a@school.org")).toBeUndefined();
  }, 120_000);
});

describe("admin:create beside a running server (PGlite)", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });
  /** A data directory of its own for each test, locked by a process standing in for a server. */
  async function lockedDataDir() {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-admin-lock-"));
    await mkdir(dataDir, { recursive: true });
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], {
      stdio: "ignore",
    });
    await writeFile(path.join(dataDir, "server.pid"), `${holder.pid}\n`);
    cleanups.push(async () => {
      holder.kill();
      await rm(dataDir, { recursive: true, force: true });
    });
    return { dataDir, holder };
  }

  it("refuses with a clear message and does not touch the database", async () => {
    const { dataDir, holder } = await lockedDataDir();
    const res = await run(["--email", "x@school.org", "--name", "X"], {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "a long admin passphrase",
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`process ${holder.pid}`);
    expect(res.stderr).toMatch(/^admin:create: Stop the server first/);
    expect(res.stderr).toMatch(/DATABASE_URL/);
    expect(res.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("runs once the holder is gone (a stale lock from a crash does not count)", async () => {
    const { dataDir, holder } = await lockedDataDir();
    holder.kill();
    await new Promise((r) => holder.once("exit", r));
    const res = await run(["--email", "x@school.org", "--name", "X"], {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "a long admin passphrase",
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Created admin x@school\.org/);
    expect(existsSync(path.join(dataDir, "server.pid"))).toBe(false);
  });
});
