import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { privateDirMode, privateFileMode } from "./data-dir-mode.ts";

// Embedded PGlite is one process's database: two processes on one DATA_DIR would corrupt it.
// The server (main.ts) and the maintenance commands hold DATA_DIR/server.pid while they use a
// PGlite database. The file is created exclusively (O_EXCL), so two starting at once cannot both
// take it, and names its holder by process id and start time: a holder that died (SIGKILL, a
// crash), a zombie waiting to be reaped, or another process that later got the same id does not
// count, and a restart takes the lock at once.
export const lockFileName = "server.pid";

export class DataDirBusyError extends Error {
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(`Process ${pid} is using the embedded database in ${dataDir}.`);
  }
}

/**
 * A running process's start time (clock ticks after boot, /proc/PID/stat field 22), "" where
 * /proc is missing (not Linux), or null when the process is gone or a zombie.
 */
export function processStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return null;
    if (pid !== process.pid && readProcSelf() === null) return aliveBySignal(pid) ? "" : null;
    return null;
  }
  // The name (field 2) may hold spaces and parentheses: count fields after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  if (state === "Z" || state === "X") return null;
  return fields[19] ?? "";
}

function readProcSelf(): string | null {
  try {
    return readFileSync("/proc/self/stat", "utf8");
  } catch {
    return null;
  }
}

function aliveBySignal(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding the lock on dataDir, if any (never this process). */
export function lockHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, lockFileName), "utf8");
  } catch {
    return null;
  }
  const [pidText = "", started = ""] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText, 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  const now = processStart(pid);
  if (now === null) return null;
  // A file from before start times were recorded, or a system without /proc: the id alone.
  return started === "" || now === "" || now === started ? pid : null;
}

/** Takes the lock on dataDir; throws DataDirBusyError when a live process holds it. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  await mkdir(dataDir, { recursive: true, mode: privateDirMode });
  const file = path.join(dataDir, lockFileName);
  const content = `${process.pid} ${processStart(process.pid) ?? ""}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, content, { mode: privateFileMode, flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null) throw new DataDirBusyError(holder, dataDir);
      // Another start took the file between our two tries and is now starting up.
      if (attempt > 0) throw new DataDirBusyError(0, dataDir);
      // A dead holder's file: remove it and try once more (exclusively, so a racer loses).
      rmSync(file, { force: true });
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (readFileSync(file, "utf8").split(/\s+/)[0] === String(process.pid)) {
        rmSync(file, { force: true });
      }
    } catch {
      // Already gone.
    }
  };
  process.once("exit", release);
  return release;
}

/**
 * Locks DATA_DIR for a process about to open the embedded database; nothing to lock on
 * PostgreSQL, which any number of processes share. `busy` makes the error a live holder gets
 * (each command says in its own words what to do).
 */
export async function lockIfEmbedded(
  config: { databaseUrl?: string | undefined; dataDir: string },
  busy: (pid: number) => Error,
): Promise<() => void> {
  if (config.databaseUrl) return () => {};
  try {
    return await lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirBusyError) throw busy(error.pid);
    throw error;
  }
}
