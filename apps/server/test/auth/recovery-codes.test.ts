import { createHash } from "node:crypto";
import * as argon2 from "@node-rs/argon2";
import { describe, expect, vi } from "vitest";
import { enrolMfa, postLogin, randomIp, signIn } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Issue 26 (ASVS 6.5.2): recovery codes have about 49 bits, too few for a plain SHA-256 to
// protect them in a copy of the database. They are stored as argon2id hashes, found by a short
// id (their first two characters, not secret) so that a code typed costs one hash check, never
// ten. Codes stored before (SHA-256, no id) still work, once each, until MFA is enrolled again.
const tests = apiTests({ env: { RATE_LIMITS: "off" } });

async function challengeOf(t: TestApp, email: string): Promise<string> {
  const res = await postLogin(t, email);
  expect(res.statusCode).toBe(200);
  return (res.json() as { challenge: string }).challenge;
}

function mfaStep(t: TestApp, challenge: string, code: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/mfa",
    remoteAddress: randomIp(),
    payload: { challenge, code },
  });
}

describe.each(dialects)("recovery codes (%s)", (dialect) => {
  const test = tests[dialect];

  test("are stored as argon2id hashes, work once each, and a try costs at most one hash check", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    const { recoveryCodes } = await enrolMfa(t, owner.auth);
    const rows = await t.database.db
      .selectFrom("mfa_recovery_codes")
      .selectAll()
      .where("user_id", "=", owner.user.uid)
      .execute();
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row.code_hash).toMatch(/^\$argon2id\$/);
    const stored = JSON.stringify(rows);
    for (const code of recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }

    const verify = vi.mocked(argon2.verify);
    const code = recoveryCodes[3] ?? "";
    const first = await challengeOf(t, owner.email);
    verify.mockClear();
    const used = await mfaStep(t, first, code.toUpperCase());
    expect(used.statusCode, used.body).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);

    // Used up; and a wrong code, whatever it is, is one hash check at most.
    const challenge = await challengeOf(t, owner.email);
    verify.mockClear();
    const again = await mfaStep(t, challenge, code);
    expect(again.statusCode).toBe(401);
    expect(errorOf(again.body).code).toBe("invalid_code");
    const wrong = `${(recoveryCodes[5] ?? "").slice(0, 2)}zzz-zzzzz`;
    expect((await mfaStep(t, challenge, wrong)).statusCode).toBe(401);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(2);

    // The others still work.
    const other = await mfaStep(t, await challengeOf(t, owner.email), recoveryCodes[7] ?? "");
    expect(other.statusCode).toBe(200);
  });

  test("a code stored before (SHA-256) still signs in once", async ({ t }) => {
    const owner = await signIn(t, "student");
    await enrolMfa(t, owner.auth);
    const legacy = "abcde-fghjk";
    const normalised = legacy.replace("-", "");
    await t.database.db
      .insertInto("mfa_recovery_codes")
      .values({
        user_id: owner.user.uid,
        code_hash: createHash("sha256")
          .update(`recovery:${owner.user.uid}:${normalised}`)
          .digest("hex"),
      })
      .execute();
    const first = await mfaStep(t, await challengeOf(t, owner.email), legacy);
    expect(first.statusCode, first.body).toBe(200);
    const second = await mfaStep(t, await challengeOf(t, owner.email), legacy);
    expect(second.statusCode).toBe(401);
  });
});
