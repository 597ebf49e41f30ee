import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { describe, expect, test } from "./fixtures.ts";

test.override("serverEnv", {
  CONTACT_EMAIL: "helpdesk@school.example",
  SCHOOL_NAME: "Hillside School",
});

// The web shell in Chromium against the real server: the informational pages, their links, the
// Not found page, no console errors, and no accessibility violation found by axe-core.
describe("web shell", () => {
  const heading = (page: Page) => page.getByRole("heading", { level: 1 });
  /** The page's level-1 heading comes to read `name`. */
  const headingReads = (page: Page, name: string) =>
    expect.poll(() => heading(page).textContent()).toBe(name);
  /** The page lands on an address matching `url`, whose level-1 heading reads `name`. */
  const landsOn = async (page: Page, url: RegExp, name: string) => {
    await page.waitForURL(url);
    await headingReads(page, name);
  };

  test("/about shows the team and the roadmap", async ({ page }) => {
    await page.goto("/about");
    await headingReads(page, "About Us");
    const text = await page.locator("main").textContent();
    expect(text).toContain("Our team");
    expect(text).toContain("Roadmap");
    expect(await page.title()).toBe("About Us · Gradecast");
    await page
      .getByRole("navigation", { name: "Site" })
      .getByRole("link", { name: "Help" })
      .click();
    await landsOn(page, /\/help$/, "Help");
  });

  test("/help answers how to reset a password and links to /forgot-password and /contact", async ({
    page,
  }) => {
    await page.goto("/help");
    await headingReads(page, "Help");
    await expect
      .poll(() => page.getByText("I forgot my password. How do I reset it?").count())
      .toBe(1);
    await page.getByRole("main").getByRole("link", { name: "Forgot Password?" }).click();
    await landsOn(page, /\/forgot-password$/, "Forgot Password");
    await page.goBack();
    await page.getByRole("link", { name: "Contact us" }).click();
    await landsOn(page, /\/contact$/, "Contact Us");
  });

  test("/contact shows the installation's support email and profile links, and Go to Home leads home", async ({
    page,
  }) => {
    await page.goto("/contact");
    await headingReads(page, "Contact Us");
    // CONTACT_EMAIL of the server, not an address built into the page.
    const mail = page.locator('a[href^="mailto:"]');
    await mail.waitFor();
    expect(await mail.count()).toBe(1);
    expect(await mail.getAttribute("href")).toBe("mailto:helpdesk@school.example");
    expect(await mail.textContent()).toBe("helpdesk@school.example");
    // The school's name is SCHOOL_NAME's too.
    expect(await page.locator(".page-description").textContent()).toContain("Hillside School");
    const profiles = page.locator('main a[target="_blank"]');
    expect(await profiles.count()).toBeGreaterThanOrEqual(2);
    for (const link of await profiles.all()) {
      expect(await link.getAttribute("href")).toMatch(/^https:\/\//);
      expect(await link.getAttribute("rel")).toContain("noopener");
    }
    await page.getByRole("link", { name: "Go to Home" }).click();
    // /Home is for signed-in users: a visitor is asked to log in and comes back to /Home after.
    await landsOn(page, /\/login\?next=%2FHome$/, "Login");
  });

  test("/contact says when the support address cannot be loaded, and Retry loads it", async ({
    page,
    browser,
  }) => {
    const logged = browser.consoleErrors.length;
    // The network fails, not the server: the browser refuses the request.
    await page.route("**/api/site", (route) => route.abort("connectionrefused"));
    await page.goto("/contact");
    const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
    await alert.waitFor();
    expect(await alert.textContent()).toContain("The support address could not be loaded.");
    expect(await alert.textContent()).toContain("Cannot reach the server");
    expect(await page.locator('a[href^="mailto:"]').count()).toBe(0);

    await page.unroute("**/api/site");
    await page.getByRole("button", { name: "Retry" }).click();
    const mail = page.locator('a[href^="mailto:"]');
    await mail.waitFor();
    expect(await mail.getAttribute("href")).toBe("mailto:helpdesk@school.example");
    expect(await alert.count()).toBe(0);
    // The refused request is the browser's own console line; nothing else may have been logged.
    const added = browser.consoleErrors.splice(logged);
    expect(added.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  });

  test("an unknown address shows a real Not found page; routes keep their capitals", async ({
    page,
  }) => {
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(200);
    await headingReads(page, "Page not found");
    expect(await page.locator("main").textContent()).toContain("/no-such-page");

    // An address that differs only in case reaches its page (/home is /Home, for signed-in
    // people: a visitor is asked to log in first).
    await page.goto("/home");
    await landsOn(page, /\/login\?next=%2FHome$/, "Login");
  });

  test("every app page sends a visitor to /login, keeping the destination", async ({ page }) => {
    for (const path of ["/dashboard", "/profile", "/settings", "/Verify", "/teacher-input"]) {
      await page.goto(path);
      await page.waitForURL(`**/login?next=${encodeURIComponent(path)}`);
    }
    await headingReads(page, "Login");
  });

  test("the login page links to sign-up and to the password reset", async ({ page }) => {
    await page.goto("/");
    await headingReads(page, "Login");
    expect(await page.getByLabel("Email").getAttribute("type")).toBe("email");
    expect(await page.getByLabel("Password").getAttribute("type")).toBe("password");
    await page.getByRole("link", { name: "Sign Up" }).click();
    await page.waitForURL(/\/register$/);
    expect(await page.getByLabel("Role").inputValue()).toBe("student");
    const roles = await page.getByLabel("Role").locator("option").allTextContents();
    expect(roles).toEqual(["Student", "Teacher"]);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot Password?" }).click();
    await page.waitForURL(/\/forgot-password$/);
  });

  test("axe-core finds no violation on the public pages, on a desktop and on a phone", async ({
    page,
  }) => {
    const paths = ["/login", "/register", "/forgot-password", "/about", "/help", "/contact", "/x"];
    for (const size of [
      { width: 1366, height: 900 },
      { width: 375, height: 740 },
    ]) {
      await page.setViewportSize(size);
      for (const path of paths) {
        await page.goto(path);
        await heading(page).waitFor();
        expect(await axeViolations(page), `${path} at ${size.width}px`).toEqual([]);
        // Readable on a phone: nothing wider than the screen.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${path} at ${size.width}px scrolls sideways`).toBeLessThanOrEqual(0);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("the keyboard reaches a skip link first, and it moves focus to the page", async ({
    page,
  }) => {
    await page.goto("/about");
    await heading(page).waitFor();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe("Skip to main content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
  });

  test("logged no console error on any page", ({ browser }) => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
