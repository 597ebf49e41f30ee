import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { logIn, logOut, person, signUp, signUpVerified, submitLogin } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { storedKeys } from "./local-storage.ts";

test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open" });

// The teacher form's draft in Chromium against the real server: what a teacher types survives a
// reload, Back/Forward and an expired session; a successful submit clears it; logout forgets it,
// and another teacher signing in on the same browser never sees it.
const stamp = Date.now();
const teacher = person("Dora Draft", "margins full of notes 7");
const other = person("Otto Other", "another desk entirely 8");

const typed = {
  "Student name": `Draft Pupil ${stamp}`,
  Course: "Geography",
  Marks: "77",
  Attendance: "88",
  Assignments: "4",
  Feedback: "Map work is improving.",
};

async function openForm(page: Page) {
  await page.goto("/teacher-input");
  await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
}

async function fillForm(page: Page) {
  for (const [label, value] of Object.entries(typed)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByLabel("Behavior").selectOption("Good");
}

/** The form's values, by label. */
async function formValues(page: Page): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const label of [...Object.keys(typed), "Behavior"]) {
    values[label] = await page.getByLabel(label, { exact: true }).inputValue();
  }
  return values;
}

const filled = { ...typed, Behavior: "Good" };
const empty = Object.fromEntries(Object.keys(filled).map((k) => [k, ""]));

describe("the teacher form keeps a draft on this device", () => {
  test.beforeAll(async ({ page, server }) => {
    await signUp(page, other, "Teacher");
    await signUpVerified(page, server, teacher, "Teacher");
  });

  test("says so on the page, and keeps what was typed across a reload", async ({ page }) => {
    await openForm(page);
    expect(await page.locator("main").textContent()).toContain(
      "kept on this device until you submit it or log out",
    );
    await fillForm(page);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    await expect.poll(() => formValues(page)).toEqual(filled);
  });

  test("keeps it across Back and Forward", async ({ page }) => {
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Profile" })
      .click();
    await page.waitForURL(/\/profile$/);
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    await expect.poll(() => formValues(page)).toEqual(filled);
  });

  test("keeps it when the session expires and the teacher signs in again", async ({ page }) => {
    // A session that ended without a logout: the ID token is refused and the refresh cookie is
    // gone, so the guard sends the teacher to /login and back.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.setItem("token", "not.a.token"));
    await page.reload();
    await page.waitForURL(/\/login\?next=%2Fteacher-input$/);
    await page.getByRole("heading", { level: 1, name: "Login" }).waitFor();
    await submitLogin(page, teacher);
    await page.waitForURL(/\/teacher-input$/);
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    await expect.poll(() => formValues(page)).toEqual(filled);
  });

  test("clears it once the report is submitted", async ({ page }) => {
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain(messages.reportSubmitted);
    expect(await formValues(page)).toEqual(empty);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    expect(await formValues(page)).toEqual(empty);
  });

  test("forgets it at logout: neither another teacher nor the same one sees it again", async ({
    page,
  }) => {
    await fillForm(page);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    await expect.poll(() => formValues(page)).toEqual(filled);
    await logOut(page);
    expect(await storedKeys(page, "gradecast:")).toEqual([]);

    await logIn(page, other);
    await openForm(page);
    expect(await formValues(page)).toEqual(empty);
    await logOut(page);

    await logIn(page, teacher);
    await openForm(page);
    expect(await formValues(page)).toEqual(empty);
  });

  test("logged no console errors", ({ browser }) => {
    // The refused token and refresh of the ended session are expected; nothing else.
    expect(browser.consoleErrors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
  });
});
