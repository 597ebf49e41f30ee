import { securityMessages } from "@gradecast/contract/account-security";
import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import {
  codeOf,
  randomIp,
  type SignedInUser,
  sendRefreshCookie,
  signIn,
  testPassword,
  totpCode,
  uniqueEmail,
  waitForMail,
} from "../support/accounts.ts";
import { callApi } from "../support/api-call.ts";
import { apiTests, type TestClock } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// PATCH /api/me/email (issue 18): behind re-authentication, the new address verifies itself
// with a code sent there, the old address is told, the change is audited. The server's clock is
// the test's, so the 10-minute window passes without waiting.

const minute = 60_000;

const tests = apiTests({ clock: true });

describe.each(dialects)("changing one's email address (%s)", (dialect) => {
  const test = tests[dialect];
  test.beforeEach(({ clock }) => clock.reset());

  const changeTo = (t: TestApp, who: SignedInUser, email: unknown) =>
    callApi(t, "PATCH", "/api/me/email", who.auth, { email });

  /** A fresh ID token for the same session after the clock moved past its 15 minutes. */
  async function renewed(t: TestApp, who: SignedInUser) {
    const res = await sendRefreshCookie(t, "refresh", who.refreshToken, randomIp());
    expect(res.statusCode, res.body).toBe(200);
    who.auth = { authorization: `Bearer ${(res.json() as { token: string }).token}` };
    who.refreshToken = res.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";
  }

  /** Signed in 11 minutes ago, past the 10-minute window, with a renewed ID token. */
  async function signedInLongAgo(t: TestApp, clock: TestClock, role: "student" | "admin") {
    const who = await signIn(t, role);
    clock.tick(11 * minute);
    await renewed(t, who);
    return who;
  }

  async function row(t: TestApp, id: string) {
    return t.database.db
      .selectFrom("users")
      .select(["email", "email_verified"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  test("right after sign-in: changes it, the account is unverified until the new address confirms, the old one is told, audited", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    const next = uniqueEmail("moved");
    const res = await changeTo(t, owner, `  ${next.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { user: { email: string; emailVerified: boolean }; message: string };
    expect(body.user).toMatchObject({ email: next, emailVerified: false });
    expect(body.message).toBe(securityMessages.emailChanged(next));
    expect(await row(t, owner.user.uid)).toEqual({ email: next, email_verified: false });

    // Data about other people waits for the new address to be verified.
    const blocked = await callApi(t, "GET", "/api/analytics/embed", owner.auth);
    expect(blocked.statusCode).toBe(403);
    expect(errorOf(blocked.body).code).toBe("email_not_verified");

    const told = await waitForMail(t.dataDir, owner.email, /was changed to/);
    expect(told.text).toContain(next);
    const code = codeOf(await waitForMail(t.dataDir, next, /code is \d{6}/));
    const verify = await callApi(t, "POST", "/api/verify", owner.auth, { code });
    expect(verify.statusCode, verify.body).toBeLessThan(300);
    expect(await row(t, owner.user.uid)).toEqual({ email: next, email_verified: true });

    // The new address signs in; the old one no longer does.
    const login = (email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: randomIp(),
        payload: { email, password: testPassword },
      });
    expect((await login(next)).statusCode).toBe(200);
    expect((await login(owner.email)).statusCode).toBe(401);

    const audit = await auditOf(t, "auth.email_changed", owner.user.uid);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({ from: owner.email, to: next });
  });

  test("needs a sign-in or re-authentication within 10 minutes (403 reauth_required), then works", async ({
    t,
    clock,
  }) => {
    const owner = await signedInLongAgo(t, clock, "student");
    const next = uniqueEmail("late");
    const stale = await changeTo(t, owner, next);
    expect(stale.statusCode).toBe(403);
    expect(errorOf(stale.body)).toMatchObject({
      code: "reauth_required",
      message: securityMessages.reauthRequired,
    });
    expect((await row(t, owner.user.uid)).email).toBe(owner.email);

    const reauth = await callApi(t, "POST", "/api/auth/reauth", owner.auth, {
      password: testPassword,
    });
    expect(reauth.statusCode).toBe(204);
    expect((await changeTo(t, owner, next)).statusCode).toBe(200);
    expect((await row(t, owner.user.uid)).email).toBe(next);
  });

  test("with MFA on, re-authentication needs the code too", async ({ t, clock }) => {
    const admin = await signedInLongAgo(t, clock, "admin");
    const next = uniqueEmail("mfa");
    expect((await changeTo(t, admin, next)).statusCode).toBe(403);
    const noCode = await callApi(t, "POST", "/api/auth/reauth", admin.auth, {
      password: testPassword,
    });
    expect(noCode.statusCode).toBe(401);
    expect((await changeTo(t, admin, next)).statusCode).toBe(403);
    const withCode = await callApi(t, "POST", "/api/auth/reauth", admin.auth, {
      password: testPassword,
      code: totpCode(admin.mfaSecret!, clock.now()),
    });
    expect(withCode.statusCode, withCode.body).toBe(204);
    const ok = await changeTo(t, admin, next);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await row(t, admin.user.uid)).email).toBe(next);
  });

  test("refuses an address another account uses (409, as sign-up does) and changes nothing", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    const other = await signIn(t, "teacher");
    const res = await changeTo(t, owner, other.email.toUpperCase());
    expect(res.statusCode).toBe(409);
    expect(errorOf(res.body)).toMatchObject({
      code: "conflict",
      message: messages.emailTaken,
      fields: { email: messages.emailTaken },
    });
    expect(await row(t, owner.user.uid)).toEqual({ email: owner.email, email_verified: true });
  });

  test("refuses a bad address, a missing one and its own with a clear message, changing nothing", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    for (const email of ["not an email", "", 42, null, `${"a".repeat(250)}@example.com`]) {
      const res = await changeTo(t, owner, email);
      expect(res.statusCode, String(email)).toBe(400);
      const error = errorOf(res.body);
      expect(error.code).toBe("validation_failed");
      expect(error.fields?.email).toBeTruthy();
    }
    const missing = await callApi(t, "PATCH", "/api/me/email", owner.auth, {});
    expect(missing.statusCode).toBe(400);
    const same = await changeTo(t, owner, owner.email);
    expect(same.statusCode).toBe(400);
    expect(errorOf(same.body).fields?.email).toBe(securityMessages.emailUnchanged);
    expect(await row(t, owner.user.uid)).toEqual({ email: owner.email, email_verified: true });
  });

  test("is refused without a sign-in", async ({ t }) => {
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/me/email",
      payload: { email: uniqueEmail() },
    });
    expect(res.statusCode).toBe(401);
  });
});
