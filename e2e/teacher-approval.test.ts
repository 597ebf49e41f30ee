import { messages } from "@gradecast/contract/messages";
import {
  enrolMfa,
  logIn,
  logOut,
  type MfaPerson,
  person,
  signUp,
  signUpAndLogIn,
  verifyEmail,
} from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";

// TEACHER_SIGNUP=approval, the default: a teacher sign-up waits as a student until an admin
// approves or rejects it, and the dashboard tells the teacher so; the admin's sidebar counts the
// requests. Reports stay closed to an approved teacher until their email is verified; a rejected
// one stays a student whose dashboard no longer says a request waits.
const admin: MfaPerson = person("Ada Admin", "approvals come first 7");
const who = person("Wanda Waiting", "patience is a virtue 9");
const refused = person("Rex Refused", "not every request is granted 4");
const waitingText = "Your request to be a teacher is waiting for an admin to approve it.";

// No TEACHER_SIGNUP: the default is approval.
test.override("serverEnv", { TEACHER_SIGNUP: "", RATE_LIMITS: "off" });
test.override("commandLineAccounts", [admin]);

describe("a teacher sign-up waiting for approval", () => {
  test.beforeAll(async ({ server }) => {
    // Admins must turn on two-step login first (issue 18); the browser signs in with a code.
    await enrolMfa(server.url, admin);
  });

  test("says on the dashboard that the request waits for an admin", async ({ page, browser }) => {
    await signUp(page, refused, "Teacher");
    await signUpAndLogIn(page, who, "Teacher");
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: `Welcome, ${who.name}!` }).waitFor();
    const card = await page.locator(".welcome-card").innerText();
    expect(card).toContain("You are logged in as a Student.");
    expect(card).toContain(waitingText);
    expect(browser.consoleErrors).toEqual([]);
  });

  test("the admin sees how many wait on the sidebar, rejects one and approves the other; reports open once the email is verified", async ({
    page,
    browser,
    server,
  }) => {
    await logOut(page);
    await logIn(page, admin);
    await page.goto("/profile");
    const users = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Users/ });
    await expect.poll(() => users.textContent()).toBe("Users2 waiting for approval");
    await users.click();
    // Reject sits beside Approve; it asks first, then the request is gone from the row.
    await page.getByRole("button", { name: `Reject teacher request: ${refused.name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Reject request" }).click();
    await page.getByText(`${refused.name}'s teacher request was rejected.`).waitFor();
    await expect.poll(() => users.textContent()).toBe("Users1 waiting for approval");
    const refusedRow = page.getByRole("row", { name: new RegExp(refused.name) });
    // The row is drawn again once the list is fetched again, a moment after the message.
    await expect.poll(() => refusedRow.getByText("Wants to be a teacher").count()).toBe(0);
    expect(await refusedRow.getByRole("button", { name: /^Approve|^Reject/ }).count()).toBe(0);
    expect(await refusedRow.getByRole("cell", { name: "Student", exact: true }).count()).toBe(1);
    await page.getByRole("button", { name: `Approve as teacher: ${who.name}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Approve as teacher" }).click();
    await page.getByText(`${who.name} is now a teacher.`).waitFor();
    await expect.poll(() => users.textContent()).toBe("Users");

    await logOut(page);
    await logIn(page, who);
    // A teacher now, but the address is not verified: the dashboard says so and how to fix it.
    await page.goto("/teacher-dashboard");
    await page.getByText(messages.emailNotVerified).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Verify your email" }).first().waitFor();
    await verifyEmail(page, server, who);
    await page.goto("/teacher-dashboard");
    await page.getByText(messages.noReports).waitFor();
    expect(browser.consoleErrors.filter((e) => !/403/.test(e))).toEqual([]);
  });

  test("the rejected sign-up stays a student, and the dashboard no longer says a request waits", async ({
    page,
    browser,
  }) => {
    // The console's errors of this step only (the step before expects its 403s).
    const seen = browser.consoleErrors.length;
    await logOut(page);
    await logIn(page, refused);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: `Welcome, ${refused.name}!` }).waitFor();
    const card = await page.locator(".welcome-card").innerText();
    expect(card).toContain("You are logged in as a Student.");
    expect(card).not.toContain(waitingText);
    expect(browser.consoleErrors.slice(seen)).toEqual([]);
  });
});
