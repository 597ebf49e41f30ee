import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The server as an operator starts it: an address it cannot listen on stops it with one line
// that names the variables to change, and no stack trace.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tsx = path.join(root, "node_modules/.bin/tsx");

function start(env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(tsx, [path.join(root, "apps/server/src/main.ts")], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        LOG_LEVEL: "silent",
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("start-up", () => {
  it("names HOST and PORT when it cannot listen there", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-start-"));
    try {
      const res = await start({ DATA_DIR: dataDir, HOST: "999.1.1.1", PORT: "4199" });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        "Gradecast cannot start: cannot listen on HOST=999.1.1.1 PORT=4199 (ENOTFOUND). Free the port or change HOST or PORT.",
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
