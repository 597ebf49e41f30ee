import type { AuditPage } from "@gradecast/contract/admin";
import { describe, expect } from "vitest";
import { randomIp } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";

// Issue 26: a password typed into the login form's email field matched no account and was
// stored in the audit log as the actor's email, where admins read it. An input that matches no
// account is kept only as a keyed digest (HMAC under a key derived from the server's signing
// key): admins can still tell repeated tries at the same input apart, and never read it.
const tests = apiTests({ env: { RATE_LIMITS: "off" } });

describe.each(dialects)("failed sign-ins in the audit log (%s)", (dialect) => {
  const test = tests[dialect];

  test("a password typed as the email is not in the audit log admins read", async ({
    t,
    admin,
  }) => {
    const typed = `Secret-Passphrase-${randomIp()}`;
    const other = `Another-Passphrase-${randomIp()}`;
    for (const email of [typed, typed, other]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: randomIp(),
        payload: { email, password: "whatever was typed next" },
      });
      expect(res.statusCode).toBe(401);
    }

    const res = await t.app.inject({
      method: "GET",
      url: "/api/admin/audit?action=auth.login_failed",
      headers: admin.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.toLowerCase()).not.toContain("passphrase");
    const stored = await t.database.db.selectFrom("audit_log").selectAll().execute();
    expect(JSON.stringify(stored).toLowerCase()).not.toContain("passphrase");

    const unknown = (res.json() as AuditPage).items.filter(
      (e) => (e.details as { reason?: string } | null)?.reason === "unknown_email",
    );
    expect(unknown.length).toBeGreaterThanOrEqual(3);
    const mine = unknown.slice(0, 3);
    for (const entry of mine) expect(entry.actorEmail ?? null).toBeNull();
    // The same input gives the same digest, another input another one.
    const digests = mine.map((e) => (e.details as { inputDigest?: string }).inputDigest);
    expect(digests[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(digests[2]).toBe(digests[1]);
    expect(digests[0]).not.toBe(digests[1]);
  });
});
