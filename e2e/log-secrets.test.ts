import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";
import { call, password } from "./proof-helpers.ts";

// The server's request log must not hold the secrets a link or a sign-in carries: an operator's
// log files are read by more people than the accounts they describe.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: "info" } });
});
afterAll(() => server?.stop());

it("logs requests without the tokens in links, passwords or bearer tokens", async () => {
  const secret = "s3cretLinkToken0123456789abcdef";
  await fetch(`${server.url}/reset-password?token=${secret}`);
  await fetch(`${server.url}/report?lang=en&token=${secret}`);
  await call(server.url, "POST", "/api/auth/login", {
    body: { email: "nobody@example.com", password },
  });
  await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${secret}` } });
  await new Promise((r) => setTimeout(r, 200));
  const logs = server.logs();
  expect(logs).toContain("/reset-password?token=[redacted]");
  // Every query value but a few plain paging ones is hidden (http/request-log.ts).
  expect(logs).toContain("/report?lang=[redacted]&token=[redacted]");
  expect(logs).not.toContain(secret);
  expect(logs).not.toContain(password);
});
