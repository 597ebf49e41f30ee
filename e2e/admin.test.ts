import { adminMessages } from "@gradecast/contract/admin";
import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { makeTeacher, openManage, searchUsers } from "./admin-steps.ts";
import {
  enrolMfa,
  logIn as logInHome,
  logOut,
  type MfaKeys,
  type MfaPerson,
  person,
  submitLogin,
} from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import type { OpenPage, RunningServer } from "./harness.ts";
import { call } from "./proof-helpers.ts";

// User management in Chromium against the real server (issue 8): an admin made with
// `npm run admin:create` promotes a student to teacher, who sees Teacher Input after signing in
// again; an admin disables a signed-in teacher, whose next action lands on the login screen.
const admin: MfaPerson = person("Grace Admin", "compilers all the way down");
const sam = person("Sam Student", "a student passphrase");
const tess = person("Tess Teacher", "a teacher passphrase");

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.locator("#sidebar").locator("a, button").allTextContents();

async function logIn(page: Page, who: { email: string; password: string; mfa?: MfaKeys }) {
  await logInHome(page, who);
  // Land in the app frame, whose sidebar lists what the role may use.
  await page.goto("/profile");
  await page.locator("#sidebar").waitFor();
}

/** Another person's browser on the same server, signed in as `who`: its context and page. */
async function signedInElsewhere(browser: OpenPage, server: RunningServer, who: typeof sam) {
  const context = await browser.browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await logIn(page, who);
  return { context, page };
}

async function register(server: RunningServer, who: typeof sam, role: "student" | "teacher") {
  const res = await call(server.url, "POST", "/api/auth/register", { body: { ...who, role } });
  expect(res.status).toBe(201);
}

// The documented bootstrap, on the stopped server's DATA_DIR. Tess signs up as a teacher and is
// one at once: these tests are about the admin's screens (the rate limits stay on).
test.override("serverEnv", { TEACHER_SIGNUP: "open" });
test.override("commandLineAccounts", [admin]);

describe("admin screens in the browser", () => {
  test.beforeAll(async ({ server }) => {
    // Admins must turn on two-step login first (issue 18); the browser signs in with a code.
    await enrolMfa(server.url, admin);
    await register(server, sam, "student");
    await register(server, tess, "teacher");
  });

  test("shows the admin items to an admin only; other roles get the not-allowed screen", async ({
    browser,
    server,
  }) => {
    const { context: second, page } = await signedInElsewhere(browser, server, sam);
    expect(await sidebar(page)).not.toContain("Users");
    await page.goto("/admin/users");
    await expect.poll(() => h1(page).textContent()).toBe("Not allowed");
    await logOut(page);
    await second.close();

    const { page: adminPage } = browser;
    await logIn(adminPage, admin);
    const items = await sidebar(adminPage);
    expect(items).toContain("Users");
    expect(items).toContain("Audit log");
    await adminPage.goto("/dashboard");
    await expect
      .poll(() => adminPage.locator(".welcome-card").textContent())
      .toContain("You are logged in as an Admin.");
  });

  test("promotes a student to teacher, who sees Teacher Input after signing in again", async ({
    page,
    browser,
    server,
  }) => {
    const { context: samContext, page: samPage } = await signedInElsewhere(browser, server, sam);
    expect(await sidebar(samPage)).not.toContain("Teacher Input");

    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Users" })
      .click();
    await expect.poll(() => h1(page).textContent()).toBe("Users");
    const row = await searchUsers(page, sam.email.toUpperCase(), sam.name);
    await row.waitFor();
    // The search answers with the header row and Sam only.
    await expect.poll(() => page.getByRole("row").count()).toBe(2);
    await makeTeacher(row, sam.name);
    await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toContain("Teacher");

    await logOut(samPage);
    await logIn(samPage, sam);
    expect(await sidebar(samPage)).toContain("Teacher Input");
    await samPage
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Teacher Input" })
      .click();
    await expect.poll(() => h1(samPage).textContent()).toBe("Teacher Input");
    await samContext.close();
  });

  test("turns off disabling and demoting the last admin, with the reason beside the controls", async ({
    page,
  }) => {
    const row = await searchUsers(page, admin.email, admin.name);
    await openManage(row);
    for (const name of [`Disable ${admin.name}`, `Change role of ${admin.name}`]) {
      const button = row.getByRole("button", { name });
      await expect.poll(() => button.getAttribute("aria-disabled")).toBe("true");
      const note = await button.getAttribute("aria-describedby");
      expect(await page.locator(`[id="${note}"]`).textContent()).toBe(adminMessages.lastAdmin);
      // Pressing it anyway opens nothing: there is nothing the server would allow.
      await button.click({ force: true });
      expect(await page.getByRole("dialog").count()).toBe(0);
    }
    // The other accounts' controls are on.
    const samRow = await searchUsers(page, sam.email, sam.name);
    await openManage(samRow);
    expect(
      await samRow
        .getByRole("button", { name: `Disable ${sam.name}` })
        .getAttribute("aria-disabled"),
    ).toBeNull();
  });

  test("disables a signed-in teacher: their next action sends them to the login screen", async ({
    page,
    browser,
    server,
  }) => {
    const { context: tessContext, page: tessPage } = await signedInElsewhere(browser, server, tess);
    expect(await sidebar(tessPage)).toContain("Teacher Dashboard");

    // Signed in and on a page of the app until the admin acts.
    expect(new URL(tessPage.url()).pathname).toBe("/profile");

    const row = await searchUsers(page, tess.email, tess.name);
    await openManage(row);
    await row.getByRole("button", { name: `Disable ${tess.name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Disable account" }).click();
    await page.getByText(`${tess.name}'s account is disabled.`).waitFor();
    await row.getByText("Disabled", { exact: true }).waitFor();

    // Tess's ID token is still within its 15 minutes: the server refuses it at once anyway.
    // Her click loads reports; if a background refetch (window focus) reached the server
    // first, she is already on the login screen and the click has nothing left to click.
    await tessPage
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Teacher Dashboard" })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await tessPage.waitForURL(/\/login/, { timeout: 15_000 });
    await submitLogin(tessPage, tess);
    await tessPage.getByText(messages.accountDisabled).waitFor();
    await tessContext.close();
  });

  test("shows the role change and the disable in the audit log, filtered by action", async ({
    page,
    browser,
  }) => {
    const { consoleErrors } = browser;
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Audit log" })
      .click();
    await expect
      .poll(() => h1(page).textContent({ timeout: 5000 }), { message: consoleErrors.join("\n") })
      .toBe("Audit log");
    await page.getByLabel("Action").selectOption("admin.user_disabled");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const rows = page.getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    const text = (await rows.nth(1).textContent()) ?? "";
    expect(text).toContain(admin.email);
    expect(text).toContain("127.0.0.1");
    expect(text).toContain(tess.email);
    await page.getByLabel("Action").selectOption("admin.role_changed");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(async () => (await rows.nth(1).textContent()) ?? "").toContain(sam.email);
    expect(await axeViolations(page), "/admin/audit").toEqual([]);
    await page.goto("/admin/users");
    await page.getByRole("row", { name: new RegExp(tess.name) }).waitFor();
    expect(await axeViolations(page), "/admin/users").toEqual([]);
    // On a phone the tables become labelled cards and stay usable.
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByRole("row", { name: new RegExp(tess.name) });
    await card.waitFor();
    await openManage(card);
    await card.getByRole("button", { name: `Re-enable ${tess.name}` }).waitFor();
    expect(await axeViolations(page), "/admin/users on a phone").toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(consoleErrors.filter((e) => !/401|409|Failed to load resource/.test(e))).toEqual([]);
  });
});
