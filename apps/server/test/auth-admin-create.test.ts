import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../src/auth/passwords.ts";
import { openDatabase } from "../src/db/database.ts";
import { createTestDatabase, dialects } from "./helpers.ts";

// `npm run admin:create -- --email E --name N` as an operator runs it: a separate process on the
// configured database. It creates or promotes, and never opens a PGlite directory a server holds.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const script = path.join(root, "apps/server/scripts/admin-create.ts");
const tsx = path.join(root, "node_modules/.bin/tsx");

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(tsx, [script, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        LOG_LEVEL: "silent",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

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

  async function userRow(email: string) {
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir });
    try {
      return await database.db
        .selectFrom("users")
        .select(["role", "name", "email_verified", "password_hash"])
        .where("email", "=", email)
        .executeTakeFirst();
    } finally {
      await database.close();
    }
  }

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
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir });
    try {
      await database.db
        .insertInto("users")
        .values({
          name: "Tess",
          email: "tess@school.org",
          password_hash: "kept-hash",
          role: "teacher",
          pending_role: null,
        })
        .execute();
    } finally {
      await database.close();
    }
    const res = await run(["--email", "TESS@school.org"], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Promoted to admin tess@school\.org/);
    expect(await userRow("tess@school.org")).toMatchObject({
      role: "admin",
      password_hash: "kept-hash",
    });
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
  let dataDir: string;
  let holder: ChildProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-admin-lock-"));
    await mkdir(dataDir, { recursive: true });
    // Stands in for a server process: the lock names a live process.
    holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    await writeFile(path.join(dataDir, "server.pid"), `${holder.pid}\n`);
  });
  afterAll(async () => {
    holder.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses with a clear message and does not touch the database", async () => {
    const res = await run(["--email", "x@school.org", "--name", "X"], {
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "a long admin passphrase",
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`process ${holder.pid}`);
    expect(res.stderr).toMatch(/Stop the server/);
    expect(res.stderr).toMatch(/DATABASE_URL/);
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("runs once the holder is gone (a stale lock from a crash does not count)", async () => {
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
