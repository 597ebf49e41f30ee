import type { Page } from "playwright-core";

/** The keys of the page's localStorage that start with `prefix` (the app's all start "gradecast:"). */
export const storedKeys = (page: Page, prefix: string): Promise<string[]> =>
  page.evaluate((p) => Object.keys(localStorage).filter((k) => k.startsWith(p)), prefix);

/** The signed-in page's ID token as the app keeps it, or null when signed out. */
export const storedToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => localStorage.getItem("token"));
