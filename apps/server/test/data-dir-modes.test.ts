import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./run-script.ts";

// Issue 26: DATA_DIR holds pupils' data, password hashes, the signing key and the outbox. The
// server, started by an operator whose umask is the usual 022, makes a new DATA_DIR and
// everything in it private to its own user (directories 0700, files 0600), and says so in one
// line when it finds an existing DATA_DIR that others can enter.

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The server process as `npm start` runs it, under umask 022, until /api/health answers. */
async function startServer(dataDir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    "sh",
    ["-c", 'umask 022; exec "$0" --import tsx apps/server/src/main.ts', process.execPath],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        PUBLIC_URL: url,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Every directory and file under `dir` (itself included) with its permission bits. */
async function modesUnder(dir: string): Promise<{ path: string; dir: boolean; mode: number }[]> {
  const found = [{ path: dir, dir: true, mode: (await stat(dir)).mode & 0o777 }];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    found.push({ path: full, dir: entry.isDirectory(), mode: (await stat(full)).mode & 0o777 });
  }
  return found;
}

const octal = (mode: number) => mode.toString(8).padStart(4, "0");

describe("DATA_DIR file modes", () => {
  it("a new DATA_DIR and all the server writes in it (database, keys, lock, mail) are private", async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), "gradecast-modes-"));
    const dataDir = path.join(parent, "data");
    const server = await startServer(dataDir);
    try {
      const registered = await fetch(`${server.url}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Mode Tester",
          email: "mode.tester@example.com",
          password: "a long enough passphrase",
          role: "student",
        }),
      });
      expect(registered.status).toBe(201);
      const deadline = Date.now() + 10_000;
      const mails = () => readdir(path.join(dataDir, "outbox")).catch(() => [] as string[]);
      while ((await mails()).length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await mails()).length).toBeGreaterThan(0);
      const running = await modesUnder(dataDir);
      expect(running.map((e) => path.relative(dataDir, e.path))).toEqual(
        expect.arrayContaining(["server.pid", "jwt-ed25519.pem", "outbox", "pglite"]),
      );
      const wide = running
        .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
        .map((e) => `${octal(e.mode)} ${path.relative(dataDir, e.path)}`);
      expect(wide).toEqual([]);
      expect(server.output()).not.toMatch(/DATA_DIR/);
    } finally {
      await server.stop();
    }
    // And after the database's files are flushed at shutdown.
    const stopped = await modesUnder(dataDir);
    expect(
      stopped
        .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
        .map((e) => `${octal(e.mode)} ${path.relative(dataDir, e.path)}`),
    ).toEqual([]);
    await rm(parent, { recursive: true, force: true });
  }, 120_000);

  it("says in one line at start when an existing DATA_DIR is open to other users", async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), "gradecast-modes-"));
    const dataDir = path.join(parent, "data");
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const server = await startServer(dataDir);
    try {
      const lines = server
        .output()
        .split("\n")
        .filter((l) => l.includes("DATA_DIR"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(dataDir);
      expect(lines[0]).toContain("0755");
      expect(lines[0]).toContain("chmod 700");
    } finally {
      await server.stop();
      await rm(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
