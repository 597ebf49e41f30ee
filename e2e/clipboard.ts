import type { Locator, Page } from "playwright-core";

// Pasting into a field as a person does (Ctrl+V from a spreadsheet), not by filling it: the
// form's paste handling is what the tests look at.

/** Lets the pages of `origin` read and write the clipboard, which a paste needs. */
export async function allowClipboard(page: Page, origin: string) {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
}

/** Empties `field`, then pastes `text` into it with Ctrl+V. */
export async function pasteInto(field: Locator, text: string) {
  const page = field.page();
  await field.fill("");
  await field.focus();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press("Control+V");
}
