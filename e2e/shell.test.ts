import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations } from "./a11y.ts";
import { type OpenPage, openPage, type RunningServer, startServer } from "./harness.ts";

// The web shell in Chromium against the real server: the informational pages, their links, the
// Not found page, no console errors, and no accessibility violation found by axe-core.
describe("web shell", () => {
  let server: RunningServer;
  let browser: OpenPage;

  beforeAll(async () => {
    server = await startServer({ env: { CONTACT_EMAIL: "helpdesk@school.example" } });
    browser = await openPage(server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const heading = () => browser.page.getByRole("heading", { level: 1 });

  it("/about shows the team and the roadmap", async () => {
    const { page } = browser;
    await page.goto("/about");
    await expect.poll(() => heading().textContent()).toBe("About Us");
    const text = await page.locator("main").textContent();
    expect(text).toContain("Our team");
    expect(text).toContain("Roadmap");
    expect(await page.title()).toBe("About Us · Gradecast");
    await page
      .getByRole("navigation", { name: "Site" })
      .getByRole("link", { name: "Help" })
      .click();
    await page.waitForURL(/\/help$/);
    await expect.poll(() => heading().textContent()).toBe("Help");
  });

  it("/help answers how to reset a password and links to /forgot-password and /contact", async () => {
    const { page } = browser;
    await page.goto("/help");
    await expect.poll(() => heading().textContent()).toBe("Help");
    await expect
      .poll(() => page.getByText("I forgot my password. How do I reset it?").count())
      .toBe(1);
    await page.getByRole("main").getByRole("link", { name: "Forgot Password?" }).click();
    await page.waitForURL(/\/forgot-password$/);
    await expect.poll(() => heading().textContent()).toBe("Forgot Password");
    await page.goBack();
    await page.getByRole("link", { name: "Contact us" }).click();
    await page.waitForURL(/\/contact$/);
    await expect.poll(() => heading().textContent()).toBe("Contact Us");
  });

  it("/contact shows the installation's support email and profile links, and Go to Home leads home", async () => {
    const { page } = browser;
    await page.goto("/contact");
    await expect.poll(() => heading().textContent()).toBe("Contact Us");
    // CONTACT_EMAIL of the server, not an address built into the page.
    const mail = page.locator('a[href^="mailto:"]');
    await mail.waitFor();
    expect(await mail.count()).toBe(1);
    expect(await mail.getAttribute("href")).toBe("mailto:helpdesk@school.example");
    expect(await mail.textContent()).toBe("helpdesk@school.example");
    const profiles = page.locator('main a[target="_blank"]');
    expect(await profiles.count()).toBeGreaterThanOrEqual(2);
    for (const link of await profiles.all()) {
      expect(await link.getAttribute("href")).toMatch(/^https:\/\//);
      expect(await link.getAttribute("rel")).toContain("noopener");
    }
    await page.getByRole("link", { name: "Go to Home" }).click();
    // /Home is for signed-in users: a visitor is asked to log in and comes back to /Home after.
    await page.waitForURL(/\/login\?next=%2FHome$/);
    await expect.poll(() => heading().textContent()).toBe("Login");
  });

  it("/contact says when the support address cannot be loaded, and Retry loads it", async () => {
    const { page } = browser;
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

  it("an unknown address shows a real Not found page; routes keep their capitals", async () => {
    const { page } = browser;
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(200);
    await expect.poll(() => heading().textContent()).toBe("Page not found");
    expect(await page.locator("main").textContent()).toContain("/no-such-page");

    await page.goto("/home");
    await expect.poll(() => heading().textContent()).toBe("Page not found");
    await page.getByRole("link", { name: "/Home" }).click();
    await page.waitForURL(/\/login\?next=%2FHome$/);
  });

  it("every app page sends a visitor to /login, keeping the destination", async () => {
    const { page } = browser;
    for (const path of ["/dashboard", "/profile", "/settings", "/Verify", "/teacher-input"]) {
      await page.goto(path);
      await page.waitForURL(`**/login?next=${encodeURIComponent(path)}`);
    }
    await expect.poll(() => heading().textContent()).toBe("Login");
  });

  it("the login page links to sign-up and to the password reset", async () => {
    const { page } = browser;
    await page.goto("/");
    await expect.poll(() => heading().textContent()).toBe("Login");
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

  it("axe-core finds no violation on the public pages, on a desktop and on a phone", async () => {
    const { page } = browser;
    const paths = ["/login", "/register", "/forgot-password", "/about", "/help", "/contact", "/x"];
    for (const size of [
      { width: 1366, height: 900 },
      { width: 375, height: 740 },
    ]) {
      await page.setViewportSize(size);
      for (const path of paths) {
        await page.goto(path);
        await heading().waitFor();
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

  it("the keyboard reaches a skip link first, and it moves focus to the page", async () => {
    const { page } = browser;
    await page.goto("/about");
    await heading().waitFor();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe("Skip to main content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
  });

  it("logged no console error on any page", () => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
