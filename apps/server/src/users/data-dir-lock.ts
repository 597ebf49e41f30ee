import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";

// Embedded PGlite is one process's database: two processes on one DATA_DIR would corrupt it.
// The server (main.ts) and `npm run admin:create` hold DATA_DIR/server.pid while they use a
// PGlite database; a holder that is no longer alive (a crash) does not count.
export const lockFileName = "server.pid";

export class DataDirBusyError extends Error {
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(`Process ${pid} is using the embedded database in ${dataDir}.`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding the lock on dataDir, if any (never this process). */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, lockFileName), "utf8"), 10);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
    return alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Takes the lock on dataDir; throws DataDirBusyError when a live process holds it. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  await mkdir(dataDir, { recursive: true });
  const holder = lockHolder(dataDir);
  if (holder !== null) throw new DataDirBusyError(holder, dataDir);
  const file = path.join(dataDir, lockFileName);
  writeFileSync(file, `${process.pid}\n`, { mode: 0o644 });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
  process.once("exit", release);
  return release;
}
