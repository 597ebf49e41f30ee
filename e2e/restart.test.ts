import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";

// A server killed with SIGKILL leaves its lock file behind: the next start must see that its
// holder is gone and take the embedded database at once, every time.
describe("restarts after SIGKILL on the embedded database", () => {
  let server: RunningServer | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("comes back at once, five times in a row, with what was written before", async () => {
    server = await startServer();
    dataDir = server.dataDir;
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Kept",
        email: "kept@example.org",
        password: "kept across kills",
      }),
    });
    expect(register.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      await server.stop({ keepData: true, signal: "SIGKILL" });
      server = await startServer({ dataDir });
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "kept@example.org", password: "kept across kills" }),
      });
      expect(login.status, `start ${i + 2}: ${server.logs()}`).toBe(200);
    }
  });
});
