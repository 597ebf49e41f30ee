import type { Locator, Page } from "playwright-core";

// The admin's Users table keeps a row's actions (but a teacher request's Approve and Reject) in
// a "Manage" menu that opens in place (issue 28): open it before pressing one of them.

/** Opens the "Manage" menu of a user's row (the row, or the page when only one row shows). */
export async function openManage(row: Locator): Promise<void> {
  const menu = row.locator("details.admin-menu");
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click();
}

/** Nobody signed in on this page (cookies and storage cleared), at `width` by a screen's height. */
export async function signedOut(page: Page, width = 1366): Promise<void> {
  await page.context().clearCookies();
  await page.goto("/about");
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
}
