import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { adminMessages } from "@gradecast/contract/admin";
import { messages } from "@gradecast/contract/messages";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "./a11y.ts";
import { type OpenPage, openPage, type RunningServer, repoRoot, startServer } from "./harness.ts";

// User management in Chromium against the real server (issue 8): an admin made with
// `npm run admin:create` promotes a student to teacher, who sees Teacher Input after signing in
// again; an admin disables a signed-in teacher, whose next action lands on the login screen.
const run = promisify(execFile);
const stamp = Date.now();
const admin = {
  name: "Grace Admin",
  email: `grace.${stamp}@example.org`,
  password: "compilers all the way down",
};
const sam = {
  name: "Sam Student",
  email: `sam.${stamp}@example.org`,
  password: "a student passphrase",
};
const tess = {
  name: "Tess Teacher",
  email: `tess.${stamp}@example.org`,
  password: "a teacher passphrase",
};

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebar = (page: Page) => page.locator("#sidebar").locator("a, button").allTextContents();

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  // Land in the app frame, whose sidebar lists what the role may use.
  await page.goto("/profile");
  await page.locator("#sidebar").waitFor();
}

async function logOut(page: Page) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Logout" })
    .click();
  await page.waitForURL(/\/login/);
}

async function register(server: RunningServer, who: typeof sam, role: "student" | "teacher") {
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: who.name, email: who.email, password: who.password, role }),
  });
  expect(res.status).toBe(201);
}

describe("admin screens in the browser", () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: OpenPage;
  let second: BrowserContext;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "gradecast-e2e-admin-"));
    // The documented bootstrap, on the stopped server's DATA_DIR.
    await run(
      process.execPath,
      [
        "--import",
        "tsx",
        "apps/server/scripts/admin-create.ts",
        "--email",
        admin.email,
        "--name",
        admin.name,
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          ADMIN_PASSWORD: admin.password,
          LOG_LEVEL: "warn",
        },
      },
    );
    server = await startServer({ dataDir });
    browser = await openPage(server);
    second = await browser.browser.newContext({ baseURL: server.url });
    await register(server, sam, "student");
    await register(server, tess, "teacher");
  });

  afterAll(async () => {
    await second?.close();
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("shows the admin items to an admin only; other roles get the not-allowed screen", async () => {
    const page = await second.newPage();
    await logIn(page, sam);
    expect(await sidebar(page)).not.toContain("Users");
    await page.goto("/admin/users");
    await expect.poll(() => h1(page).textContent()).toBe("Not allowed");
    await logOut(page);
    await page.close();

    const { page: adminPage } = browser;
    await logIn(adminPage, admin);
    const items = await sidebar(adminPage);
    expect(items).toContain("Users");
    expect(items).toContain("Audit log");
    await adminPage.goto("/dashboard");
    await expect
      .poll(() => adminPage.locator(".welcome-card").textContent())
      .toContain("You are signed in as an Admin.");
  });

  it("promotes a student to teacher, who sees Teacher Input after signing in again", async () => {
    const samContext = await browser.browser.newContext({ baseURL: server.url });
    const samPage = await samContext.newPage();
    await logIn(samPage, sam);
    expect(await sidebar(samPage)).not.toContain("Teacher Input");

    const { page } = browser;
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Users" })
      .click();
    await expect.poll(() => h1(page).textContent()).toBe("Users");
    await page.getByLabel("Search by name or email").fill(sam.email.toUpperCase());
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByRole("row", { name: new RegExp(sam.name) });
    await row.waitFor();
    // The search answers with the header row and Sam only.
    await expect.poll(() => page.getByRole("row").count()).toBe(2);
    await row.getByRole("button", { name: `Change role of ${sam.name}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("New role").selectOption("teacher");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await page.getByText(`${sam.name} is now a teacher.`).waitFor();
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

  it("refuses to disable the last admin, with the reason in the dialog", async () => {
    const { page } = browser;
    await page.getByLabel("Search by name or email").fill(admin.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByRole("row", { name: new RegExp(admin.name) });
    await row.getByRole("button", { name: `Disable ${admin.name}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Focus starts on Cancel, not on the action.
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(focused).toBe("Cancel");
    await dialog.getByRole("button", { name: "Disable account" }).click();
    await dialog.getByText(adminMessages.lastAdmin).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    // And returns to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      `Disable ${admin.name}`,
    );
  });

  it("disables a signed-in teacher: their next action sends them to the login screen", async () => {
    const tessContext = await browser.browser.newContext({ baseURL: server.url });
    const tessPage = await tessContext.newPage();
    await logIn(tessPage, tess);
    expect(await sidebar(tessPage)).toContain("Teacher Dashboard");

    // Signed in and on a page of the app until the admin acts.
    expect(new URL(tessPage.url()).pathname).toBe("/profile");

    const { page } = browser;
    await page.getByLabel("Search by name or email").fill(tess.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByRole("row", { name: new RegExp(tess.name) });
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
    await tessPage.getByLabel("Email").fill(tess.email);
    await tessPage.getByLabel("Password").fill(tess.password);
    await tessPage.getByRole("button", { name: "Login" }).click();
    await tessPage.getByText(messages.accountDisabled).waitFor();
    await tessContext.close();
  });

  it("shows the role change and the disable in the audit log, filtered by action", async () => {
    const { page, consoleErrors } = browser;
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
    await card.getByRole("button", { name: `Re-enable ${tess.name}` }).waitFor();
    expect(await axeViolations(page), "/admin/users on a phone").toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(consoleErrors.filter((e) => !/401|409|Failed to load resource/.test(e))).toEqual([]);
  });
});
