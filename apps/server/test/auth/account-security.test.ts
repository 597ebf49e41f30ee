import { securityMessages } from "@gradecast/contract/account-security";
import { describe, expect } from "vitest";
import {
  enrolMfa,
  randomIp,
  type SignedInUser,
  signIn,
  testPassword,
  totpCode,
  waitForMail,
} from "../support/accounts.ts";
import { apiTest, apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Sessions a user can see and end, their idle and absolute limits, TOTP MFA with recovery
// codes, and re-authentication before sensitive changes (issue 18), attacked as a reviewer would.
// The server's clock is the test's: `clock` moves days and minutes without waiting.

const day = 86_400_000;
const minute = 60_000;

const tests = apiTests({ clock: true });

describe.each(dialects)("account security (%s)", (dialect) => {
  const test = tests[dialect];
  test.beforeEach(({ clock }) => clock.reset());

  const inject = (
    t: TestApp,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    opts: { auth?: { authorization: string }; payload?: object; cookie?: string; ua?: string } = {},
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: randomIp(),
      headers: { ...(opts.auth ?? {}), ...(opts.ua ? { "user-agent": opts.ua } : {}) },
      ...(opts.payload ? { payload: opts.payload } : {}),
      ...(opts.cookie ? { cookies: { gradecast_refresh: opts.cookie } } : {}),
    });

  async function login(t: TestApp, email: string, password: string, ua = "Test browser") {
    const res = await inject(t, "POST", "/api/auth/login", { payload: { email, password }, ua });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }
  function sessionOf(res: { json(): unknown; cookies: { name: string; value: string }[] }) {
    const body = res.json() as { token: string };
    return {
      auth: { authorization: `Bearer ${body.token}` },
      refresh: res.cookies.find((c) => c.name === "gradecast_refresh")?.value ?? "",
    };
  }
  const refresh = (t: TestApp, cookie: string) =>
    inject(t, "POST", "/api/auth/refresh", { cookie });

  async function auditActions(t: TestApp, target: string): Promise<string[]> {
    const rows = await t.database.db
      .selectFrom("audit_log")
      .select("action")
      .where("target", "=", target)
      .execute();
    return rows.map((r) => r.action);
  }

  describe("sessions", () => {
    test("lists each session with its address and browser; one ended from the list can neither refresh nor call", async ({
      t,
    }) => {
      const owner = await signIn(t, "student");
      const phone = sessionOf(await login(t, owner.email, owner.password, "Phone browser 1.0"));
      const list = await inject(t, "GET", "/api/me/sessions", { auth: owner.auth });
      expect(list.statusCode).toBe(200);
      expect(list.headers["cache-control"]).toBe("no-store");
      const { sessions } = list.json() as {
        sessions: { id: string; current: boolean; userAgent: string | null; ip: string | null }[];
      };
      expect(sessions).toHaveLength(2);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      const other = sessions.find((s) => !s.current);
      expect(other?.userAgent).toBe("Phone browser 1.0");
      expect(other?.ip).toMatch(/^10\./);

      const end = await inject(t, "DELETE", `/api/me/sessions/${other?.id}`, { auth: owner.auth });
      expect(end.statusCode).toBe(204);
      expect((await refresh(t, phone.refresh)).statusCode).toBe(401);
      expect((await inject(t, "GET", "/api/me", { auth: phone.auth })).statusCode).toBe(401);
      // The caller's own session goes on.
      expect((await inject(t, "GET", "/api/me", { auth: owner.auth })).statusCode).toBe(200);
      expect((await refresh(t, owner.refreshToken)).statusCode).toBe(200);
      // Ending it again, or another user's session, finds nothing.
      expect(
        (await inject(t, "DELETE", `/api/me/sessions/${other?.id}`, { auth: owner.auth }))
          .statusCode,
      ).toBe(404);
      const stranger = await signIn(t, "student");
      const mine = (
        (await inject(t, "GET", "/api/me/sessions", { auth: stranger.auth })).json() as {
          sessions: { id: string }[];
        }
      ).sessions[0];
      expect(
        (await inject(t, "DELETE", `/api/me/sessions/${mine?.id}`, { auth: owner.auth }))
          .statusCode,
      ).toBe(404);
      expect((await inject(t, "GET", "/api/me", { auth: stranger.auth })).statusCode).toBe(200);
      expect(await auditActions(t, owner.user.uid)).toContain("auth.session_ended");
    });

    test("ends every other session, and an admin ends all sessions of an account (audited)", async ({
      t,
    }) => {
      const owner = await signIn(t, "teacher");
      const laptop = sessionOf(await login(t, owner.email, owner.password));
      const tablet = sessionOf(await login(t, owner.email, owner.password));
      expect((await inject(t, "DELETE", "/api/me/sessions", { auth: owner.auth })).statusCode).toBe(
        204,
      );
      expect((await refresh(t, laptop.refresh)).statusCode).toBe(401);
      expect((await refresh(t, tablet.refresh)).statusCode).toBe(401);
      expect((await inject(t, "GET", "/api/me", { auth: owner.auth })).statusCode).toBe(200);

      const admin = await signIn(t, "admin");
      const byAdmin = await inject(t, "DELETE", `/api/admin/users/${owner.user.uid}/sessions`, {
        auth: admin.auth,
      });
      expect(byAdmin.statusCode).toBe(204);
      expect((await inject(t, "GET", "/api/me", { auth: owner.auth })).statusCode).toBe(401);
      expect((await refresh(t, owner.refreshToken)).statusCode).toBe(401);
      expect(await auditActions(t, owner.user.uid)).toContain("admin.sessions_ended");
      // Not for anyone else.
      const other = await signIn(t, "teacher");
      expect(
        (
          await inject(t, "DELETE", `/api/admin/users/${other.user.uid}/sessions`, {
            auth: other.auth,
          })
        ).statusCode,
      ).toBe(403);
    });

    test("refreshing past 30 days from the sign-in fails, however often it refreshed", async ({
      t,
      clock,
    }) => {
      const owner = await signIn(t, "student");
      let cookie = owner.refreshToken;
      for (let d = 6; d < 30; d += 6) {
        clock.tick(6 * day);
        const res = await refresh(t, cookie);
        expect(res.statusCode, `day ${d}`).toBe(200);
        cookie = sessionOf(res).refresh;
      }
      clock.tick(6 * day + minute); // day 30 and a minute
      const late = await refresh(t, cookie);
      expect(late.statusCode).toBe(401);
    });

    test("a session unused for 7 days ends; used within them it goes on", async ({ t, clock }) => {
      const owner = await signIn(t, "student");
      clock.tick(6 * day);
      const used = await refresh(t, owner.refreshToken);
      expect(used.statusCode).toBe(200);
      clock.tick(7 * day + minute);
      expect((await refresh(t, sessionOf(used).refresh)).statusCode).toBe(401);
    });
  });

  describe("MFA", () => {
    test("enrolment, sign-in with a code, a code used once, a recovery code used once, a reset keeps it", async ({
      t,
      clock,
    }) => {
      const owner = await signIn(t, "student");
      const start = await inject(t, "POST", "/api/me/mfa/totp", { auth: owner.auth });
      expect(start.statusCode).toBe(200);
      const { secret, otpauthUrl } = start.json() as { secret: string; otpauthUrl: string };
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Gradecast:/);
      expect(otpauthUrl).toContain(`secret=${secret}`);
      // Stored encrypted, never as the secret itself.
      const stored = await t.database.db
        .selectFrom("users")
        .select("mfa_pending_secret")
        .where("id", "=", owner.user.uid)
        .executeTakeFirstOrThrow();
      expect(stored.mfa_pending_secret).not.toContain(secret);

      const wrong = await inject(t, "POST", "/api/me/mfa/totp/confirm", {
        auth: owner.auth,
        payload: { code: "000000" === totpCode(secret, clock.now()) ? "111111" : "000000" },
      });
      expect(wrong.statusCode).toBe(401);
      expect(errorOf(wrong.body).code).toBe("invalid_code");
      // No recovery code exists yet: the message does not offer one (issue 28).
      expect(errorOf(wrong.body).message).toBe(securityMessages.mfaEnrolmentInvalidCode);
      expect(errorOf(wrong.body).message).not.toMatch(/recovery/i);
      const confirm = await inject(t, "POST", "/api/me/mfa/totp/confirm", {
        auth: owner.auth,
        payload: { code: totpCode(secret, clock.now()) },
      });
      expect(confirm.statusCode).toBe(200);
      const { recoveryCodes } = confirm.json() as { recoveryCodes: string[] };
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      const hashes = await t.database.db
        .selectFrom("mfa_recovery_codes")
        .select("code_hash")
        .where("user_id", "=", owner.user.uid)
        .execute();
      expect(hashes.map((h) => h.code_hash)).not.toContain(recoveryCodes[0]);

      // The password alone no longer signs in.
      clock.tick(minute);
      const first = await login(t, owner.email, owner.password);
      const pending = first.json() as { mfaRequired: boolean; challenge: string; token?: string };
      expect(pending.mfaRequired).toBe(true);
      expect(pending.token).toBeUndefined();
      expect(first.cookies.find((c) => c.name === "gradecast_refresh")).toBeUndefined();
      const code = totpCode(secret, clock.now());
      const done = await inject(t, "POST", "/api/auth/mfa", {
        payload: { challenge: pending.challenge, code },
      });
      expect(done.statusCode, done.body).toBe(200);
      expect((done.json() as { token: string }).token).toBeTruthy();
      // The same code a second time (seen over a shoulder) does not work.
      const again = (await login(t, owner.email, owner.password)).json() as { challenge: string };
      const replay = await inject(t, "POST", "/api/auth/mfa", {
        payload: { challenge: again.challenge, code },
      });
      expect(replay.statusCode).toBe(401);
      expect(errorOf(replay.body).message).toBe(securityMessages.mfaInvalidCode);

      // A recovery code works once, typed in capitals and without its dash too.
      const recovery = recoveryCodes[0] ?? "";
      const viaRecovery = await inject(t, "POST", "/api/auth/mfa", {
        payload: { challenge: again.challenge, code: recovery.replace("-", "").toUpperCase() },
      });
      expect(viaRecovery.statusCode).toBe(200);
      const third = (await login(t, owner.email, owner.password)).json() as { challenge: string };
      expect(
        (
          await inject(t, "POST", "/api/auth/mfa", {
            payload: { challenge: third.challenge, code: recovery },
          })
        ).statusCode,
      ).toBe(401);
      // A made-up challenge is refused.
      expect(
        (
          await inject(t, "POST", "/api/auth/mfa", {
            payload: { challenge: "x.y.z", code: "123456" },
          })
        ).statusCode,
      ).toBe(401);
      // An expired challenge too.
      clock.tick(6 * minute);
      const expired = await inject(t, "POST", "/api/auth/mfa", {
        payload: { challenge: third.challenge, code: totpCode(secret, clock.now()) },
      });
      expect(errorOf(expired.body).message).toBe(securityMessages.mfaChallengeExpired);

      // A password reset (from the email) never turns MFA off.
      await inject(t, "POST", "/api/auth/forgot-password", { payload: { email: owner.email } });
      const token = await resetTokenOf(t, owner.email);
      const reset = await inject(t, "POST", "/api/auth/reset-password", {
        payload: { token, password: "a brand new long passphrase" },
      });
      expect(reset.statusCode).toBe(200);
      const afterReset = (await login(t, owner.email, "a brand new long passphrase")).json() as {
        mfaRequired?: boolean;
      };
      expect(afterReset.mfaRequired).toBe(true);
    });

    test("10 parallel wrong codes, then more: no more than the limit are checked", async ({
      t,
      clock,
    }) => {
      const owner = await signIn(t, "student");
      const { secret } = await enrolMfa(t, owner.auth, clock.now());
      clock.tick(minute);
      const { challenge } = (await login(t, owner.email, owner.password)).json() as {
        challenge: string;
      };
      const right = totpCode(secret, clock.now());
      const wrongCode = right === "123456" ? "654321" : "123456";
      const statuses = await Promise.all(
        Array.from({ length: 25 }, () =>
          inject(t, "POST", "/api/auth/mfa", { payload: { challenge, code: wrongCode } }).then(
            (r) => r.statusCode,
          ),
        ),
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
      // Even the right code now waits.
      const late = await inject(t, "POST", "/api/auth/mfa", {
        payload: { challenge, code: right },
      });
      expect(late.statusCode).toBe(429);
      expect(Number(late.headers["retry-after"])).toBeGreaterThan(0);
    });

    test("an admin who has not enrolled can only enrol; then everything is open", async ({
      t,
      clock,
    }) => {
      const admin = await signIn(t, "admin", { mfa: false });
      const users = await inject(t, "GET", "/api/admin/users", { auth: admin.auth });
      expect(users.statusCode).toBe(403);
      expect(errorOf(users.body).code).toBe("mfa_enrolment_required");
      expect(errorOf(users.body).message).toBe(securityMessages.mfaEnrolmentRequired);
      expect((await inject(t, "GET", "/api/reports", { auth: admin.auth })).statusCode).toBe(403);
      expect((await inject(t, "GET", "/api/me", { auth: admin.auth })).statusCode).toBe(200);
      const status = (await inject(t, "GET", "/api/me/mfa", { auth: admin.auth })).json() as {
        enabled: boolean;
        required: boolean;
      };
      expect(status).toMatchObject({ enabled: false, required: true });
      await enrolMfa(t, admin.auth, clock.now());
      expect((await inject(t, "GET", "/api/admin/users", { auth: admin.auth })).statusCode).toBe(
        200,
      );
    });

    test("turning MFA off needs re-authentication; an admin resets another user's MFA (audited)", async ({
      t,
      clock,
    }) => {
      const owner = await signIn(t, "teacher");
      const { secret } = await enrolMfa(t, owner.auth, clock.now());
      clock.tick(11 * minute);
      const off = await inject(t, "DELETE", "/api/me/mfa", { auth: owner.auth });
      expect(off.statusCode).toBe(403);
      expect(errorOf(off.body).code).toBe("reauth_required");
      // The password alone is not enough when MFA is on.
      const noCode = await inject(t, "POST", "/api/auth/reauth", {
        auth: owner.auth,
        payload: { password: owner.password },
      });
      expect(noCode.statusCode).toBe(401);
      const ok = await inject(t, "POST", "/api/auth/reauth", {
        auth: owner.auth,
        payload: { password: owner.password, code: totpCode(secret, clock.now()) },
      });
      expect(ok.statusCode, ok.body).toBe(204);
      expect((await inject(t, "DELETE", "/api/me/mfa", { auth: owner.auth })).statusCode).toBe(204);
      const plain = (await login(t, owner.email, owner.password)).json() as { token?: string };
      expect(plain.token).toBeTruthy();

      // An admin resets it for another user, after re-authenticating.
      const other = await signIn(t, "student");
      await enrolMfa(t, other.auth, clock.now());
      const admin = await signIn(t, "admin", { mfa: false });
      const adminSecret = (await enrolMfa(t, admin.auth, clock.now())).secret;
      clock.tick(11 * minute);
      const stale = await inject(t, "DELETE", `/api/admin/users/${other.user.uid}/mfa`, {
        auth: admin.auth,
      });
      expect(errorOf(stale.body).code).toBe("reauth_required");
      const adminCode = totpCode(adminSecret, clock.now());
      expect(
        (
          await inject(t, "POST", "/api/auth/reauth", {
            auth: admin.auth,
            payload: { password: admin.password, code: adminCode },
          })
        ).statusCode,
      ).toBe(204);
      const reset = await inject(t, "DELETE", `/api/admin/users/${other.user.uid}/mfa`, {
        auth: admin.auth,
      });
      expect(reset.statusCode).toBe(200);
      expect(await auditActions(t, other.user.uid)).toContain("admin.mfa_reset");
      expect(
        ((await login(t, other.email, other.password)).json() as { token?: string }).token,
      ).toBeTruthy();
    });
  });

  describe("re-authentication", () => {
    /** A fresh ID token of the same session (they last 15 minutes; the session goes on). */
    async function renewed(t: TestApp, user: SignedInUser): Promise<void> {
      const res = await refresh(t, user.refreshToken);
      expect(res.statusCode, res.body).toBe(200);
      const next = sessionOf(res);
      user.auth = next.auth;
      user.refreshToken = next.refresh;
    }

    test("is required 10 minutes after sign-in, then honoured for 10 minutes", async ({
      t,
      clock,
    }) => {
      const owner = await signIn(t, "student");
      const change = (newPassword: string, currentPassword: string) =>
        inject(t, "POST", "/api/me/password", {
          auth: owner.auth,
          payload: { currentPassword, newPassword },
        });
      clock.tick(11 * minute);
      await renewed(t, owner);
      const stale = await change("another long passphrase", testPassword);
      expect(stale.statusCode).toBe(403);
      expect(errorOf(stale.body).code).toBe("reauth_required");
      expect(errorOf(stale.body).message).toBe(securityMessages.reauthRequired);

      const wrong = await inject(t, "POST", "/api/auth/reauth", {
        auth: owner.auth,
        payload: { password: "not my password" },
      });
      expect(wrong.statusCode).toBe(401);
      expect(errorOf(wrong.body).fields?.password).toBe(securityMessages.wrongPassword);
      expect((await change("another long passphrase", testPassword)).statusCode).toBe(403);

      const ok = await inject(t, "POST", "/api/auth/reauth", {
        auth: owner.auth,
        payload: { password: testPassword },
      });
      expect(ok.statusCode).toBe(204);
      clock.tick(9 * minute);
      await renewed(t, owner);
      expect((await change("another long passphrase", testPassword)).statusCode).toBe(204);
      clock.tick(2 * minute);
      await renewed(t, owner);
      const late = await change("yet another long passphrase", "another long passphrase");
      expect(errorOf(late.body).code).toBe("reauth_required");
    });

    test("an admin confirms once, then changes several roles for 10 minutes", async ({
      t,
      clock,
    }) => {
      const admin = await signIn(t, "admin");
      const a = await signIn(t, "teacher", { pending: true });
      const b = await signIn(t, "teacher", { pending: true });
      clock.tick(11 * minute);
      await renewed(t, admin);
      const approve = (uid: string) =>
        inject(t, "PATCH", `/api/admin/users/${uid}`, {
          auth: admin.auth,
          payload: { role: "teacher" },
        });
      expect(errorOf((await approve(a.user.uid)).body).code).toBe("reauth_required");
      const reauth = await inject(t, "POST", "/api/auth/reauth", {
        auth: admin.auth,
        payload: { password: admin.password, code: totpCode(admin.mfaSecret ?? "", clock.now()) },
      });
      expect(reauth.statusCode).toBe(204);
      expect((await approve(a.user.uid)).statusCode).toBe(200);
      clock.tick(9 * minute);
      await renewed(t, admin);
      expect((await approve(b.user.uid)).statusCode).toBe(200);
      // Disabling without a role change is not among the calls that need it.
      clock.tick(2 * minute);
      const disable = await inject(t, "PATCH", `/api/admin/users/${b.user.uid}`, {
        auth: admin.auth,
        payload: { disabled: true },
      });
      expect(disable.statusCode).toBe(200);
    });
  });

  async function resetTokenOf(t: TestApp, email: string): Promise<string> {
    const mail = await waitForMail(t.dataDir, email, /reset-password\?token=/);
    return /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
  }
});

const httpsTest = apiTest("pglite", { env: { PUBLIC_URL: "https://school.example" } });

describe("cookies over HTTPS", () => {
  httpsTest(
    "the refresh and device cookies are __Host- and Secure, and refreshing reads them",
    async ({ t }) => {
      const owner: SignedInUser = await signIn(t, "student");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress: randomIp(),
        payload: { email: owner.email, password: owner.password },
      });
      const refreshCookie = res.cookies.find((c) => c.name === "__Host-gradecast_refresh");
      const device = res.cookies.find((c) => c.name === "__Host-gradecast_device");
      for (const cookie of [refreshCookie, device]) {
        expect(cookie?.secure).toBe(true);
        expect(cookie?.path).toBe("/");
        expect(cookie?.domain).toBeUndefined();
        expect(cookie?.httpOnly).toBe(true);
      }
      const again = await t.app.inject({
        method: "POST",
        url: "/api/auth/refresh",
        remoteAddress: randomIp(),
        cookies: { "__Host-gradecast_refresh": refreshCookie?.value ?? "" },
      });
      expect(again.statusCode).toBe(200);
    },
  );
});
