import { describe, expect, it } from "vitest";
import { readOutbox, signIn } from "../support/accounts.ts";
import { dialects, errorOf } from "../support/helpers.ts";
import { testAppFor } from "../support/shared-app.ts";

// Issue 26: forgot-password was limited by email only (5 an hour), so five requests by a
// stranger kept the owner from getting a link for an hour. The limit is now per client address
// and email: the stranger's address runs out, the owner's does not. Behind one trusted proxy,
// as a school's deployment runs (TRUST_PROXY=1: the client is the address the proxy appends).
describe.each(dialects)("forgot-password limit (%s)", (dialect) => {
  const t = testAppFor(dialect, { env: { TRUST_PROXY: "1" } });

  const forgot = (email: string, client: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": client },
      payload: { email },
    });
  const resetMailsTo = async (email: string) =>
    (await readOutbox(t.dataDir)).filter(
      (m) => m.to.toLowerCase().includes(email) && /reset-password\?token=/.test(m.text),
    );
  async function waitForResetMails(email: string, count: number) {
    const deadline = Date.now() + 5_000;
    while ((await resetMailsTo(email)).length < count && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return resetMailsTo(email);
  }

  it("a stranger's requests from another address do not stop the owner's", async () => {
    const owner = await signIn(t, "student");
    const stranger = "198.51.100.26";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await forgot(owner.email, stranger)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect(errorOf((await forgot(owner.email, stranger)).body).code).toBe("rate_limited");
    await waitForResetMails(owner.email, 5);

    const mine = await forgot(owner.email, "203.0.113.8");
    expect(mine.statusCode).toBe(202);
    expect(await waitForResetMails(owner.email, 6)).toHaveLength(6);
  });
});
