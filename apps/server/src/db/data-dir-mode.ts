import { chmodSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

// DATA_DIR holds pupils' data, password hashes, the signing key and the outbox (issue 26): it
// and everything in it belong to the server's user alone, directories 0700 and files 0600,
// whatever the umask of the shell that started it.
export const privateDirMode = 0o700;
export const privateFileMode = 0o600;

/**
 * Files and directories this process creates from now on are its user's alone (umask 077): what
 * PGlite, the mailer and the key files write, without each having to say so. Worker threads
 * cannot change the umask (tests run in them); the writers pass their modes too.
 */
export function usePrivateUmask(): void {
  if (isMainThread) process.umask(0o077);
}

/**
 * The one line to print at start when an existing DATA_DIR is open to other users (its mode
 * wider than 0700); undefined when it is private or does not exist yet. Left as it is: an
 * operator may have reasons (a backup user in its group), so the server says and goes on.
 */
export function dataDirWarning(dataDir: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(dataDir).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  const shown = mode.toString(8).padStart(4, "0");
  return `Gradecast: DATA_DIR ${dataDir} is open to other users of this machine (mode ${shown}); its files hold pupils' data and password hashes: chmod 700 ${dataDir}\n`;
}

/** Makes a tree private: directories 0700, files 0600 (a copied template keeps its modes). */
export function makePrivate(dir: string): void {
  chmodSync(dir, privateDirMode);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(full, privateDirMode);
    else if (entry.isFile()) chmodSync(full, privateFileMode);
  }
}
