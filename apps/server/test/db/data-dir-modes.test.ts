import { chmod, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startServer as startRealServer } from "../../../../e2e/server-process.ts";

// Issue 26: DATA_DIR holds pupils' data, password hashes, the signing key and the outbox. The
// server, started by an operator whose umask is the usual 022, makes a new DATA_DIR and
// everything in it private to its own user (directories 0700, files 0600), and says so in one
// line when it finds an existing DATA_DIR that others can enter.

/** The server process as `npm start` runs it, under umask 022, until /api/health answers. */
function startServer(dataDir: string) {
  return startRealServer({ dataDir, umask: "022" });
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
      expect(server.logs()).not.toMatch(/DATA_DIR/);
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
        .logs()
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
