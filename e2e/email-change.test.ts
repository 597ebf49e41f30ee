import { securityMessages } from "@gradecast/contract/account-security";
import { messages } from "@gradecast/contract/messages";
import { person, signUp, signUpAndLogIn } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { mailedCode, readOutbox } from "./harness.ts";

// Changing one's email address on /settings in Chromium against the real server (issue 18): a
// taken address is refused beside the field, a new one is accepted, the old address is told,
// and the code sent to the new address verifies it on the Verify page.
const stamp = Date.now();
const student = person("Eli Moved", "a new address this year");
const other = person("Ora Other", "someone else here");
const next = `eli.new.${stamp}@example.org`;

describe("changing one's email address in the browser", () => {
  test.beforeAll(async ({ page }) => {
    await signUp(page, other);
    await signUpAndLogIn(page, student);
  });

  test("refuses a taken address, then changes it and verifies the new one with its code", async ({
    page,
    server,
  }) => {
    await page.goto("/settings");
    const card = page.getByRole("form", { name: "Change email address" });
    await card.getByText(student.email).waitFor();
    const field = card.getByLabel("New email address");
    await field.fill(other.email);
    await card.getByRole("button", { name: "Change email address" }).click();
    await card.getByText(messages.emailTaken).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");

    await field.fill(next);
    await card.getByRole("button", { name: "Change email address" }).click();
    await card.getByText(securityMessages.emailChanged(next)).waitFor();
    await card.getByText(next).first().waitFor();

    const code = await mailedCode(server, next);
    const told = (await readOutbox(server)).filter(
      (m) => m.to.includes(student.email) && /was changed to/.test(m.text),
    );
    expect(told).toHaveLength(1);
    await card.getByRole("link", { name: "Verify it now" }).click();
    await page.waitForURL(/\/Verify$/);
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Verification successful").waitFor();
  });
});
