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

/** Searches the Users table for `query`: the row of the user named `name` (not waited for). */
export async function searchUsers(page: Page, query: string, name: string): Promise<Locator> {
  await page.getByLabel("Search by name or email").fill(query);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  return page.getByRole("row", { name: new RegExp(name) });
}

/** Makes the user of `row`, named `name`, a teacher from the row's menu; waits for the notice. */
export async function makeTeacher(row: Locator, name: string): Promise<void> {
  const page = row.page();
  await openManage(row);
  await row.getByRole("button", { name: `Change role of ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("New role").selectOption("teacher");
  await dialog.getByRole("button", { name: "Change role" }).click();
  await page.getByText(`${name} is now a teacher.`).waitFor();
}
