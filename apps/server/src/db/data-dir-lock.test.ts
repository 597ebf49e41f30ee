import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirBusyError, lockDataDir, lockFileName, processStart } from "./data-dir-lock.ts";
import { removeStalePartials } from "./partial-files.ts";

// Who holds DATA_DIR: a live process by id and start time; the dead, zombies and a process that
// later got a dead holder's id do not.
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function dataDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "gradecast-lock-"));
  dirs.push(dir);
  return dir;
}
const lockFile = (dir: string) => path.join(dir, lockFileName);

/** The id of a process that has exited but is not reaped (a zombie), and its start time. */
const parents: ChildProcess[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) parent.kill("SIGKILL");
});
async function zombie(): Promise<{ pid: number; started: string }> {
  // The shell starts a short sleep in the background and becomes a long one, which never reaps it.
  const parent = spawn("sh", ["-c", "sleep 0.2 & echo $!; exec sleep 60"]);
  parents.push(parent);
  const pid = await new Promise<number>((resolve) => {
    parent.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
  });
  const stat = () => readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = () =>
    stat()
      .slice(stat().lastIndexOf(")") + 2)
      .split(" ");
  for (let i = 0; i < 500 && fields()[0] !== "Z"; i++) await new Promise((r) => setTimeout(r, 10));
  expect(fields()[0]).toBe("Z");
  return { pid, started: fields()[19] ?? "" };
}

describe.skipIf(!existsSync("/proc/self/stat"))("the data-directory lock", () => {
  it("is refused while a live process holds it, naming that process", async () => {
    const dir = await dataDir();
    const parent = process.ppid;
    writeFileSync(lockFile(dir), `${parent} ${processStart(parent)}\n`);
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirBusyError);
    await expect(lockDataDir(dir)).rejects.toMatchObject({ pid: parent });
  });

  it("is taken from a holder that has exited, and records this process", async () => {
    const dir = await dataDir();
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const deadPid = Number(child.stdout.toString());
    writeFileSync(lockFile(dir), `${deadPid} 12345\n`);
    const release = await lockDataDir(dir);
    expect(readFileSync(lockFile(dir), "utf8")).toBe(
      `${process.pid} ${processStart(process.pid)}\n`,
    );
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it("is taken from a holder that has exited but is not reaped (a zombie)", async () => {
    const dir = await dataDir();
    const { pid, started } = await zombie();
    writeFileSync(lockFile(dir), `${pid} ${started}\n`);
    expect(processStart(pid)).toBeNull();
    const release = await lockDataDir(dir);
    expect(readFileSync(lockFile(dir), "utf8")).toMatch(new RegExp(`^${process.pid} `));
    release();
  });

  it("is taken when the id now belongs to another process (a different start time)", async () => {
    const dir = await dataDir();
    writeFileSync(lockFile(dir), `${process.ppid} 1\n`);
    const release = await lockDataDir(dir);
    release();
  });
});

describe.skipIf(!existsSync("/proc/self/stat"))("a start's clean-up of half-written files", () => {
  it("removes the .partial files of dead and zombie writers, and keeps a live writer's", async () => {
    const dir = await dataDir();
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout,
    );
    const { pid: undead } = await zombie();
    const live = process.ppid;
    mkdirSync(path.join(dir, `pglite.${dead}.partial`));
    writeFileSync(path.join(dir, `pglite.${dead}.partial`, "PG_VERSION"), "17");
    writeFileSync(path.join(dir, `template.${undead}.partial.tar`), "half");
    writeFileSync(path.join(dir, `main.mjs.${live}.partial`), "being written");
    writeFileSync(path.join(dir, "main.mjs"), "whole");
    const removed = removeStalePartials(dir);
    expect(removed.sort()).toEqual([`pglite.${dead}.partial`, `template.${undead}.partial.tar`]);
    expect(readdirSync(dir).sort()).toEqual(["main.mjs", `main.mjs.${live}.partial`]);
  });
});
