import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { messages } from "@gradecast/contract/messages";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createMailer } from "../../src/mail/mailer.ts";
import {
  codeOf,
  parseMail,
  randomIp,
  readOutbox,
  resetTokenOf,
  sendRefreshCookie,
  signIn,
  testPassword,
  uniqueEmail,
  waitForMail,
} from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";

import { auditOf, dialects, errorOf, type TestApp, withTestApp } from "../support/helpers.ts";
import { smtpInbox } from "../support/smtp-inbox.ts";

// Email verification codes, password reset links, and the two ways mail leaves the server:
// .eml files in DATA_DIR/outbox/, or a real SMTP server (here one in this process).
const tests = apiTests({ clock: true });

describe.each(dialects)("verification and reset (%s)", (dialect) => {
  const test = tests[dialect];

  const call = (t: TestApp, method: "GET" | "POST", url: string, auth?: object, payload?: object) =>
    t.app.inject({ method, url, headers: { ...auth }, payload, remoteAddress: randomIp() });

  /** A registered, signed-in student and the code of their registration email. */
  async function newUser(t: TestApp) {
    const s = await signIn(t, "student", { verified: false });
    const mail = await waitForMail(t.dataDir, s.email, /verification code/);
    return { ...s, code: codeOf(mail) };
  }

  const verify = (t: TestApp, auth: object, code: unknown) =>
    call(t, "POST", "/api/verify", auth, { code });
  const wrongCode = (code: string) => (code === "000000" ? "111111" : "000000");

  describe("POST /api/verify", () => {
    test("accepts the emailed code once and marks the email verified", async ({ t }) => {
      const u = await newUser(t);
      expect(u.code).toMatch(/^\d{6}$/);
      expect(u.user.emailVerified).toBe(false);
      const res = await verify(t, u.auth, u.code);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: messages.verifySuccess });
      expect((await call(t, "GET", "/api/me", u.auth)).json().emailVerified).toBe(true);
      const again = await verify(t, u.auth, u.code);
      expect(again.statusCode).toBe(400);
    });

    test("answers 400 invalid_code for a wrong or malformed code", async ({ t }) => {
      const u = await newUser(t);
      for (const code of [wrongCode(u.code), "12345", "abcdef", undefined]) {
        const res = await verify(t, u.auth, code);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res.body)).toEqual({
          code: "invalid_code",
          message: messages.verifyInvalid,
        });
      }
    });

    test("kills the code after 5 wrong tries, even when the 6th is right", async ({ t }) => {
      const u = await newUser(t);
      for (let i = 0; i < 5; i++) {
        expect((await verify(t, u.auth, wrongCode(u.code))).statusCode).toBe(400);
      }
      const res = await verify(t, u.auth, u.code);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res.body).code).toBe("invalid_code");
      expect((await call(t, "GET", "/api/me", u.auth)).json().emailVerified).toBe(false);
    });

    test("still accepts the right code after 4 wrong tries", async ({ t }) => {
      const u = await newUser(t);
      for (let i = 0; i < 4; i++) await verify(t, u.auth, wrongCode(u.code));
      expect((await verify(t, u.auth, u.code)).statusCode).toBe(200);
    });

    test("expires the code after 10 minutes", async ({ t, clock }) => {
      const u = await newUser(t);
      clock.tick(10 * 60_000 + 1_000);
      // The ID token is still valid (15 minutes); only the code has expired.
      const res = await verify(t, u.auth, u.code);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res.body).code).toBe("invalid_code");
    });

    test("needs a signed-in caller", async ({ t }) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/verify",
        payload: { code: "123456" },
      });
      expect(res.statusCode).toBe(401);
    });

    test("stores the code hashed, never in clear", async ({ t }) => {
      const u = await newUser(t);
      const rows = await t.database.db
        .selectFrom("email_codes")
        .select("code_hash")
        .where("user_id", "=", u.user.uid)
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.code_hash).not.toContain(u.code);
    });
  });

  describe("POST /api/verify/resend", () => {
    test("sends a new code that works, and the old one stops working", async ({ t }) => {
      const u = await newUser(t);
      const res = await call(t, "POST", "/api/verify/resend", u.auth);
      expect(res.statusCode).toBe(202);
      const second = codeOf(await waitForMail(t.dataDir, u.email, /verification code/, 1));
      expect(second).toMatch(/^\d{6}$/);
      if (second !== u.code) expect((await verify(t, u.auth, u.code)).statusCode).toBe(400);
      expect((await verify(t, u.auth, second)).statusCode).toBe(200);
    });

    test("is limited to 5 an hour per account (429 with Retry-After)", async ({ t }) => {
      const u = await newUser(t);
      for (let i = 0; i < 5; i++) {
        expect((await call(t, "POST", "/api/verify/resend", u.auth)).statusCode).toBe(202);
      }
      const res = await call(t, "POST", "/api/verify/resend", u.auth);
      expect(res.statusCode).toBe(429);
      expect(res.headers["retry-after"]).toBeDefined();
      // Another account is not affected.
      const other = await newUser(t);
      expect((await call(t, "POST", "/api/verify/resend", other.auth)).statusCode).toBe(202);
    });

    test("needs a signed-in caller", async ({ t }) => {
      expect((await call(t, "POST", "/api/verify/resend")).statusCode).toBe(401);
    });
  });

  describe("forgot and reset password", () => {
    const forgot = (t: TestApp, email: string) =>
      call(t, "POST", "/api/auth/forgot-password", undefined, { email });
    const reset = (t: TestApp, token: string, password: string) =>
      call(t, "POST", "/api/auth/reset-password", undefined, { token, password });
    const login = (t: TestApp, email: string, password: string) =>
      call(t, "POST", "/api/auth/login", undefined, { email, password });

    test("answers 202 the same way for a known and an unknown email", async ({ t }) => {
      const u = await newUser(t);
      const known = await forgot(t, u.email);
      const unknown = await forgot(t, uniqueEmail("ghost"));
      expect(known.statusCode).toBe(202);
      expect(unknown.statusCode).toBe(202);
      expect(known.body).toBe(unknown.body);
      expect(known.json()).toEqual({ message: messages.resetLinkSent });
      await waitForMail(t.dataDir, u.email, /reset-password\?token=/);
    });

    test("emails a single-use link to /reset-password that resets the password and ends every session", async ({
      t,
    }) => {
      const u = await newUser(t);
      const newPassword = "a brand new passphrase";
      await forgot(t, u.email.toUpperCase());
      const mail = await waitForMail(t.dataDir, u.email, /reset-password\?token=/);
      expect(mail.text).toContain("http://localhost:3000/reset-password?token=");
      const token = resetTokenOf(mail);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);

      const me = () => t.app.inject({ method: "GET", url: "/api/me", headers: { ...u.auth } });
      expect((await me()).statusCode).toBe(200);
      const res = await reset(t, token, newPassword);
      expect(res.statusCode).toBe(200);
      // The ID token of the ended session is refused at once, not when it expires.
      expect((await me()).statusCode).toBe(401);
      const refresh = await sendRefreshCookie(t, "refresh", u.refreshToken);
      expect(refresh.statusCode).toBe(401);
      expect((await login(t, u.email, testPassword)).statusCode).toBe(401);
      expect((await login(t, u.email, newPassword)).statusCode).toBe(200);

      const twice = await reset(t, token, "yet another passphrase");
      expect(twice.statusCode).toBe(400);
      expect(errorOf(twice.body).code).toBe("invalid_token");
      expect((await login(t, u.email, newPassword)).statusCode).toBe(200);

      const audit = await auditOf(t, "auth.password_reset", u.user.uid);
      expect(audit).toHaveLength(1);
      expect(JSON.stringify(audit)).not.toContain(token);
    });

    test("a new password ends every other link: older, newer, or sent before a password change", async ({
      t,
    }) => {
      const u = await newUser(t);
      await forgot(t, u.email);
      await forgot(t, u.email);
      const links = [
        resetTokenOf(await waitForMail(t.dataDir, u.email, /reset-password\?token=/, 0)),
        resetTokenOf(await waitForMail(t.dataDir, u.email, /reset-password\?token=/, 1)),
      ];
      expect(new Set(links).size).toBe(2);
      expect((await reset(t, links[0]!, "the first new passphrase")).statusCode).toBe(200);
      const other = await reset(t, links[1]!, "an attacker's passphrase");
      expect(other.statusCode).toBe(400);
      expect(errorOf(other.body).code).toBe("invalid_token");
      expect((await login(t, u.email, "the first new passphrase")).statusCode).toBe(200);

      // A link asked for before the owner changes the password in Settings dies with the change.
      const v = await newUser(t);
      await forgot(t, v.email);
      const link = resetTokenOf(await waitForMail(t.dataDir, v.email, /reset-password\?token=/));
      const changed = await call(t, "POST", "/api/me/password", v.auth, {
        currentPassword: testPassword,
        newPassword: "changed in settings",
      });
      expect(changed.statusCode).toBe(204);
      expect((await reset(t, link, "an attacker's passphrase")).statusCode).toBe(400);
      expect((await login(t, v.email, "changed in settings")).statusCode).toBe(200);
    });

    test("refuses a link older than 30 minutes, an unknown token and a common new password", async ({
      t,
      clock,
    }) => {
      const u = await newUser(t);
      await forgot(t, u.email);
      const token = resetTokenOf(await waitForMail(t.dataDir, u.email, /reset-password\?token=/));
      const common = await reset(t, token, "password123");
      expect(common.statusCode).toBe(400);
      expect(errorOf(common.body).fields?.password).toMatch(/too common/);
      expect((await reset(t, "A".repeat(43), "a fine new passphrase")).statusCode).toBe(400);
      clock.tick(30 * 60_000 + 1_000);
      const late = await reset(t, token, "a fine new passphrase");
      expect(late.statusCode).toBe(400);
      expect(errorOf(late.body).code).toBe("invalid_token");
    });

    test("validates the request: an email is needed, a token and a password of 8+", async ({
      t,
    }) => {
      const bad = await call(t, "POST", "/api/auth/forgot-password", undefined, { email: "nope" });
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad.body).fields?.email).toBe("Enter a valid email address.");
      const short = await reset(t, "token", "short");
      expect(short.statusCode).toBe(400);
      expect(errorOf(short.body).fields?.password).toBe("Use at least 8 characters.");
    });

    test("forgot-password is limited to 5 an hour per email and client address", async ({ t }) => {
      const email = uniqueEmail("flood");
      const remoteAddress = randomIp();
      const from = (address: string) =>
        t.app.inject({
          method: "POST",
          url: "/api/auth/forgot-password",
          remoteAddress,
          payload: { email: address },
        });
      for (let i = 0; i < 5; i++) expect((await from(email)).statusCode).toBe(202);
      const res = await from(email.toUpperCase());
      expect(res.statusCode).toBe(429);
      expect(res.headers["retry-after"]).toBeDefined();
      expect((await from(uniqueEmail("other"))).statusCode).toBe(202);
      // Another client is not held back (forgot-password-limit.test.ts: the owner's own).
      expect((await forgot(t, email)).statusCode).toBe(202);
    });

    test("writes each mail as an .eml file with a readable text part", async ({ t }) => {
      // Its own mail first: the test must not rely on others having sent some before it.
      await newUser(t);
      const mails = await readOutbox(t.dataDir);
      expect(mails.length).toBeGreaterThan(0);
      for (const m of mails) {
        expect(m.file).toMatch(/\.eml$/);
        expect(m.subject.length).toBeGreaterThan(0);
      }
    });
  });
});

describe("outbox mailer (no SMTP_URL)", () => {
  it("writes each message as an .eml file and prints one plain line naming the file, not the code", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-outbox-"));
    try {
      const lines: string[] = [];
      const records: unknown[] = [];
      const log = {
        level: "info",
        debug: (obj: unknown, msg: string) => records.push(obj, msg),
      } as unknown as FastifyBaseLogger;
      const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), log, (line) =>
        lines.push(line),
      );
      await mailer.send({
        to: "x@example.com",
        subject: "Code: 424242",
        text: "Your code is 424242.",
      });
      const [mail] = await readOutbox(dataDir);
      expect(mail).toMatchObject({ to: "x@example.com", subject: "Code: 424242" });
      expect(mail?.text.trim()).toBe("Your code is 424242.");
      const file = path.join(dataDir, "outbox", mail?.file ?? "");
      expect(lines).toEqual([`Email to x@example.com written to ${file}`]);
      expect(JSON.stringify([lines, records])).not.toContain("424242");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("mail over SMTP (SMTP_URL set)", () => {
  const inbox = smtpInbox();
  const { received } = inbox;

  it("delivers the verification code and the reset link to a real SMTP server, and no .eml is written", async () => {
    await withTestApp(
      "pglite",
      {
        env: {
          SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
          PUBLIC_URL: "https://grades.example.org",
        },
      },
      async (t) => {
        const s = await signIn(t, "student");
        const codeMail = received.find((m) => m.to.includes(s.email));
        expect(codeMail).toBeDefined();
        const parsed = parseMail("smtp", codeMail?.raw ?? "");
        expect(parsed.subject).toMatch(/verification code: \d{6}$/);
        expect(parsed.text).toContain("https://grades.example.org/Verify");
        const code = codeOf(parsed);
        const ok = await t.app.inject({
          method: "POST",
          url: "/api/verify",
          headers: s.auth,
          payload: { code },
        });
        expect(ok.statusCode).toBe(200);

        await t.app.inject({
          method: "POST",
          url: "/api/auth/forgot-password",
          payload: { email: s.email },
        });
        const deadline = Date.now() + 5_000;
        while (received.filter((m) => m.to.includes(s.email)).length < 2 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
        }
        const resetMail = parseMail(
          "smtp",
          received.filter((m) => m.to.includes(s.email))[1]?.raw ?? "",
        );
        expect(resetMail.text).toMatch(
          /https:\/\/grades\.example\.org\/reset-password\?token=[\w-]{43}/,
        );
        expect(await readOutbox(t.dataDir)).toEqual([]);

        // Served over https, the refresh cookie is Secure (and __Host- prefixed).
        const login = await t.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: s.email, password: testPassword },
        });
        expect(login.cookies.find((c) => c.name === "__Host-gradecast_refresh")?.secure).toBe(true);
      },
    );
  });
});
