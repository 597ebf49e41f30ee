import type { Locator, Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { fillSignUp, logOut, submitLogin } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { type Mail, type RunningServer, readOutbox } from "./harness.ts";
import { storedKeys, storedToken } from "./local-storage.ts";

// Everything a person does with an account, in Chromium against the real server: sign up, read
// the code from the outbox, log in, verify, change name and password, log out (other tabs too),
// reset a forgotten password from the emailed link. Nothing is mocked.
const ada = {
  name: "Ada Lovelace",
  email: `ada.${Date.now()}@example.org`,
  password: "analytical engine 1843",
  newPassword: "difference engine no 2",
  resetPassword: "notes on the menabrea memoir",
};

async function waitForMail(server: RunningServer, match: (m: Mail) => boolean): Promise<Mail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = (await readOutbox(server)).filter(match).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error("the expected email never arrived");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A field's error shows once, beside the field, and not again in a form-level alert. */
async function expectOneErrorBesideField(page: Page, form: Locator) {
  const error = form.locator(".field-error");
  await expect.poll(() => error.count()).toBe(1);
  const text = (await error.textContent()) ?? "";
  expect(await page.getByText(text, { exact: true }).count()).toBe(1);
  expect(await form.getByRole("alert").count()).toBe(0);
}

const h1 = (page: Page) => page.getByRole("heading", { level: 1 });
const sidebarItems = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).locator("a, button").allTextContents();

/** The `old` password is refused as a wrong one; the `current` one signs in, onto Home. */
async function onlyCurrentPasswordWorks(page: Page, email: string, old: string, current: string) {
  await submitLogin(page, { email, password: old });
  await expect
    .poll(() => page.locator(".form-error").textContent())
    .toBe("Invalid email or password.");
  await submitLogin(page, { email, password: current });
  await page.waitForURL(/\/Home$/);
}

// Open teacher sign-up: the teacher below is one at once (approval has its own test). The rate
// limits stay on, as a user meets them.
test.override("serverEnv", { TEACHER_SIGNUP: "open" });

describe("accounts in the browser", () => {
  test("registers a student, who receives a 6-digit code by email", async ({
    page,
    browser,
    server,
  }) => {
    const { dialogs } = browser;
    await fillSignUp(page, { ...ada, password: "short" });
    // The browser's own check (minlength) stops a too-short password before the server.
    await page.getByRole("button", { name: "Sign Up" }).click();
    expect(
      await page.getByLabel("Password").evaluate((el: HTMLInputElement) => el.validity.valid),
    ).toBe(false);
    // A common password: the server's field message appears next to the password field.
    await page.getByLabel("Password").fill("password123");
    await page.getByRole("button", { name: "Sign Up" }).click();
    const password = page.getByLabel("Password");
    await expect.poll(() => password.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await password.getAttribute("aria-describedby")) ?? "";
    const errorId = describedBy.split(" ").find((id) => id.endsWith("-error")) ?? "";
    const fieldError = (await page.locator(`[id="${errorId}"]`).textContent()) ?? "";
    expect(fieldError).toBeTruthy();
    // Once, beside the field: the form's own error paragraph is for errors of no field.
    expect(await page.getByText(fieldError, { exact: true }).count()).toBe(1);
    expect(await page.locator(".form-error").textContent()).toBe("");
    expect(page.url()).toMatch(/\/register$/);
    expect(dialogs).toEqual([]);

    await page.getByLabel("Password").fill(ada.password);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.waitForURL(/\/login$/);
    expect(dialogs).toEqual(["Registration successful!"]);

    const mail = await waitForMail(server, (m) => m.to.includes(ada.email));
    expect(mail.text).toMatch(/\b\d{6}\b/);
  });

  test("shows the server's message when the email is already taken, next to the field", async ({
    page,
  }) => {
    await fillSignUp(page, {
      name: "Someone Else",
      email: ada.email.toUpperCase(),
      password: "another long password",
    });
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain("An account with this email already exists.");
    expect(page.url()).toMatch(/\/register$/);
  });

  test("refuses a wrong password with the server's message, and clears it on the next try", async ({
    page,
  }) => {
    await page.goto("/login");
    await submitLogin(page, { email: ada.email, password: "not the password at all" });
    const error = page.locator(".form-error");
    await expect.poll(() => error.textContent()).toBe("Invalid email or password.");
    await page.getByLabel("Password").fill("still not the password");
    // Submitting clears the previous error before the answer arrives.
    const cleared = page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const el = document.querySelector(".form-error");
          const obs = new MutationObserver(() => {
            if (el?.textContent === "") {
              obs.disconnect();
              resolve(true);
            }
          });
          if (el) obs.observe(el, { childList: true, characterData: true, subtree: true });
          setTimeout(() => resolve(false), 5000);
        }),
    );
    await page.getByRole("button", { name: "Login" }).click();
    expect(await cleared).toBe(true);
    await expect.poll(() => error.textContent()).toBe("Invalid email or password.");
    // Keyboard focus stayed on the button through the request, not dropped to <body>.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Login");
    expect(await storedToken(page)).toBeNull();
  });

  test("a signed-out visit to /profile goes to /login and back after login", async ({ page }) => {
    await page.goto("/profile");
    await page.waitForURL(/\/login\?next=%2Fprofile$/);
    await submitLogin(page, ada);
    await page.waitForURL(/\/profile$/);
    await expect.poll(() => page.locator("main dl").textContent()).toContain(ada.name);
    // Into the app from the sign-in screens: focus on the new page, as for other navigation.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    const details = await page.locator("main dl").textContent();
    expect(details).toContain(ada.email);
    expect(details).toMatch(/UID[0-9a-f-]{36}/);
    const token = await storedToken(page);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await sidebarItems(page)).toEqual([
      "Dashboard",
      "Profile",
      "Student Input",
      "Prediction",
      "Student Dashboard",
      "Settings",
      "Logout",
    ]);
  });

  test("a signed-in user who opens /login goes to /Home", async ({ page }) => {
    await page.goto("/login");
    await page.waitForURL(/\/Home$/);
    await expect.poll(() => h1(page).textContent()).toContain("See how learning is going");
    const nav = await page.getByRole("navigation", { name: "Main" }).textContent();
    for (const item of ["Home", "Dashboard", "About Us", "Contact Us", "Logout"]) {
      expect(nav).toContain(item);
    }
  });

  test("verifies the email with the emailed code after refusing a wrong one", async ({
    page,
    server,
  }) => {
    await page.goto("/dashboard");
    const banner = page.locator(".verify-banner");
    await expect.poll(() => banner.count()).toBe(1);
    await banner.getByRole("link", { name: "Verify your email" }).click();
    await page.waitForURL(/\/Verify$/);

    const first = await waitForMail(server, (m) => m.to.includes(ada.email));
    const firstCode = first.text.match(/\b(\d{6})\b/)?.[1] ?? "";
    const wrong = firstCode === "000000" ? "111111" : "000000";
    await page.getByLabel("Code").fill(wrong);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContain("Invalid code");
    // Tied to the field as other field errors are; focus stayed on the button.
    const codeField = page.getByLabel("Code");
    expect(await codeField.getAttribute("aria-invalid")).toBe("true");
    const described = (await codeField.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe("Invalid code");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Verify");

    // Resending is another action: the earlier "Invalid code" goes.
    await page.getByRole("button", { name: "Resend code" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain(`A new code is on its way to ${ada.email}.`);
    expect(await page.getByText("Invalid code").count()).toBe(0);
    expect(await codeField.getAttribute("aria-invalid")).toBeNull();
    const mail = await waitForMail(
      server,
      (m) => m.to.includes(ada.email) && m.file !== first.file,
    );
    const code = mail.text.match(/\b(\d{6})\b/)?.[1] ?? "";

    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain("Verification successful");
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.locator(".welcome-card").textContent()).toContain(ada.name);
    expect(await page.locator(".welcome-card").textContent()).toContain(
      "You are logged in as a Student.",
    );
    expect(await page.locator(".verify-banner").count()).toBe(0);

    // Verified: /Verify says so and leads on, with no code to enter and nothing to resend.
    await page.goto("/Verify");
    await expect.poll(() => page.locator("main").textContent()).toContain("is already verified");
    expect(await page.getByLabel("Code").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Resend code" }).count()).toBe(0);
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL(/\/Home$/);
    await page.getByRole("link", { name: "Get Started" }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  test("renews an expired or damaged ID token silently through the refresh cookie", async ({
    page,
  }) => {
    await page.evaluate(() => localStorage.setItem("token", "not.a.token"));
    await page.goto("/profile");
    await expect.poll(() => page.locator("main dl").textContent()).toContain(ada.email);
    expect(page.url()).toMatch(/\/profile$/);
    expect(await storedToken(page)).not.toBe("not.a.token");
  });

  test("settings: changes the name, refuses a wrong current password, changes the password", async ({
    page,
  }) => {
    await page.goto("/settings");
    const nameForm = page.getByRole("form", { name: "Update name" });
    await nameForm.getByLabel("New name").fill("Augusta Ada King");
    await nameForm.getByRole("button", { name: "Update name" }).click();
    await expect
      .poll(() => nameForm.getByRole("status").allTextContents())
      .toContain("Name updated successfully!");
    expect(await page.locator(".sidebar-user").textContent()).toContain("Augusta Ada King");

    // Working on the password form clears the name form's message, which is about before.
    const pwForm = page.getByRole("form", { name: "Change password" });
    await pwForm.getByLabel("Current password").fill(ada.password);
    expect(await nameForm.getByRole("status").count()).toBe(0);

    // A field's error shows once, beside the field, and not again in a form-level alert.
    await nameForm.getByLabel("New name").fill("   ");
    await nameForm.getByRole("button", { name: "Update name" }).click();
    await expectOneErrorBesideField(page, nameForm);
    await pwForm.getByLabel("Current password").fill(ada.password);
    await pwForm.getByLabel("New password").fill("password1");
    await pwForm.getByRole("button", { name: "Change password" }).click();
    await expectOneErrorBesideField(page, pwForm);

    await pwForm.getByLabel("Current password").fill("a wrong current password");
    await pwForm.getByLabel("New password").fill(ada.newPassword);
    await pwForm.getByRole("button", { name: "Change password" }).click();
    const pwError = pwForm.getByRole("alert");
    await expect.poll(() => pwError.count()).toBe(1);
    // The server's message, verbatim.
    expect(await pwError.textContent()).toBe("Your current password is incorrect.");
    expect(page.url()).toMatch(/\/settings$/);

    await pwForm.getByLabel("Current password").fill(ada.password);
    await pwForm.getByLabel("New password").fill(ada.newPassword);
    await pwForm.getByRole("button", { name: "Change password" }).click();
    await expect
      .poll(() => pwForm.getByRole("status").allTextContents())
      .toContain("Password updated successfully!");

    await page.goto("/dashboard");
    await expect
      .poll(() => page.locator(".welcome-card").textContent())
      .toContain("Augusta Ada King");
  });

  test("the signed-in pages have no accessibility violation", async ({ page }) => {
    for (const path of [
      "/Home",
      "/dashboard",
      "/profile",
      "/settings",
      "/Verify",
      "/teacher-input",
    ]) {
      await page.goto(path);
      await h1(page).first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(await axeViolations(page), path).toEqual([]);
    }
  });

  test("logout removes the token, goes to /login and signs out the other open tabs", async ({
    page,
  }) => {
    const other = await page.context().newPage();
    await other.goto("/profile");
    await expect.poll(() => other.locator("main dl").textContent()).toContain(ada.email);

    await page.goto("/dashboard");
    // A questionnaire draft kept for this user (as the questionnaire page stores it).
    await page.evaluate(() =>
      localStorage.setItem("gradecast:questionnaire-draft:me", JSON.stringify({ age: "17" })),
    );
    await logOut(page);
    expect(await storedToken(page)).toBeNull();
    // Nothing personal stays behind on a shared school computer.
    expect(await storedKeys(page, "gradecast:")).toEqual([]);
    await other.waitForURL(/\/login\?next=%2Fprofile$/);
    await other.close();

    // The session is revoked on the server too: the refresh cookie no longer signs anyone in.
    await page.goto("/dashboard");
    await page.waitForURL(/\/login\?next=%2Fdashboard$/);
  });

  test("after the change the old password is refused and the new one works", async ({ page }) => {
    await page.goto("/login");
    await onlyCurrentPasswordWorks(page, ada.email, ada.password, ada.newPassword);
    await logOut(page);
  });

  test("resets a forgotten password through the emailed link", async ({ page, server }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot Password?" }).click();
    await page.waitForURL(/\/forgot-password$/);
    // The URL changes first; wait for the new page before typing into it.
    await expect.poll(() => h1(page).textContent()).toBe("Forgot Password");
    await page.getByLabel("Email").fill(ada.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain("Reset link sent to your email");

    const mail = await waitForMail(server, (m) => /reset-password\?token=/.test(m.text));
    const link = mail.text.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link as string);
    await expect.poll(() => h1(page).textContent()).toBe("Reset password");

    await page.getByLabel("New password", { exact: true }).fill(ada.resetPassword);
    await page.getByLabel("Repeat the new password").fill(`${ada.resetPassword}!`);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect
      .poll(() => page.locator(".field-error").textContent())
      .toBe("The two passwords do not match.");

    await page.getByLabel("Repeat the new password").fill(ada.resetPassword);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL(/\/login$/);
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain("Your password has been reset. Log in with your new password.");

    await onlyCurrentPasswordWorks(page, ada.email, ada.newPassword, ada.resetPassword);

    // The link works once.
    await page.goto(link as string);
    await page.getByLabel("New password", { exact: true }).fill("yet another new password");
    await page.getByLabel("Repeat the new password").fill("yet another new password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect.poll(() => page.getByRole("alert").count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/reset-password\?token=/);
  });

  test("a teacher sees the teacher sidebar and a clear refusal on a student page", async ({
    page,
    server,
  }) => {
    const teacher = { name: "Grace Hopper", email: `grace.${Date.now()}@example.org` };
    const res = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...teacher, password: "compilers all the way", role: "teacher" }),
    });
    expect(res.status).toBe(201);
    await page.evaluate(() => localStorage.removeItem("token"));
    await page.goto("/login?next=%2Fstudent-input");
    await submitLogin(page, { email: teacher.email, password: "compilers all the way" });
    await page.waitForURL(/\/student-input$/);
    await expect.poll(() => h1(page).textContent()).toBe("Not allowed");
    expect(await page.locator("main").textContent()).toContain("You are not allowed to do this.");
    expect(await sidebarItems(page)).toEqual([
      "Profile",
      "Teacher Input",
      "Student Dashboard",
      "Teacher Dashboard",
      "Classes",
      "How the model did",
      "Settings",
      "Logout",
    ]);
  });

  test("works on a phone: the sidebar sits behind a menu button", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/profile");
    await h1(page).waitFor();
    const menu = page.getByRole("button", { name: "Menu" });
    const sidebar = page.locator("#sidebar");
    expect(await sidebar.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    await menu.click();
    expect(await sidebar.isVisible()).toBe(true);
    // Escape closes it and puts focus back on the button.
    await page.keyboard.press("Escape");
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Menu");
    await menu.click();
    expect(await sidebar.isVisible()).toBe(true);
    await sidebar.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL(/\/settings$/);
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("logged no console error other than the refusals the tests asked for", ({ browser }) => {
    const unexpected = browser.consoleErrors.filter(
      (e) =>
        !/Failed to load resource: the server responded with a status of (400|401|409)/.test(e),
    );
    expect(unexpected).toEqual([]);
  });
});
