import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { callApi, type Person } from "./api-calls.ts";
import { mailedCode } from "./harness.ts";

// Signing up and in through the screens, as a person does, for the browser tests. Each step
// waits for the page it leads to, not only for its address: every route is a lazily loaded
// chunk, and until the chunk has loaded the router keeps showing the previous page under the new
// address, so typing as soon as the address reads /login could fill the sign-up form's fields
// and then submit an empty login form (seen as a rare timeout on a busy machine).

export type { Person } from "./api-calls.ts";

// Addresses differ between runs, so that a run's accounts and mails are told apart in logs.
const stamp = Date.now();

/** A person of a test: the address made from the first name, unique to this run. */
export function person(name: string, password: string): Person {
  const first = name.split(" ")[0]?.toLowerCase();
  return { name, email: `${first}.${stamp}@example.org`, password };
}

/** Two-step login of a test account: its TOTP secret and unused recovery codes. */
export interface MfaKeys {
  secret: string;
  recoveryCodes: string[];
}

/** The current code of a TOTP secret, as an authenticator app shows it. */
export function totpCode(secret: string, at = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
}

/**
 * Turns MFA on for an account through the API, as the Settings page does (admins must have it
 * before anything else). Later browser sign-ins use its recovery codes, one each.
 */
export async function enrolMfaByApi(
  baseUrl: string,
  who: Pick<Person, "email" | "password">,
): Promise<MfaKeys> {
  const call = (path: string, body: unknown, token?: string) =>
    callApi(baseUrl, "POST", path, body, token);
  const { email, password } = who;
  const { token } = (await call("/api/auth/login", { email, password })) as { token: string };
  const { secret } = (await call("/api/me/mfa/totp", undefined, token)) as { secret: string };
  const { recoveryCodes } = (await call(
    "/api/me/mfa/totp/confirm",
    { code: totpCode(secret) },
    token,
  )) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/** A person who may have turned two-step login on: logIn then answers with their keys. */
export type MfaPerson = Person & { mfa?: MfaKeys };

/** Turns MFA on for `who` through the API (enrolMfaByApi) and keeps the keys on them. */
export async function enrolMfa(baseUrl: string, who: MfaPerson): Promise<void> {
  who.mfa = await enrolMfaByApi(baseUrl, who);
}

const loginHeading = (page: Page) => page.getByRole("heading", { level: 1, name: "Login" });

/** /register, with the person's name, email and password typed in (not sent yet). */
export async function fillSignUp(page: Page, who: Person) {
  await page.goto("/register");
  await page.getByRole("heading", { level: 1, name: "Sign Up" }).waitFor();
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
}

/** /register, then the login page it leads to. `role` picks Student or Teacher. */
export async function signUp(page: Page, who: Person, role?: "Student" | "Teacher") {
  await fillSignUp(page, who);
  if (role) await page.getByLabel("Role").selectOption({ label: role });
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.waitForURL(/\/login$/);
  await loginHeading(page).waitFor();
}

/**
 * The login form filled in and sent, nothing awaited after: where it leads (Home, a `next`
 * address, the code step, a refusal) is the caller's to check.
 */
export async function submitLogin(page: Page, who: Pick<Person, "email" | "password">) {
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/**
 * Signs in on the login page (opened first unless it is showing) and waits for /Home. With
 * `mfa`, the code step is answered with one of the account's unused recovery codes.
 */
export async function logIn(
  page: Page,
  who: Pick<Person, "email" | "password"> & { mfa?: MfaKeys },
) {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  await loginHeading(page).waitFor();
  await submitLogin(page, who);
  if (who.mfa) {
    await page.getByRole("heading", { level: 1, name: "Two-step login" }).waitFor();
    const code = who.mfa.recoveryCodes.shift();
    if (!code) throw new Error(`no recovery code left for ${who.email}`);
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
  }
  try {
    await page.waitForURL(/\/Home$/, { timeout: 30_000 });
  } catch (err) {
    throw new Error(
      `login did not reach /Home: ${page.url()} ${await page.locator("main").textContent()}`,
      { cause: err },
    );
  }
}

/** A newcomer through the screens: signs up, then signs in (the address not verified yet). */
export async function signUpAndLogIn(page: Page, who: Person, role?: "Student" | "Teacher") {
  await signUp(page, who, role);
  await logIn(page, who);
}

/** A newcomer through the screens: signs up, signs in and verifies the address, as most tests need. */
export async function signUpVerified(
  page: Page,
  server: { outboxDir: string },
  who: Person,
  role?: "Student" | "Teacher",
) {
  await signUpAndLogIn(page, who, role);
  await verifyEmail(page, server, who);
}

/** The sidebar's Logout, which leads to the login page. */
export async function logOut(page: Page) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Logout" })
    .click();
  await page.waitForURL(/\/login$/);
}

/**
 * Verifies the signed-in person's email as they would: the newest code emailed to them (the
 * server's outbox), typed on /Verify. Reports and analytics need a verified address.
 */
export async function verifyEmail(page: Page, server: { outboxDir: string }, who: Person) {
  const code = await mailedCode(server, who.email);
  await page.goto("/Verify");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByText("Verification successful").waitFor();
}
