import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The server's command lines as an operator runs them: a separate process under tsx, with a
// bare environment (PATH, HOME and what the test gives), its output collected.
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const tsx = path.join(repoRoot, "node_modules/.bin/tsx");

/** Runs a TypeScript entry point (a path from the repository's root) until it exits. */
export function runScript(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [path.join(repoRoot, file), ...args], {
      cwd: repoRoot,
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
