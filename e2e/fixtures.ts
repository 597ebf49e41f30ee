import { test as base } from "vitest";
import { post, signUpByApi } from "./api-calls.ts";
import { enrolMfaByApi, type MfaKeys, type Person } from "./browser-accounts.ts";
import { type CommandLineAccount, startServerWith } from "./command-line-accounts.ts";
import { type OpenPage, openPage, type RunningServer } from "./harness.ts";

// Fixtures of the browser tests (Vitest `test.extend`): what every file used to copy into its
// beforeAll/afterAll. A file asks for what it needs by name and gets it set up once for the file
// and stopped after it, in the right order, even when a test fails:
//   server     the real server process on a fresh DATA_DIR (env from `serverEnv`), where the
//              people of `commandLineAccounts` were made by admin:create first
//   browser    Chromium with one page on that server (console errors and dialogs collected)
//   page       that page
//   accounts   accounts made through the API, as a person would make them, without the screens
// A file changes the server's environment with `test.override("serverEnv", {...})` at its top,
// and names its admins with `test.override("commandLineAccounts", [...])`.

export interface AccountOptions {
  role?: "student" | "teacher";
  name?: string;
  /** false: leave the email address unverified. */
  verified?: boolean;
  /** Turn two-step login on (an admin must; browser sign-ins then use recovery codes). */
  mfa?: boolean;
}

export interface TestAccount extends Person {
  role: "student" | "teacher";
  mfa?: MfaKeys;
}

export interface Accounts {
  /** Signs a person up through the API (and verifies the address with the mailed code). */
  create(options?: AccountOptions): Promise<TestAccount>;
}

let made = 0;

export function accountsOn(server: RunningServer): Accounts {
  return {
    async create({ role = "student", name, verified = true, mfa = false } = {}) {
      made += 1;
      // Unique across files and runs: the fixtures never share a server, but addresses in
      // screenshots and logs should still say which account was which.
      const stamp = `${Date.now().toString(36)}${made}`;
      const person = {
        name: name ?? `Test ${role} ${made}`,
        email: `${role}.${stamp}@example.org`,
        password: `a long test phrase ${stamp}`,
      };
      // Unverified accounts are only registered: signing in would open a session of its own.
      if (verified) await signUpByApi(server, person, role, { verified });
      else await post(server, "/api/auth/register", { ...person, role });
      const account: TestAccount = { ...person, role };
      if (mfa) account.mfa = await enrolMfaByApi(server.url, person);
      return account;
    },
  };
}

export const test = base
  .extend("serverEnv", { scope: "file" }, { RATE_LIMITS: "off" } as Record<string, string>)
  // People made by `npm run admin:create` before the server starts (admins, approved teachers).
  .extend("commandLineAccounts", { scope: "file" }, [] as CommandLineAccount[])
  .extend(
    "server",
    { scope: "file" },
    async ({ serverEnv, commandLineAccounts }, { onCleanup }) => {
      const server = await startServerWith(commandLineAccounts, serverEnv);
      onCleanup(() => server.stop());
      return server;
    },
  )
  .extend("browser", { scope: "file" }, async ({ server }, { onCleanup }) => {
    const browser: OpenPage = await openPage(server);
    onCleanup(() => browser.close());
    return browser;
  })
  .extend("page", { scope: "file" }, ({ browser }) => browser.page)
  .extend("accounts", { scope: "file" }, ({ server }) => accountsOn(server));

export { describe, expect } from "vitest";
