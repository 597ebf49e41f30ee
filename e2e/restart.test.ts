import { rm } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";
import { call } from "./proof-helpers.ts";

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
    const kept = { email: "kept@example.org", password: "kept across kills" };
    const register = await call(server.url, "POST", "/api/auth/register", {
      body: { name: "Kept", ...kept },
    });
    expect(register.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      await server.stop({ keepData: true, signal: "SIGKILL" });
      server = await startServer({ dataDir });
      const login = await call(server.url, "POST", "/api/auth/login", { body: kept });
      expect(login.status, `start ${i + 2}: ${server.logs()}`).toBe(200);
    }
  });
});
