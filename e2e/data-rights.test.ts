import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { logIn, person, signUp } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";

// Issue 31 in Chromium against the real server: the privacy notice is public and linked from the
// sign-up page; a student downloads everything held about them from Settings (a ZIP of JSON and
// CSV), then deletes the account: the password is asked again, they are signed out, and signing
// in again during the grace period cancels the deletion and says so.
const student = person("Nia Leaving", "a pupil leaving the school");

describe("a student's data rights in the browser", () => {
  test("reads the notice, exports their data, deletes the account and cancels by signing in", async ({
    page,
  }) => {
    await page.goto("/register");
    await page.getByRole("link", { name: "privacy notice", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Privacy notice" }).waitFor();
    await page.getByRole("heading", { name: "Questionnaire answers" }).waitFor();

    await signUp(page, student);
    await logIn(page, student);
    await page.goto("/settings");
    const card = page.getByRole("region", { name: "Your data" });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("button", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^gradecast-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
    const account = JSON.parse(strFromU8(files["users.json"] as Uint8Array)) as {
      email: string;
    }[];
    expect(account[0]?.email).toBe(student.email);
    expect(Object.keys(files)).toContain("users.csv");

    await card.getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    // The page says when, unless the app noticed the ended session first and went to sign-in.
    const goOn = card.getByRole("button", { name: "Go to the sign-in page" });
    await Promise.race([goOn.waitFor(), page.waitForURL(/\/login/)]);
    if (!/\/login/.test(page.url())) {
      await card.getByText(/Your account will be deleted on/).waitFor();
      await goOn.click();
    }
    await page.waitForURL(/\/login/);

    await logIn(page, student);
    await page.getByText("Your account is not being deleted").waitFor();
  });
});
