import { securityMessages } from "@gradecast/contract/account-security";
import { messages } from "@gradecast/contract/messages";
import { describe, expect, it } from "vitest";
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
import { auditOf, dialects, errorOf } from "../support/helpers.ts";
import { testAppFor, testClock } from "../support/shared-app.ts";

// PATCH /api/me/email (issue 18): behind re-authentication, the new address verifies itself
// with a code sent there, the old address is told, the change is audited. The server's clock is
// the test's, so the 10-minute window passes without waiting.

const minute = 60_000;

describe.each(dialects)("changing one's email address (%s)", (dialect) => {
  const clock = testClock();
  const t = testAppFor(dialect, { services: { now: clock.now } });

  const inject = (
    method: "GET" | "POST" | "PATCH",
    url: string,
    auth: { authorization: string },
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: auth,
      ...(payload ? { payload } : {}),
    });
  const changeTo = (who: SignedInUser, email: unknown) =>
    inject("PATCH", "/api/me/email", who.auth, { email });

  /** A fresh ID token for the same session after the clock moved past its 15 minutes. */
  async function renewed(who: SignedInUser) {
    const res = await sendRefreshCookie(t, "refresh", who.refreshToken, randomIp());
    expect(res.statusCode, res.body).toBe(200);
    who.auth = { authorization: `Bearer ${(res.json() as { token: string }).token}` };
    who.refreshToken = res.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "";
  }

  /** Signed in 11 minutes ago, past the 10-minute window, with a renewed ID token. */
  async function signedInLongAgo(role: "student" | "admin") {
    clock.reset();
    const who = await signIn(t, role);
    clock.tick(11 * minute);
    await renewed(who);
    return who;
  }

  async function row(id: string) {
    return t.database.db
      .selectFrom("users")
      .select(["email", "email_verified"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  it("right after sign-in: changes it, the account is unverified until the new address confirms, the old one is told, audited", async () => {
    clock.reset();
    const owner = await signIn(t, "student");
    const next = uniqueEmail("moved");
    const res = await changeTo(owner, `  ${next.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { user: { email: string; emailVerified: boolean }; message: string };
    expect(body.user).toMatchObject({ email: next, emailVerified: false });
    expect(body.message).toBe(securityMessages.emailChanged(next));
    expect(await row(owner.user.uid)).toEqual({ email: next, email_verified: false });

    // Data about other people waits for the new address to be verified.
    const blocked = await inject("GET", "/api/analytics/embed", owner.auth);
    expect(blocked.statusCode).toBe(403);
    expect(errorOf(blocked.body).code).toBe("email_not_verified");

    const told = await waitForMail(t.dataDir, owner.email, /was changed to/);
    expect(told.text).toContain(next);
    const code = codeOf(await waitForMail(t.dataDir, next, /code is \d{6}/));
    const verify = await inject("POST", "/api/verify", owner.auth, { code });
    expect(verify.statusCode, verify.body).toBeLessThan(300);
    expect(await row(owner.user.uid)).toEqual({ email: next, email_verified: true });

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

  it("needs a sign-in or re-authentication within 10 minutes (403 reauth_required), then works", async () => {
    const owner = await signedInLongAgo("student");
    const next = uniqueEmail("late");
    const stale = await changeTo(owner, next);
    expect(stale.statusCode).toBe(403);
    expect(errorOf(stale.body)).toMatchObject({
      code: "reauth_required",
      message: securityMessages.reauthRequired,
    });
    expect((await row(owner.user.uid)).email).toBe(owner.email);

    const reauth = await inject("POST", "/api/auth/reauth", owner.auth, { password: testPassword });
    expect(reauth.statusCode).toBe(204);
    expect((await changeTo(owner, next)).statusCode).toBe(200);
    expect((await row(owner.user.uid)).email).toBe(next);
  });

  it("with MFA on, re-authentication needs the code too", async () => {
    const admin = await signedInLongAgo("admin");
    const next = uniqueEmail("mfa");
    expect((await changeTo(admin, next)).statusCode).toBe(403);
    const noCode = await inject("POST", "/api/auth/reauth", admin.auth, { password: testPassword });
    expect(noCode.statusCode).toBe(401);
    expect((await changeTo(admin, next)).statusCode).toBe(403);
    const withCode = await inject("POST", "/api/auth/reauth", admin.auth, {
      password: testPassword,
      code: totpCode(admin.mfaSecret!, clock.now()),
    });
    expect(withCode.statusCode, withCode.body).toBe(204);
    const ok = await changeTo(admin, next);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await row(admin.user.uid)).email).toBe(next);
  });

  it("refuses an address another account uses (409, as sign-up does) and changes nothing", async () => {
    clock.reset();
    const owner = await signIn(t, "student");
    const other = await signIn(t, "teacher");
    const res = await changeTo(owner, other.email.toUpperCase());
    expect(res.statusCode).toBe(409);
    expect(errorOf(res.body)).toMatchObject({
      code: "conflict",
      message: messages.emailTaken,
      fields: { email: messages.emailTaken },
    });
    expect(await row(owner.user.uid)).toEqual({ email: owner.email, email_verified: true });
  });

  it("refuses a bad address, a missing one and its own with a clear message, changing nothing", async () => {
    clock.reset();
    const owner = await signIn(t, "student");
    for (const email of ["not an email", "", 42, null, `${"a".repeat(250)}@example.com`]) {
      const res = await changeTo(owner, email);
      expect(res.statusCode, String(email)).toBe(400);
      const error = errorOf(res.body);
      expect(error.code).toBe("validation_failed");
      expect(error.fields?.email).toBeTruthy();
    }
    const missing = await inject("PATCH", "/api/me/email", owner.auth, {});
    expect(missing.statusCode).toBe(400);
    const same = await changeTo(owner, owner.email);
    expect(same.statusCode).toBe(400);
    expect(errorOf(same.body).fields?.email).toBe(securityMessages.emailUnchanged);
    expect(await row(owner.user.uid)).toEqual({ email: owner.email, email_verified: true });
  });

  it("is refused without a sign-in", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/me/email",
      payload: { email: uniqueEmail() },
    });
    expect(res.statusCode).toBe(401);
  });
});
