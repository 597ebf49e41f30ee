import { logIn } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { storedToken } from "./local-storage.ts";

// Where a newcomer used to get lost: the routes' capitals (/Home, /Verify) typed in lower case,
// and the sign-up form shown to someone already signed in.
describe("addresses a newcomer types", () => {
  test("sends a signed-in person from /register and /login to their home", async ({
    page,
    accounts,
  }) => {
    await logIn(page, await accounts.create({ name: "Nina Newcomer", verified: false }));
    for (const path of ["/register", "/login"]) {
      await page.goto(path);
      await page.waitForURL(/\/Home$/);
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(new URL(page.url()).pathname, path).toBe("/Home");
    }
  });

  test("keeps the session when GET /api/me fails with a server error, says so, and recovers", async ({
    page,
    browser,
  }) => {
    await page.route("**/api/me", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "internal_error", message: "Something went wrong" },
        }),
      }),
    );
    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "Gradecast cannot be reached" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/profile");
    expect(await storedToken(page)).not.toBeNull();
    // The server answers again: the page the person asked for comes back by itself.
    await page.unroute("**/api/me");
    await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe("/profile");
    browser.consoleErrors.length = 0;
  });

  test("takes /home, /verify and /DASHBOARD/ to the pages they name, keeping the query", async ({
    page,
    browser,
  }) => {
    for (const [typed, page_] of [
      ["/home", "/Home"],
      ["/verify?from=mail", "/Verify?from=mail"],
      ["/DASHBOARD/", "/dashboard"],
    ] as const) {
      await page.goto(typed);
      await page.waitForURL((url) => `${url.pathname}${url.search}` === page_);
      expect(await page.getByRole("heading", { level: 1, name: "Page not found" }).count()).toBe(0);
    }
    // An address that is no page at all still says so.
    await page.goto("/no-such-page");
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    expect(browser.consoleErrors).toEqual([]);
  });
});
