import { describe, expect } from "vitest";
import { readOutbox, signIn } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Issue 26: forgot-password was limited by email only (5 an hour), so five requests by a
// stranger kept the owner from getting a link for an hour. The limit is now per client address
// and email: the stranger's address runs out, the owner's does not. Behind one trusted proxy,
// as a school's deployment runs (TRUST_PROXY=1: the client is the address the proxy appends).
const tests = apiTests({ env: { TRUST_PROXY: "1" } });

describe.each(dialects)("forgot-password limit (%s)", (dialect) => {
  const test = tests[dialect];

  const forgot = (t: TestApp, email: string, client: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": client },
      payload: { email },
    });
  const resetMailsTo = async (t: TestApp, email: string) =>
    (await readOutbox(t.dataDir)).filter(
      (m) => m.to.toLowerCase().includes(email) && /reset-password\?token=/.test(m.text),
    );
  async function waitForResetMails(t: TestApp, email: string, count: number) {
    const deadline = Date.now() + 5_000;
    while ((await resetMailsTo(t, email)).length < count && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return resetMailsTo(t, email);
  }

  test("a stranger's requests from another address do not stop the owner's", async ({ t }) => {
    const owner = await signIn(t, "student");
    const stranger = "198.51.100.26";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await forgot(t, owner.email, stranger)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect(errorOf((await forgot(t, owner.email, stranger)).body).code).toBe("rate_limited");
    await waitForResetMails(t, owner.email, 5);

    const mine = await forgot(t, owner.email, "203.0.113.8");
    expect(mine.statusCode).toBe(202);
    expect(await waitForResetMails(t, owner.email, 6)).toHaveLength(6);
  });
});
