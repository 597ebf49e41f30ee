import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { person, signUpVerified } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { fileReports, fillReportForm } from "./report-form.ts";

test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open" });

// Failures and focus around navigation, in Chromium against the real server: a page whose chunk
// cannot be fetched shows an error inside the frame (never a blank page) and the rest of the app
// still works; a button keeps keyboard focus while its request runs, and Load more hands focus
// to the first new row.

const stamp = Date.now();
const teacher = person("Nora Navigator", "eleven quiet lanterns glow");

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.id ? `#${el.id}` : (el?.textContent?.trim() ?? "");
  });
const loadFailed = (page: Page) =>
  page.getByRole("alert").filter({ hasText: "This page could not be loaded." });

describe("navigation failures and focus in the browser", () => {
  test("a public page whose chunk fails shows Retry inside the frame; other links and Back work", async ({
    page,
    browser,
  }) => {
    await page.goto("/about");
    await expect.poll(() => heading(page).textContent()).toBe("About Us");
    // As after a redeploy: the old chunk is gone.
    await page.route("**/assets/help-*.js", (route) => route.fulfill({ status: 404 }));
    const site = page.getByRole("navigation", { name: "Site" });
    await site.getByRole("link", { name: "Help" }).click();
    await loadFailed(page).waitFor();
    expect(await page.locator("main").getByRole("button", { name: "Retry" }).count()).toBe(1);

    await site.getByRole("link", { name: "Contact" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("Contact Us");
    await page.goBack();
    await loadFailed(page).waitFor();
    await page.goBack();
    await expect.poll(() => heading(page).textContent()).toBe("About Us");
    await page.goForward();
    await loadFailed(page).waitFor();

    // Retry loads the page once its chunk is there again (a full load of the same address).
    await page.unroute("**/assets/help-*.js");
    await page.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("Help");
    expect(new URL(page.url()).pathname).toBe("/help");
    browser.consoleErrors.length = 0;
  });

  test("an app page whose chunk fails keeps the sidebar usable", async ({
    page,
    browser,
    server,
  }) => {
    await signUpVerified(page, server, teacher, "Teacher");
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await page.route("**/assets/profile-*.js", (route) => route.abort("connectionrefused"));
    const sidebar = page.getByRole("navigation", { name: "Main" });
    await sidebar.getByRole("link", { name: "Profile" }).click();
    await loadFailed(page).waitFor();
    expect(await page.locator("#root").textContent()).toContain("Logged in as");

    await sidebar.getByRole("link", { name: "Settings" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("Settings");
    await page.unroute("**/assets/profile-*.js");
    await sidebar.getByRole("link", { name: "Profile" }).click();
    // React keeps the failed import for the life of the page: Retry reloads.
    await page.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.locator("main dl").textContent()).toContain(teacher.name);
    browser.consoleErrors.length = 0;
  });

  test("Load more moves focus to the first new row; Export CSV keeps focus on its button", async ({
    page,
  }) => {
    await fileReports(
      page,
      Array.from({ length: 26 }, (_, k) => ({
        studentName: `Row ${stamp} ${String(k + 1).padStart(2, "0")}`,
        course: "Biology",
        marks: 60,
        attendance: 90,
        assignments: 4,
        behavior: "Good",
        feedback: "Steady.",
      })),
    );
    await page.goto("/teacher-dashboard?sort=name");
    const rows = page.locator(".reports-table tbody tr");
    await expect.poll(() => rows.count()).toBe(25);

    // Slow answers, so that focus is checked while each request runs.
    await page.route("**/api/reports?*", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.getByRole("button", { name: "Load more" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".reports-more [aria-busy=true]").waitFor();
    expect(await focused(page)).toBe("Load more");
    await expect.poll(() => rows.count()).toBe(26);
    // The last page: the button is gone, and focus is on the new row, not on <body>.
    await expect.poll(() => focused(page)).toBe(`Row ${stamp} 26`);
    await page.unroute("**/api/reports?*");

    await page.route("**/api/reports/export.csv*", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.getByRole("button", { name: "Export CSV" }).focus();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      (async () => {
        await page.keyboard.press("Enter");
        await page.locator("[aria-busy=true]", { hasText: "Export CSV" }).waitFor();
        expect(await focused(page)).toBe("Export CSV");
      })(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    await expect.poll(() => page.locator("[aria-busy=true]").count()).toBe(0);
    expect(await focused(page)).toBe("Export CSV");
    await page.unroute("**/api/reports/export.csv*");
  });

  test("Teacher Input keeps focus on Submit while it saves; the fields are read-only, not disabled", async ({
    page,
    browser,
  }) => {
    await page.goto("/teacher-input");
    await fillReportForm(page, {
      studentName: `Focus ${stamp}`,
      course: "Physics",
      marks: "70",
      attendance: "80",
      assignments: "3",
      behavior: "Good",
      feedback: "Fine.",
    });
    // The server refuses it: the button and the fields must survive the error too.
    await page.route("**/api/reports", async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.fulfill({ status: 503, body: "" });
    });
    await page.getByRole("button", { name: "Submit Report" }).focus();
    await page.keyboard.press("Enter");
    await page.locator("form [aria-busy=true]").waitFor();
    expect(await focused(page)).toBe("Submit Report");
    expect(await page.getByLabel("Course").evaluate((el: HTMLInputElement) => el.readOnly)).toBe(
      true,
    );
    expect(await page.locator("form :disabled").count()).toBe(0);
    await page.getByRole("alert").filter({ hasText: messages.reportFailed }).waitFor();
    expect(await focused(page)).toBe("Submit Report");
    expect(await page.getByLabel("Course").inputValue()).toBe("Physics");
    await page.unroute("**/api/reports");
    browser.consoleErrors.length = 0;
  });

  test("a new page opens at the top, with focus on its main region", async ({ page }) => {
    await page.goto("/teacher-dashboard?sort=name");
    await expect.poll(() => page.locator(".reports-table tbody tr").count()).toBe(25);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    // Clicked where it is, without the test scrolling to it first.
    await page.evaluate(() =>
      document.querySelector<HTMLElement>('#sidebar a[href="/profile"]')?.click(),
    );
    await expect.poll(() => page.locator("main dl").count()).toBe(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await focused(page)).toBe("#main");
  });

  test("logged no console error", ({ browser }) => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
