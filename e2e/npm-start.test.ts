import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, repoRoot } from "./harness.ts";

// `npm start` as an operator runs it (a built checkout, PGlite in DATA_DIR): a SIGTERM to the
// npm process alone reaches the server, which shuts down cleanly (its DATA_DIR lock file goes
// with it), and no process of the start is left. The start also clears what a killed template
// copy left half-written in DATA_DIR.

/** The processes of a process group, as /proc lists them (field 5 of stat is the group). */
function groupMembers(group: number): { pid: number; command: string }[] {
  const members: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group) {
        members.push({
          pid: Number(entry),
          command: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
        });
      }
    } catch {
      // Gone while listed.
    }
  }
  return members;
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe.skipIf(!existsSync("/proc/self/stat"))("npm start", () => {
  let dataDir: string | undefined;
  let group: number | undefined;
  afterAll(async () => {
    if (group !== undefined) {
      try {
        process.kill(-group, "SIGKILL");
      } catch {
        // Nothing left, as it should be.
      }
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("passes SIGTERM to the server: nothing of it is left, and half-written files are cleared", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-npm-start-"));
    // A template copy whose process died half-way.
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout,
    );
    const partial = path.join(dataDir, `pglite.${dead}.partial`);
    await mkdir(partial);
    const port = await freePort();
    let output = "";
    const npm = spawn("npm", ["start"], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" },
      // A group of its own, so that the test can find every process the start made.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    group = npm.pid as number;
    npm.stdout.on("data", (chunk) => {
      output += chunk;
    });
    npm.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => npm.once("exit", resolve));
    const healthy = await until(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200;
      } catch {
        return false;
      }
    }, 100_000);
    expect(healthy, output).toBe(true);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(path.join(dataDir, "server.pid"))).toBe(true);
    const running = groupMembers(group);
    expect(running.map((p) => p.pid)).toContain(npm.pid);
    expect(running.length, JSON.stringify(running)).toBeGreaterThan(1);

    process.kill(npm.pid as number, "SIGTERM");
    await exited;
    const empty = await until(() => groupMembers(group as number).length === 0, 15_000);
    expect(empty, JSON.stringify(groupMembers(group))).toBe(true);
    // The server closed on the signal (a killed one leaves its lock file behind).
    expect(existsSync(path.join(dataDir, "server.pid")), output).toBe(false);
  });
});
