import type { BrowserContext } from "playwright-core";
import { logIn, logOut, submitLogin, totpCode } from "./browser-accounts.ts";
import { describe, expect, type TestAccount, test } from "./fixtures.ts";

// Two-step login and sessions on /settings in Chromium against the real server (issue 18): a
// student turns MFA on with the key typed by hand (as someone who cannot scan would), sees the
// recovery codes once, signs in again with a code from the app, and ends another browser's
// session, whose next action lands on the login screen.

// The server takes a code of the step before or after the current one, and each step once
// (mfa_last_step): the test walks the steps forward and waits only when the next one is not yet
// within that window.
const stepMs = 30_000;
let lastStep = -1;

/** A code the server has not seen: the step after the last one used, waited for if need be. */
async function freshCode(secret: string): Promise<string> {
  const step = Math.max(lastStep + 1, Math.floor(Date.now() / stepMs));
  const wait = (step - 1) * stepMs - Date.now() + 200;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastStep = step;
  return totpCode(secret, step * stepMs + stepMs / 2);
}

describe("two-step login and sessions in the browser", () => {
  let student: TestAccount;
  let other: BrowserContext;
  let secret = "";

  test.beforeAll(async ({ server, browser, page, accounts }) => {
    other = await browser.browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
    });
    student = await accounts.create({ name: "Mia Factor", verified: false });
    await logIn(page, student);
  });

  test.afterAll(async () => {
    await other?.close();
  });

  test("turns MFA on from /settings with the typed key, and shows the recovery codes once", async ({
    page,
    browser,
  }) => {
    await page.goto("/settings");
    const card = page.getByRole("region", { name: "Two-step login" });
    await card.getByRole("button", { name: "Set up two-step login" }).click();
    await card.getByRole("img", { name: /QR code/ }).waitFor();
    secret = ((await card.getByTestId("mfa-secret").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await card.getByLabel(/Enter the 6-digit code/).fill(await freshCode(secret));
    await card.getByLabel(/Enter the 6-digit code/).press("Enter");
    const codes = ((await card.getByTestId("recovery-codes").textContent()) ?? "").split("\n");
    expect(codes).toHaveLength(10);
    await card.getByText(/Recovery codes left: 10/).waitFor();
    // Shown once: a reload shows the status only.
    await page.reload();
    await page.getByText(/Recovery codes left: 10/).waitFor();
    expect(await page.getByTestId("recovery-codes").count()).toBe(0);
    expect(browser.consoleErrors).toEqual([]);
  });

  test("signs in with a code from the app after the password", async ({ page }) => {
    await logOut(page);
    await submitLogin(page, student);
    await page.getByRole("heading", { level: 1, name: "Two-step login" }).waitFor();
    await page.getByLabel("Code").fill("000000" === totpCode(secret) ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText(/That code is not right/).waitFor();
    await page.getByLabel("Code").fill(await freshCode(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/Home$/);
  });

  test("ends another browser's session from /settings; that browser is signed out", async ({
    browser,
  }) => {
    const phone = await other.newPage();
    await phone.goto("/login");
    await submitLogin(phone, student);
    await phone.getByRole("heading", { level: 1, name: "Two-step login" }).waitFor();
    await phone.getByLabel("Code").fill(await freshCode(secret));
    await phone.getByRole("button", { name: "Verify" }).click();
    await phone.waitForURL(/\/Home$/);

    const { page } = browser;
    await page.goto("/settings");
    const sessions = page.getByRole("region", { name: "Sessions" });
    await sessions.getByText("This browser").waitFor();
    const end = sessions.getByRole("button", { name: /^End session:/ });
    await expect.poll(() => end.count()).toBe(1);
    // With the keyboard, as the rest of the page.
    await end.focus();
    await page.keyboard.press("Enter");
    await sessions.getByText("The session has ended.").waitFor();
    await expect.poll(() => end.count()).toBe(0);

    // The phone's next action finds its session gone.
    await phone.goto("/profile");
    await phone.waitForURL(/\/login/);
  });
});
