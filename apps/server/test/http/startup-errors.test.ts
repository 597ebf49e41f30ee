import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../support/run-script.ts";

// The server as an operator starts it: an address it cannot listen on stops it with one line
// that names the variables to change, and no stack trace.
const start = (env: Record<string, string>) => runScript("apps/server/src/main.ts", [], env);

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
