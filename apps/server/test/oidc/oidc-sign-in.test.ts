import { randomUUID } from "node:crypto";
import type { SessionInfo } from "@gradecast/contract/account-security";
import type { User } from "@gradecast/contract/auth";
import { afterAll, describe, expect } from "vitest";
import { totpCode } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { type Fault, startBadIssuer } from "../support/oidc-bad-issuer.ts";
import { startTestProvider, type TestAccountClaims } from "../support/oidc-provider.ts";

// Issue 34: signing in with the school's identity provider. A real OpenID provider (the
// oidc-provider package) runs on a free port of this machine; the app under test is configured
// to it and its browser steps are followed with fetch. The faults no real provider makes (a
// token signed by another key, expired, for another audience, with another nonce or none) come
// from a second, small issuer serving its own JWKS over HTTP (support/oidc-bad-issuer.ts).
// Every refusal comes back to /login with a code and creates nothing.

const publicUrl = "http://localhost:3000";
const callback = `${publicUrl}/api/auth/oidc/callback`;
const provider = await startTestProvider({ redirectUris: [callback] });
const bad = await startBadIssuer();
afterAll(async () => {
  await provider.close();
  await bad.close();
});

const oidcEnv = (issuer: { issuer: string; clientId: string; clientSecret: string }) => ({
  RATE_LIMITS: "off",
  PUBLIC_URL: publicUrl,
  OIDC_ISSUER: issuer.issuer,
  OIDC_CLIENT_ID: issuer.clientId,
  OIDC_CLIENT_SECRET: issuer.clientSecret,
  OIDC_NAME: "Test School",
  OIDC_ALLOWED_DOMAINS: "school.test",
  OIDC_ALLOWED_TENANTS: "tenant-a",
  OIDC_GROUPS_CLAIM: "groups",
  OIDC_TEACHER_GROUPS: "teachers",
  OIDC_TRUST_AMR_MFA: "on",
});

const tests = apiTests({ env: oidcEnv(provider) });
const badTests = apiTests({ env: oidcEnv(bad) });
const offTests = apiTests({ env: { RATE_LIMITS: "off" } });

const bindingCookie = "gradecast_oidc";

/** A person of the school as the provider knows them. */
function schoolPerson(claims: TestAccountClaims = {}): { sub: string; email: string } {
  const sub = randomUUID();
  const email = claims.email ?? `p-${sub.slice(0, 8)}@school.test`;
  provider.account(sub, {
    email,
    email_verified: true,
    name: "Rosa Pereira",
    tid: "tenant-a",
    ...claims,
  });
  return { sub, email };
}

/** The browser's steps: start, the provider, the callback. */
async function begin(t: TestApp) {
  const start = await t.app.inject({ method: "GET", url: "/api/auth/oidc/start" });
  expect(start.statusCode, start.body).toBe(302);
  const browser = start.cookies.find((c) => c.name === bindingCookie);
  expect(browser?.httpOnly).toBe(true);
  expect(browser?.sameSite).toBe("Lax");
  return { authUrl: String(start.headers.location), browser: browser?.value ?? "" };
}

async function finish(t: TestApp, back: string, browser: string) {
  const url = new URL(back);
  expect(url.origin + url.pathname).toBe(callback);
  const res = await t.app.inject({
    method: "GET",
    url: url.pathname + url.search,
    cookies: browser ? { [bindingCookie]: browser } : {},
  });
  expect(res.statusCode, res.body).toBe(302);
  const location = new URL(String(res.headers.location));
  const refresh = res.cookies.find((c) => c.name === "gradecast_refresh")?.value;
  return { location, refresh };
}

async function signInThroughProvider(t: TestApp, sub: string) {
  const { authUrl, browser } = await begin(t);
  const back = await provider.authorize(authUrl, sub);
  return finish(t, back, browser);
}

/** The page's next step after ?oidc=signed_in: the refresh cookie traded for an ID token. */
async function session(t: TestApp, refresh: string | undefined) {
  expect(refresh).toBeTruthy();
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/refresh",
    cookies: { gradecast_refresh: refresh ?? "" },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { token: string; user: User };
  return { ...body, auth: { authorization: `Bearer ${body.token}` } };
}

/** What a refusal must not leave: accounts, identities, sessions. */
async function counts(t: TestApp) {
  const db = t.database.db;
  const count = async (table: "users" | "user_identities" | "sessions") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count("users"),
    identities: await count("user_identities"),
    sessions: await count("sessions"),
  };
}

async function refusedWith(t: TestApp, outcome: { location: URL; refresh?: string }, code: string) {
  expect(outcome.location.pathname).toBe("/login");
  expect(outcome.location.searchParams.get("oidc_error")).toBe(code);
  expect(outcome.refresh).toBeUndefined();
  const audit = await t.database.db
    .selectFrom("audit_log")
    .select("details")
    .where("action", "=", "auth.oidc_refused")
    .orderBy("id", "desc")
    .limit(20)
    .execute();
  expect(audit.some((row) => JSON.stringify(row.details).includes(`"reason":"${code}"`))).toBe(
    true,
  );
}

describe.each(dialects)("sign-in with the school's provider (%s)", (dialect) => {
  const test = tests[dialect];

  test("the login page learns the provider's name; start goes to the provider with PKCE, state and nonce", async ({
    t,
  }) => {
    const setup = await t.app.inject({ method: "GET", url: "/api/setup" });
    expect(setup.json()).toMatchObject({ oidcName: "Test School" });
    const { authUrl } = await begin(t);
    const url = new URL(authUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(callback);
  });

  test("a first sign-in creates a verified student; the next finds the same account", async ({
    t,
  }) => {
    const person = schoolPerson();
    const first = await signInThroughProvider(t, person.sub);
    expect(first.location.pathname).toBe("/login");
    expect(first.location.searchParams.get("oidc")).toBe("signed_in");
    const one = await session(t, first.refresh);
    expect(one.user).toMatchObject({
      email: person.email,
      name: "Rosa Pereira",
      role: "student",
      pendingRole: null,
      emailVerified: true,
    });

    const second = await signInThroughProvider(t, person.sub);
    const two = await session(t, second.refresh);
    expect(two.user.uid).toBe(one.user.uid);

    // The session list says how each session signed in.
    const list = await t.app.inject({ method: "GET", url: "/api/me/sessions", headers: two.auth });
    expect(list.statusCode).toBe(200);
    const sessions = (list.json() as { sessions: SessionInfo[] }).sessions;
    expect(sessions).toHaveLength(2);
    for (const s of sessions) expect(s.method).toBe("oidc:Test School");
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "details"])
      .where("target", "=", one.user.uid)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["auth.register", "auth.login"]),
    );
  });

  test("a first sign-in links to an existing verified account of an allowed domain", async ({
    t,
    signedIn,
  }) => {
    const email = `linked-${randomUUID().slice(0, 8)}@school.test`;
    const existing = await signedIn("student", { email });
    const person = schoolPerson({ email });
    const before = await counts(t);
    const outcome = await signInThroughProvider(t, person.sub);
    const signed = await session(t, outcome.refresh);
    expect(signed.user.uid).toBe(existing.user.uid);
    const after = await counts(t);
    expect(after.users).toBe(before.users);
    expect(after.identities).toBe(before.identities + 1);
  });

  test("a password sign-in stays a password session in the list", async ({ t, signedIn }) => {
    const me = await signedIn("student");
    const list = await t.app.inject({ method: "GET", url: "/api/me/sessions", headers: me.auth });
    const sessions = (list.json() as { sessions: SessionInfo[] }).sessions;
    expect(sessions.map((s) => s.method)).toEqual(["password"]);
  });

  test("a person in the teacher group asks for the teacher role and waits for approval", async ({
    t,
  }) => {
    const person = schoolPerson({ groups: ["staff", "teachers"] });
    const signed = await session(t, (await signInThroughProvider(t, person.sub)).refresh);
    expect(signed.user).toMatchObject({ role: "student", pendingRole: "teacher" });
  });

  test("an admin with MFA: the code is asked unless the provider asserts MFA (amr)", async ({
    t,
    signedIn,
  }) => {
    const email = `head-${randomUUID().slice(0, 8)}@school.test`;
    const admin = await signedIn("admin", { email });
    const person = schoolPerson({ email, amr: ["pwd"] });
    const asked = await signInThroughProvider(t, person.sub);
    expect(asked.refresh).toBeUndefined();
    expect(asked.location.searchParams.get("oidc")).toBe("mfa");
    const challenge = new URLSearchParams(asked.location.hash.slice(1)).get("challenge") ?? "";
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/mfa",
      payload: { challenge, code: totpCode(admin.mfaSecret ?? "", new Date(Date.now() + 30_000)) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const withCode = res.json() as { token: string };
    const list = await t.app.inject({
      method: "GET",
      url: "/api/me/sessions",
      headers: { authorization: `Bearer ${withCode.token}` },
    });
    const current = (list.json() as { sessions: SessionInfo[] }).sessions.find((s) => s.current);
    expect(current?.method).toBe("oidc:Test School");

    provider.account(person.sub, {
      email,
      email_verified: true,
      tid: "tenant-a",
      amr: ["pwd", "mfa"],
    });
    const trusted = await signInThroughProvider(t, person.sub);
    expect(trusted.location.searchParams.get("oidc")).toBe("signed_in");
    const signed = await session(t, trusted.refresh);
    expect(signed.user.role).toBe("admin");
  });

  test("an admin without Gradecast's own MFA: the provider's asserted MFA counts for that session only", async ({
    t,
    signedIn,
  }) => {
    const email = `admin-${randomUUID().slice(0, 8)}@school.test`;
    const byPassword = await signedIn("admin", { email, mfa: false });
    const adminCall = (auth: { authorization: string }) =>
      t.app.inject({ method: "GET", url: "/api/admin/users", headers: auth });
    const refused = await adminCall(byPassword.auth);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "mfa_enrolment_required" } });

    const person = schoolPerson({ email, amr: ["pwd", "mfa"] });
    const viaProvider = await session(t, (await signInThroughProvider(t, person.sub)).refresh);
    expect((await adminCall(viaProvider.auth)).statusCode).toBe(200);
    // The password session is still held to enrolment.
    expect((await adminCall(byPassword.auth)).statusCode).toBe(403);

    provider.account(person.sub, { email, email_verified: true, tid: "tenant-a", amr: ["pwd"] });
    const without = await session(t, (await signInThroughProvider(t, person.sub)).refresh);
    expect((await adminCall(without.auth)).statusCode).toBe(403);
  });

  test("refused: an unverified email", async ({ t }) => {
    const person = schoolPerson({ email_verified: false });
    const before = await counts(t);
    await refusedWith(t, await signInThroughProvider(t, person.sub), "email_unverified");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: an address outside the allowed domains", async ({ t }) => {
    const person = schoolPerson({ email: `x-${randomUUID().slice(0, 8)}@elsewhere.test` });
    const before = await counts(t);
    await refusedWith(t, await signInThroughProvider(t, person.sub), "domain_not_allowed");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: a tenant not on the list", async ({ t }) => {
    const person = schoolPerson({ tid: "tenant-b" });
    const before = await counts(t);
    await refusedWith(t, await signInThroughProvider(t, person.sub), "tenant_not_allowed");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: an existing account whose address is not verified here is not linked", async ({
    t,
    signedIn,
  }) => {
    const email = `squat-${randomUUID().slice(0, 8)}@school.test`;
    await signedIn("student", { email, verified: false });
    const person = schoolPerson({ email });
    const before = await counts(t);
    await refusedWith(t, await signInThroughProvider(t, person.sub), "email_taken");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: a state this browser did not start, or a callback without its cookie", async ({
    t,
  }) => {
    const person = schoolPerson();
    const before = await counts(t);
    const { authUrl, browser } = await begin(t);
    const back = await provider.authorize(authUrl, person.sub);
    const forged = new URL(back);
    forged.searchParams.set("state", "a-state-nobody-started");
    await refusedWith(t, await finish(t, forged.href, browser), "state_mismatch");

    const again = await begin(t);
    const back2 = await provider.authorize(again.authUrl, person.sub);
    await refusedWith(t, await finish(t, back2, ""), "state_mismatch");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: a replayed callback, and a code replayed into another sign-in", async ({ t }) => {
    const person = schoolPerson();
    const { authUrl, browser } = await begin(t);
    const back = await provider.authorize(authUrl, person.sub);
    const first = await finish(t, back, browser);
    expect(first.location.searchParams.get("oidc")).toBe("signed_in");
    const before = await counts(t);
    // The same callback again: its sign-in was taken.
    await refusedWith(t, await finish(t, back, browser), "state_mismatch");
    // The used code inside a sign-in this browser did start: the provider refuses it.
    const fresh = await begin(t);
    const replay = new URL(back);
    replay.searchParams.set("state", new URL(fresh.authUrl).searchParams.get("state") ?? "");
    await refusedWith(t, await finish(t, replay.href, fresh.browser), "provider_refused");
    expect(await counts(t)).toEqual(before);
  });

  test("refused: the person cancels at the provider", async ({ t }) => {
    const before = await counts(t);
    const { authUrl, browser } = await begin(t);
    const state = new URL(authUrl).searchParams.get("state") ?? "";
    const back = `${callback}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`;
    await refusedWith(t, await finish(t, back, browser), "provider_refused");
    expect(await counts(t)).toEqual(before);
  });
});

describe.each(dialects)("tokens a provider must not be believed for (%s)", (dialect) => {
  const test = badTests[dialect];
  const cases: [Fault, string][] = [
    ["wrong-audience", "token_audience"],
    ["wrong-nonce", "token_nonce"],
    ["no-nonce", "token_nonce"],
    ["expired", "token_expired"],
    ["other-key", "token_signature"],
  ];

  test.for(cases)("refused: %s", async ([fault, code], { t }) => {
    const sub = randomUUID();
    bad.next(fault, {
      sub,
      email: `b-${sub.slice(0, 8)}@school.test`,
      email_verified: true,
      tid: "tenant-a",
    });
    const before = await counts(t);
    const { authUrl, browser } = await begin(t);
    await refusedWith(t, await finish(t, await bad.authorize(authUrl), browser), code);
    expect(await counts(t)).toEqual(before);
  });

  test("the same issuer's right token signs in (the faults above are the only difference)", async ({
    t,
  }) => {
    const sub = randomUUID();
    bad.next("none", {
      sub,
      email: `g-${sub.slice(0, 8)}@school.test`,
      email_verified: true,
      tid: "tenant-a",
    });
    const { authUrl, browser } = await begin(t);
    const outcome = await finish(t, await bad.authorize(authUrl), browser);
    expect(outcome.location.searchParams.get("oidc")).toBe("signed_in");
    expect((await session(t, outcome.refresh)).user.role).toBe("student");
  });
});

describe.each(dialects)("without a provider configured (%s)", (dialect) => {
  const test = offTests[dialect];

  test("no button and the routes answer 404", async ({ t }) => {
    const setup = await t.app.inject({ method: "GET", url: "/api/setup" });
    expect(setup.json()).toMatchObject({ oidcName: null });
    for (const url of ["/api/auth/oidc/start", "/api/auth/oidc/callback?code=x&state=y"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
    }
  });
});

const passwordsOffTests = apiTests({
  env: { ...oidcEnv(provider), LOCAL_PASSWORDS_OFF: "student" },
});

describe.each(dialects)("passwords switched off for students (%s)", (dialect) => {
  const test = passwordsOffTests[dialect];

  test("a student's password sign-in is refused with the way in; the provider's works", async ({
    t,
  }) => {
    const email = `pw-${randomUUID().slice(0, 8)}@school.test`;
    const password = "a long and uncommon passphrase 4821";
    const register = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { name: "Rui", email, password, role: "student" },
    });
    expect(register.statusCode, register.body).toBe(201);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email, password },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toMatchObject({ error: { code: "password_sign_in_off" } });

    const person = schoolPerson();
    const outcome = await signInThroughProvider(t, person.sub);
    expect((await session(t, outcome.refresh)).user.email).toBe(person.email);
  });
});

const googleTests = apiTests({ env: { ...oidcEnv(provider), OIDC_GOOGLE_HD: "school.test" } });

describe.each(dialects)("a Google Workspace domain (hd) (%s)", (dialect) => {
  const test = googleTests[dialect];

  test("the hd claim must name the school's domain: a personal account of the same address is refused", async ({
    t,
  }) => {
    const { authUrl } = await begin(t);
    expect(new URL(authUrl).searchParams.get("hd")).toBe("school.test");

    const personal = schoolPerson();
    const before = await counts(t);
    await refusedWith(t, await signInThroughProvider(t, personal.sub), "domain_not_allowed");
    expect(await counts(t)).toEqual(before);

    const workspace = schoolPerson({ hd: "school.test" });
    const signed = await session(t, (await signInThroughProvider(t, workspace.sub)).refresh);
    expect(signed.user.email).toBe(workspace.email);
  });
});
