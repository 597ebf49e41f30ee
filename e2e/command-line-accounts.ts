import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Person } from "./browser-accounts.ts";
import { type RunningServer, repoRoot, startServer } from "./harness.ts";

// Accounts made as a school makes its first ones: `npm run admin:create` on the database, before
// the server starts on an embedded one. The only way to an admin, and to a teacher when teacher
// sign-ups wait for approval.

const run = promisify(execFile);

/** Someone the command line makes: an admin unless `role` says teacher. */
export interface CommandLineAccount extends Person {
  role?: "admin" | "teacher";
}

/**
 * Runs the admin:create script for `who` against the database `env` names (DATA_DIR or
 * DATABASE_URL); the password goes in ADMIN_PASSWORD, as the documented bootstrap does.
 */
export async function createByCommand(who: CommandLineAccount, env: Record<string, string> = {}) {
  const role = who.role ? ["--role", who.role] : [];
  await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/scripts/admin-create.ts",
      ...["--email", who.email, "--name", who.name, ...role],
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: "",
        LOG_LEVEL: "warn",
        ...env,
        ADMIN_PASSWORD: who.password,
      },
    },
  );
}

/**
 * The server on a fresh DATA_DIR where `people` were made by the command line first; stop()
 * removes the directory. `env` is the server's and the command's (the same database).
 */
export function startServerWith(
  people: CommandLineAccount[],
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startServer({
    env,
    async setUp(dataDir) {
      for (const who of people) await createByCommand(who, { ...env, DATA_DIR: dataDir });
    },
  });
}
