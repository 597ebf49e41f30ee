import type { Page } from "playwright-core";
import { logIn, type Person } from "./browser-accounts.ts";

// A class on the screens, shared by the class tests: a student's side on the Student Dashboard,
// a teacher's class page.

/** Opens a class's page from the Classes list, by its name. */
export async function openClass(page: Page, name: string) {
  await page.goto("/classes");
  await page.getByRole("link", { name }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** Joins a class with its code from the Student Dashboard, by the keyboard. */
export async function joinWithCode(page: Page, code: string, className: RegExp) {
  await page.goto("/student-dashboard");
  await page.getByLabel("Join code").fill(code);
  await page.keyboard.press("Enter");
  await page.getByText(className).first().waitFor();
}

/** The dashboard's card of the reports written about the signed-in student. */
const reportsAboutMe = (page: Page) =>
  page.locator("section.card", {
    has: page.getByRole("heading", { name: "Reports about you", exact: true }),
  });

/** The student signs in and finds each of `texts` on their card of reports about them. */
export async function readsReportsAboutThem(
  page: Page,
  student: Person,
  texts: (string | RegExp)[],
) {
  await logIn(page, student);
  await page.goto("/student-dashboard");
  for (const text of texts) await reportsAboutMe(page).getByText(text).waitFor();
}
