import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { User } from "@gradecast/contract/auth";
import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import { updateUser } from "../../src/db/users.ts";
import { createOrPromoteAdmin } from "../../src/users/admin.ts";
import type { TestApp } from "./helpers.ts";

// Signing in as a role in API tests, through the real API: a student or teacher registers and
// logs in; an admin is created with the function `npm run admin:create` uses, then logs in.
// Each call comes from its own client address so the per-IP rate limits never get in the way.
export type TestRole = "student" | "teacher" | "admin";

export const testPassword = "correct horse battery staple";

export interface SignedInUser {
  token: string;
  user: User;
  auth: { authorization: string };
  /** The refresh cookie value (httpOnly in a browser). */
  refreshToken: string;
  email: string;
  password: string;
  /** An admin's TOTP secret (base32): admins must turn MFA on before anything else. */
  mfaSecret?: string;
}

/** The current 6-digit code of a TOTP secret, as an authenticator app shows it. */
export function totpCode(secret: string, at: Date = new Date()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
}

/** Turns MFA on through the API, as the Settings page does; returns the secret and the codes. */
export async function enrolMfa(
  t: TestApp,
  auth: { authorization: string },
  at: Date = t.now(),
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await t.app.inject({ method: "POST", url: "/api/me/mfa/totp", headers: auth });
  if (start.statusCode !== 200)
    throw new Error(`MFA start failed: ${start.statusCode} ${start.body}`);
  const { secret } = start.json() as { secret: string };
  const confirm = await t.app.inject({
    method: "POST",
    url: "/api/me/mfa/totp/confirm",
    headers: auth,
    payload: { code: totpCode(secret, at) },
  });
  if (confirm.statusCode !== 200) {
    throw new Error(`MFA confirm failed: ${confirm.statusCode} ${confirm.body}`);
  }
  return { secret, recoveryCodes: (confirm.json() as { recoveryCodes: string[] }).recoveryCodes };
}

let counter = 0;

/**
 * Moves an account's sign-in 11 minutes back, past the window in which a sensitive action needs
 * no fresh code, and forgets the last authenticator step it used: the next such action asks again.
 */
export async function staleSignIn(t: TestApp, who: SignedInUser): Promise<void> {
  const longAgo = new Date(Date.now() - 11 * 60_000);
  await sql`update sessions set created_at = ${longAgo}, signed_in_at = ${longAgo},
    reauthenticated_at = null where user_id = ${who.user.uid}`.execute(t.database.db);
  await t.database.db
    .updateTable("users")
    .set({ mfa_last_step: null })
    .where("id", "=", who.user.uid)
    .execute();
}

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${counter}-${randomBytes(4).toString("hex")}@example.com`;
}

export function randomIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export async function signIn(
  t: TestApp,
  role: TestRole,
  opts: {
    name?: string;
    email?: string;
    password?: string;
    /** false: the account has not verified its email address yet. */
    verified?: boolean;
    /** A teacher sign-up still waiting for an admin (TEACHER_SIGNUP=approval, the default). */
    pending?: boolean;
    /** false: an admin who has not turned MFA on yet (they can only enrol). */
    mfa?: boolean;
  } = {},
): Promise<SignedInUser> {
  const email = opts.email ?? uniqueEmail(role);
  const name = opts.name ?? `Test ${role[0]?.toUpperCase()}${role.slice(1)}`;
  const password = opts.password ?? testPassword;
  const remoteAddress = randomIp();
  if (role === "admin") {
    await createOrPromoteAdmin(t.database.db, { email, name, password });
  } else {
    const res = await register(t, { name, email, password, role }, remoteAddress);
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    // What the account's owner (the code from the email) and an admin (the approval) would do,
    // done directly: most tests are about what a verified student or approved teacher may do.
    const uid = (res.json() as { user: User }).user.uid;
    const changes = {
      ...(opts.verified === false ? {} : { email_verified: true }),
      ...(role === "teacher" && !opts.pending
        ? { role: "teacher" as const, pending_role: null }
        : {}),
    };
    if (Object.keys(changes).length > 0) await updateUser(t.database.db, uid, changes, new Date());
  }
  const res = await postLogin(t, email, { password, remoteAddress });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: User };
  const cookie = res.cookies.find((c) => c.name === "gradecast_refresh");
  const auth = { authorization: `Bearer ${body.token}` };
  const mfa = role === "admin" && opts.mfa !== false ? await enrolMfa(t, auth) : undefined;
  return {
    token: body.token,
    user: body.user,
    auth,
    refreshToken: cookie?.value ?? "",
    email,
    password,
    ...(mfa ? { mfaSecret: mfa.secret } : {}),
  };
}

// Mail written to DATA_DIR/outbox/ (no SMTP_URL): the raw .eml files, oldest first.
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A header's RFC 2047 encoded words (a non-ASCII subject) as the text a mail client shows. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

export function parseMail(file: string, raw: string): OutboxMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : body;
  return { file, to: header("To"), subject: decodeHeader(header("Subject")), text };
}

export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, "outbox");
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (f) => parseMail(f, await readFile(path.join(dir, f), "utf8"))),
  );
}

/** Waits (up to 5 s) for the newest outbox mail to an address whose text matches. */
export async function waitForMail(
  dataDir: string,
  to: string,
  match: RegExp,
  skip = 0,
): Promise<OutboxMail> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const mails = (await readOutbox(dataDir)).filter(
      (m) => m.to.toLowerCase().includes(to.toLowerCase()) && match.test(m.text),
    );
    const mail = mails[skip];
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${match}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const codeOf = (mail: OutboxMail) => /code is (\d{6})/.exec(mail.text)?.[1] ?? "";
export const resetTokenOf = (mail: OutboxMail) =>
  /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";

/** POST /api/auth/refresh or /api/auth/logout with the refresh token in its cookie, as browsers do. */
export function sendRefreshCookie(
  t: TestApp,
  action: "refresh" | "logout",
  refreshToken: string,
  remoteAddress?: string,
) {
  return t.app.inject({
    method: "POST",
    url: `/api/auth/${action}`,
    cookies: { gradecast_refresh: refreshToken },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/**
 * POST /api/auth/register (the test password unless given), from an address of its own. No role
 * sends none (the API's default); a date of birth is what the form asks under LEGAL_BASIS=consent.
 */
export function register(
  t: TestApp,
  person: {
    name: string;
    email: string;
    role?: "student" | "teacher";
    password?: string;
    dateOfBirth?: string;
  },
  remoteAddress = randomIp(),
) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/register",
    remoteAddress,
    payload: { password: testPassword, ...person },
  });
}

/** POST /api/auth/login (the test password unless given), from an address of its own. */
export function postLogin(
  t: TestApp,
  email: string,
  { password = testPassword, remoteAddress = randomIp() } = {},
) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    remoteAddress,
    payload: { email, password },
  });
}

/** Logs an existing account in through the API; its bearer header. */
export async function logIn(
  t: TestApp,
  email: string,
  remoteAddress = randomIp(),
): Promise<{ authorization: string }> {
  const res = await postLogin(t, email, { remoteAddress });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${(res.json() as { token: string }).token}` };
}

/** Proves the address with the code mailed to it, as its owner would; the API's answer. */
export async function verifyByMail(t: TestApp, email: string, auth: { authorization: string }) {
  const code = codeOf(await waitForMail(t.dataDir, email, /verification code/));
  return t.app.inject({ method: "POST", url: "/api/verify", headers: auth, payload: { code } });
}
