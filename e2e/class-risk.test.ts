import { readFile } from "node:fs/promises";
import path from "node:path";
import { riskColumns, riskMessages } from "@gradecast/contract/class-risk";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { classWithStudents } from "./api-calls.ts";
import { logIn, person } from "./browser-accounts.ts";
import { openClass } from "./class-steps.ts";
import { describe, expect, test } from "./fixtures.ts";
import { artifactsDir, openPage, saveScreenshot } from "./harness.ts";
import { doingWell, struggling } from "./sample-answers.ts";

// The class risk list in Chromium (issue 20): a teacher opens their class, sees the enrolled
// students sorted by risk with the reasons from the school record (never a private answer),
// filters to those at risk with the keyboard, exports the list, writes a note of what was done,
// and at a phone's width the list stays readable without scrolling sideways. The accounts,
// the class and the students' answers are made through the API, as the other screens would.
const teacher = person("Rita Teacher", "risk list rita 7");
const amy = person("Amy Struggling", "risk list amy 7");
const ben = person("Ben Doing Well", "risk list ben 7");
const cleo = person("Cleo Not Answered", "risk list cleo 7");

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

test.override("serverEnv", { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" });

describe("class risk list", () => {
  test.beforeAll(async ({ server }) => {
    await classWithStudents(server, teacher, "Maths 11A", [
      [amy, struggling],
      [ben, doingWell],
      [cleo, null],
    ]);
  }, 180_000);

  test("shows the teacher's class sorted by risk, with school-record reasons only", async ({
    page,
    browser,
  }) => {
    await logIn(page, teacher);
    await openClass(page, "Maths 11A");
    const list = page.locator("section.card", {
      has: page.getByRole("heading", { name: "Risk list", exact: true }),
    });
    await list.getByTestId("risk-counts").waitFor();
    expect(await list.getByTestId("risk-counts").innerText()).toBe(
      "3 students · 1 at risk · 1 not answered yet",
    );
    const names = await list.locator("tbody th[scope=row]").allInnerTexts();
    expect(names).toEqual([amy.name, ben.name, cleo.name]);
    const amyRow = list.getByTestId("risk-row").filter({ hasText: amy.name });
    const reasons = await amyRow.locator(".risk-reasons li").allInnerTexts();
    expect(reasons).toHaveLength(3);
    // School-record inputs by name, the rest summed: no private answer is named.
    for (const reason of reasons) {
      expect(reason).toMatch(
        /^(First period grade|Second period grade|Past class failures|School absences|Weekly study time|Extra educational support|Other answers)/,
      );
    }
    const text = await list.innerText();
    expect(text).not.toMatch(
      /Going out|romantic relationship|Current health|Family relationships|Mother/,
    );
    await list
      .getByRole("row", { name: new RegExp(cleo.name) })
      .getByText("Not answered yet")
      .waitFor();
    await list.getByRole("img", { name: /Predicted finals of the 2 students/ }).waitFor();
    expect(browser.consoleErrors).toEqual([]);
    expect(await axeViolations(page), "risk list").toEqual([]);
    await saveScreenshot(page, "class-risk-1366");
  });

  test("filters to the students at risk with the keyboard, and exports the list", async ({
    page,
  }) => {
    const filter = page.getByLabel(/Only students at risk/);
    await filter.focus();
    await page.keyboard.press("Space");
    expect(await filter.isChecked()).toBe(true);
    await page.getByTestId("risk-row").filter({ hasText: ben.name }).waitFor({ state: "detached" });
    expect(await page.getByTestId("risk-row").locator("th[scope=row]").allInnerTexts()).toEqual([
      amy.name,
    ]);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^risk-Maths-11A-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await download.path()) as string, "utf8")).replace(/^\uFEFF/, "");
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(riskColumns.join(","));
    // The export is the whole list, in the screen's order.
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([amy.name, ben.name, cleo.name]);
  });

  test("keeps a note of what was done, and stays readable at a phone's width", async ({
    page,
    browser,
  }) => {
    await page.getByRole("button", { name: `Add note about ${amy.name}` }).click();
    await page.getByRole("heading", { name: `Note about ${amy.name}` }).waitFor();
    await page
      .getByLabel("What was done")
      .fill("Met Amy and her guardian; maths club on Tuesdays.");
    await page.getByLabel("Follow-up date (optional)").fill("2030-01-15");
    await page.getByRole("button", { name: "Save note" }).click();
    await page.getByText(`The note about ${amy.name} was saved.`).waitFor();
    const amyRow = page.getByTestId("risk-row").filter({ hasText: amy.name });
    await amyRow.getByText(/Met Amy and her guardian/).waitFor();
    await amyRow.getByText("2030-01-15").waitFor();

    // A tablet: the table keeps its columns and the page does not scroll sideways.
    await page.setViewportSize({ width: 1024, height: 740 });
    await amyRow.waitFor();
    // The chart takes the new width a moment after the window does.
    await expect.poll(() => scrollsSideways(page), { message: "1024 px" }).toBe(false);
    for (const width of [320, 375]) {
      await page.setViewportSize({ width, height: 740 });
      await amyRow.waitFor();
      await expect.poll(() => scrollsSideways(page), { message: `${width} px` }).toBe(false);
      // Each value is labelled with its column on a phone, and the name is in plain view.
      const cell = amyRow.locator('td[data-label="Predicted final"]');
      const label = await cell.evaluate((el) => getComputedStyle(el, "::before").content);
      expect(label).toBe('"Predicted final"');
      const box = await amyRow.locator("th[scope=row]").boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await saveScreenshot(page, `class-risk-${width}`);
      await page
        .locator(".risk-card")
        .screenshot({ path: path.join(artifactsDir, `class-risk-list-${width}.png`) });
    }
    expect(await axeViolations(page), "risk list on a phone").toEqual([]);
    expect(browser.consoleErrors).toEqual([]);
  });

  test("shows a student's full explanation once the student chooses to share it", async ({
    page,
    server,
  }) => {
    const student = await openPage(server, { viewport: { width: 375, height: 740 } });
    try {
      const phone = student.page;
      await logIn(phone, ben);
      await phone.goto("/prediction");
      const box = phone.getByLabel("Share my full explanation with my teachers");
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      await box.focus();
      await phone.keyboard.press("Space");
      await phone.getByText(riskMessages.sharingOn).waitFor();
      expect(await box.isChecked()).toBe(true);
      expect(await scrollsSideways(phone)).toBe(false);
      expect(await axeViolations(phone), "prediction screen with sharing").toEqual([]);
      expect(student.consoleErrors).toEqual([]);
    } finally {
      await student.close();
    }
    await page.reload();
    const benRow = page.getByTestId("risk-row").filter({ hasText: ben.name });
    await benRow.getByText("Full explanation (shared by the student)").click();
    // Shared, the answers outside the school record are named too.
    await benRow.getByText(/^Going out/).waitFor();
    // Amy has not shared: nothing of hers is named beyond the school record.
    const amyRow = page.getByTestId("risk-row").filter({ hasText: amy.name });
    expect(await amyRow.innerText()).not.toMatch(/Going out|Full explanation/);
  });
});
