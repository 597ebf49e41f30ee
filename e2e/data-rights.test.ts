import { logIn, person, signUpAndLogIn } from "./browser-accounts.ts";
import { deleteMyAccount, downloadMyData } from "./data-card-steps.ts";
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

    await signUpAndLogIn(page, student);
    await page.goto("/settings");
    const { filename, files, account } = await downloadMyData(page);
    expect(filename).toMatch(/^gradecast-export-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(account[0]?.email).toBe(student.email);
    expect(Object.keys(files)).toContain("users.csv");

    await deleteMyAccount(page);

    await logIn(page, student);
    await page.getByText("Your account is not being deleted").waitFor();
  });
});
