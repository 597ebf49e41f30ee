import { post } from "./api-calls.ts";
import { person, signUpAndLogIn, submitLogin } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import type { OpenPage } from "./harness.ts";
import { storedKeys, storedToken } from "./local-storage.ts";
import { call } from "./proof-helpers.ts";

// The questionnaire's draft in Chromium against the real server (issue 18): a student leaves
// answers on a shared computer, then ends that session from another device; the next time the
// shared computer's page talks to the server, the answers are gone from its storage.
const student = person("Lou Leftbehind", "a library computer upstairs");

const draftKeys = (browser: OpenPage) => storedKeys(browser.page, "gradecast:questionnaire-draft:");

describe("the questionnaire draft goes with the session", () => {
  test.beforeAll(async ({ page }) => {
    await signUpAndLogIn(page, student);
  });

  test("is deleted from storage when the session is ended from another device", async ({
    page,
    browser,
    server,
  }) => {
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).selectOption("F");
    await page.getByLabel("Age", { exact: true }).selectOption("17");
    await expect.poll(() => draftKeys(browser)).toHaveLength(1);
    const [key] = await draftKeys(browser);
    expect(await page.evaluate((k) => localStorage.getItem(k!), key)).toContain('"sex":"F"');

    // At home: sign in and end every other session.
    const { email, password } = student;
    const { token } = (await post(server, "/api/auth/login", { email, password })) as {
      token: string;
    };
    const ended = await call(server.url, "DELETE", "/api/me/sessions", { token });
    expect(ended.status).toBeLessThan(300);

    // The shared computer, next time its page asks the server anything.
    await page.reload();
    await page.waitForURL(/\/login\?next=%2Fstudent-input$/);
    expect(await draftKeys(browser)).toEqual([]);
    expect(await storedToken(page)).toBeNull();

    // Signing in again (the login screen leads back) shows an empty questionnaire.
    await submitLogin(page, student);
    await page.waitForURL(/\/student-input$/);
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await page.getByLabel("Sex", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Age", { exact: true }).inputValue()).toBe("");
  });
});
