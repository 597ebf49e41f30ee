import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "playwright-core";

// The signed-in person's "Your data" card in Settings (the page open): the export of everything
// held about them, and the deletion of their account.

const yourData = (page: Page) => page.getByRole("region", { name: "Your data" });

/** Downloads the export: its file name, the files in the ZIP, and the account's rows in it. */
export async function downloadMyData(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    yourData(page).getByRole("button", { name: "Download my data" }).click(),
  ]);
  const files = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
  const account = JSON.parse(strFromU8(files["users.json"] as Uint8Array)) as { email: string }[];
  return { filename: download.suggestedFilename(), files, account };
}

/**
 * Deletes the account, confirmed in its dialog, and ends on the sign-in page. The card says when
 * the account goes, unless the app noticed the ended session first and went to sign-in.
 */
export async function deleteMyAccount(page: Page) {
  const card = yourData(page);
  await card.getByRole("button", { name: "Delete my account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  const goOn = card.getByRole("button", { name: "Go to the sign-in page" });
  await Promise.race([goOn.waitFor(), page.waitForURL(/\/login/)]);
  if (!/\/login/.test(page.url())) {
    await card.getByText(/Your account will be deleted on/).waitFor();
    await goOn.click();
  }
  await page.waitForURL(/\/login/);
}
