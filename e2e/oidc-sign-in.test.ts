import { randomUUID } from "node:crypto";
import { afterAll } from "vitest";
import { startTestProvider } from "../apps/server/test/support/oidc-provider.ts";
import { logOut } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";

// Issue 34: a student signs in with the school's account. A real OpenID provider (the
// oidc-provider package) runs beside the server; its login and consent pages are answered at
// once for the account the test names, so that Chromium follows the whole round of redirects:
// the login page's button, the provider, the callback, the session taken up by the page.
const provider = await startTestProvider({});
afterAll(() => provider.close());

test.override("serverEnv", {
  RATE_LIMITS: "off",
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  OIDC_NAME: "Test School",
  OIDC_ALLOWED_DOMAINS: "school.test",
});

describe("sign-in with the school's provider", () => {
  test.beforeAll(({ server }) => {
    provider.register([`${server.url}/api/auth/oidc/callback`]);
  });

  test("a student signs in with the school's account, sees how in the session list, and is offered the provider's sign-out", async ({
    page,
    browser,
    server,
  }) => {
    const sub = randomUUID();
    const email = `lia-${sub.slice(0, 8)}@school.test`;
    provider.account(sub, { email, email_verified: true, name: "Lia Lopes" });
    provider.browserSignsInAs(sub);

    await page.goto("/login");
    await page.getByRole("link", { name: "Sign in with Test School" }).click();
    await page.waitForURL((url) => url.pathname === "/Home");
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Welcome, Lia Lopes!" }).waitFor();

    await page.goto("/settings");
    const sessions = page.getByRole("region", { name: "Sessions" });
    await sessions.getByText("Signed in with Test School").waitFor();

    await logOut(page);
    const providerLogout = page.getByRole("link", { name: "sign out of Test School too" });
    await providerLogout.waitFor();
    expect(await providerLogout.getAttribute("href")).toContain(provider.issuer);
    expect(browser.consoleErrors).toEqual([]);
    // Signing out at the provider too (its own confirmation page), which sends them back here.
    // That page is the provider's, not Gradecast's: what it fails to load (a favicon, a font) is
    // left out of the console check.
    const seen = browser.consoleErrors.length;
    await providerLogout.click();
    await page.getByRole("button", { name: /sign me out/i }).click();
    await page.waitForURL(
      (url) => url.origin === new URL(server.url).origin && url.pathname === "/login",
    );
    browser.consoleErrors.splice(seen, browser.consoleErrors.length - seen);

    // A refusal comes back to the login page in words: an address outside the school's domain.
    const other = randomUUID();
    provider.account(other, {
      email: `x-${other.slice(0, 8)}@elsewhere.test`,
      email_verified: true,
    });
    provider.browserSignsInAs(other);
    await page.getByRole("link", { name: "Sign in with Test School" }).click();
    await page.waitForURL((url) => url.searchParams.get("oidc_error") === "domain_not_allowed");
    await page.getByText("only accepts the school's own accounts").waitFor();
    expect(new URL(server.url).origin).toBe(new URL(page.url()).origin);
    expect(browser.consoleErrors).toEqual([]);
  });
});
