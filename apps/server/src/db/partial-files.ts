import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { processStart } from "./data-dir-lock.ts";

// Whatever is written in steps (the PGlite template, its copy into a new DATA_DIR, the server
// bundle: pglite-template.ts, scripts/server-build.mjs) is written beside its place as
// `NAME.PID.partial…` and renamed into it when whole. A writer killed half-way (SIGKILL, a
// crash, a power cut) leaves its .partial behind, and nobody will finish it: a start removes
// those whose writer is gone or a zombie, and leaves the ones a live process is still writing.
const partialName = /\.(\d+)\.partial(?:\.|$)/;

/** Removes the .partial files and folders in `dir` whose writer is dead; returns their names. */
export function removeStalePartials(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = entries.filter((entry) => {
    const pid = Number(partialName.exec(entry)?.[1] ?? 0);
    return pid > 0 && pid !== process.pid && processStart(pid) === null;
  });
  for (const entry of stale) rmSync(path.join(dir, entry), { recursive: true, force: true });
  return stale;
}
