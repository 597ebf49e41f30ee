import { readFile } from "node:fs/promises";
import { messages } from "@gradecast/contract/messages";
import { reportCsvColumns } from "@gradecast/contract/reports";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { logIn, logOut, person, signUp, signUpAndLogIn, verifyEmail } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { fileReports, fillReportForm } from "./report-form.ts";

test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open" });

// Teacher reports in Chromium against the real server (issue 4): a teacher signs up, files a
// report, finds it on the dashboard by typing part of the name in another case, edits it,
// exports the search as CSV and deletes a report; a student sees no Teacher Input and the API
// refuses them.
const stamp = Date.now();
const teacher = person("Tilda Teacher", "chalk and blackboard 42");
const student = person("Stan Student", "homework every evening");
const studentName = `Xanthe O'Brien-Quill ${stamp}`;

const sidebarItems = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).locator("a, button").allTextContents();

/** What a screen reader would say the focused element is: its label, else its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute("aria-label") ?? el?.textContent?.trim() ?? "";
  });

const seriousViolations = async (page: Page) =>
  (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");

describe("teacher reports in the browser", () => {
  test("a teacher registers, signs in and sees Teacher Input in the sidebar", async ({
    browser,
    server,
  }) => {
    const { page, dialogs } = browser;
    await signUp(page, teacher, "Teacher");
    expect(dialogs).toContain("Registration successful!");
    await logIn(page, teacher);
    await verifyEmail(page, server, teacher);
    await page.goto("/teacher-input");
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    expect(await sidebarItems(page)).toContain("Teacher Input");
  });

  test("the form keeps numbers out of range as typed and marks them (issue 28)", async ({
    page,
  }) => {
    const marks = page.getByLabel("Marks", { exact: true });
    await marks.pressSequentially("101");
    expect(await marks.inputValue()).toBe("101");
    expect(await marks.getAttribute("aria-invalid")).toBe("true");
    await marks.fill("");
    expect(await marks.getAttribute("aria-invalid")).toBeNull();
    const assignments = page.getByLabel("Assignments", { exact: true });
    await assignments.pressSequentially("7");
    expect(await assignments.inputValue()).toBe("7");
    expect(await assignments.getAttribute("aria-invalid")).toBe("true");
    await assignments.fill("");
    expect(await marks.getAttribute("inputmode")).toBe("numeric");
  });

  test("says 'Please fill all required fields.' for a missing field and keeps what was typed", async ({
    page,
  }) => {
    await page.getByLabel("Student name").fill(studentName);
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain(messages.reportRequired);
    expect(await page.getByLabel("Student name").inputValue()).toBe(studentName);
    expect(await page.getByLabel("Course").getAttribute("aria-invalid")).toBe("true");
  });

  test("says 'Failed to submit the report. Please try again.' when the server fails", async ({
    page,
  }) => {
    await fillReportForm(page, {
      course: "Chemistry",
      marks: "88",
      attendance: "95",
      assignments: "5",
      behavior: "Excellent",
      feedback: 'Careful work, "great" lab notes, curious.',
    });
    await page.route("**/api/reports", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal_error", message: "boom" } }),
      }),
    );
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain(messages.reportFailed);
    await page.unroute("**/api/reports");
    expect(await page.getByLabel("Course").inputValue()).toBe("Chemistry");
  });

  test("files the report: success message and a cleared form", async ({ page }) => {
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain(messages.reportSubmitted);
    for (const label of ["Student name", "Course", "Feedback"]) {
      expect(await page.getByLabel(label).inputValue()).toBe("");
    }
    expect(await page.getByLabel("Marks", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Behavior").inputValue()).toBe("");
    // A second report, by the same teacher, for the search to leave out.
    await fillReportForm(page, {
      studentName: `Other Pupil ${stamp}`,
      course: "History",
      marks: "40",
      attendance: "60",
      assignments: "2",
      behavior: "Average",
      feedback: "=1+1 should not run in a spreadsheet",
    });
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain(messages.reportSubmitted);
    expect(await seriousViolations(page)).toEqual([]);
    // Back to Dashboard is the teacher's own dashboard (issue 21).
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL(/\/teacher-dashboard$/);
  });

  test("finds the report by part of the name in another case; the search is kept in the URL", async ({
    page,
  }) => {
    await page.getByRole("link", { name: "Teacher Dashboard" }).click();
    await page.waitForURL(/\/teacher-dashboard/);
    const rows = page.locator(".reports-table tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Search by student name").pressSequentially("o'BRIEN-q", { delay: 40 });
    await page.waitForURL(/\?q=o%27BRIEN-q$|\?q=o'BRIEN-q$/);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator(".report-name").textContent()).toBe(studentName);

    await page.reload();
    expect(await page.getByLabel("Search by student name").inputValue()).toBe("o'BRIEN-q");
    await expect.poll(() => rows.count()).toBe(1);

    await page.getByLabel("Search by student name").fill("nobody at all");
    await expect
      .poll(() => page.locator(".empty-state-title").textContent())
      .toBe(messages.noReports);
    await page.goBack();
    await page.goForward();
    await page.getByLabel("Search by student name").fill("O'brien");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("opens a report's details from its name, and Escape closes them", async ({ page }) => {
    await page.getByRole("button", { name: studentName, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Report: ${studentName}` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Careful work, "great" lab notes, curious.');
    expect(await dialog.textContent()).toContain(teacher.name);
    // Focus starts on Close, not on Edit, the first button.
    await expect.poll(() => focused(page)).toBe("Close");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Focus returns to the name that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(studentName);
    // Closed with its Close button, too.
    await page.getByRole("button", { name: studentName, exact: true }).click();
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await focused(page)).toBe(studentName);
  });

  test("edits the report with the same rules", async ({ page }) => {
    await page.getByRole("button", { name: `Edit the report on ${studentName}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const marks = dialog.getByLabel("Marks", { exact: true });
    await marks.fill("");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(() => dialog.getByRole("alert").allTextContents())
      .toContain(messages.reportRequired);
    await marks.pressSequentially("93");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await dialog.waitFor({ state: "detached" });
    const row = page.locator(".reports-table tbody tr").first();
    await expect.poll(() => row.locator('[data-label="Marks"]').textContent()).toBe("93");
    // The server has it too.
    await page.reload();
    await expect.poll(() => row.locator('[data-label="Marks"]').textContent()).toBe("93");
  });

  test("exports the current search as CSV", async ({ page }) => {
    // The page says precisely what the file holds (issue 28).
    await page.getByText(/Export CSV saves every report that matches the search/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^student-reports-.*\.csv$/);
    const text = (await readFile((await download.path()) as string, "utf8")).replace(/^\uFEFF/, "");
    const lines = text.trimEnd().split("\r\n");
    // The screen's names for the columns (issue 28), the dates as the screens write them.
    expect(lines[0]).toBe(reportCsvColumns.join(","));
    expect(lines[0]).toMatch(/^Student,Course,Marks \(out of 100\),/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${studentName},Chemistry,93,95,5,Excellent,`));
    // A date holds a comma, so the cell is quoted.
    expect(lines[1]).toMatch(/,"\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}",/);
    expect(lines[1]).toContain('"Careful work, ""great"" lab notes, curious."');

    await page.getByLabel("Search by student name").fill("");
    await expect.poll(() => page.locator(".reports-table tbody tr").count()).toBe(2);
    const [all] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const allText = await readFile((await all.path()) as string, "utf8");
    expect(allText).toContain(",'=1+1 should not run in a spreadsheet,");
  });

  test("deletes a report after confirmation", async ({ page }) => {
    const rows = page.locator(".reports-table tbody tr");
    const deleteButton = `Delete the report on Other Pupil ${stamp}`;
    await page.getByRole("button", { name: deleteButton }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Focus starts on Cancel: Enter, Enter does not delete the report.
    await expect.poll(() => focused(page)).toBe("Cancel");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    expect(await rows.count()).toBe(2);
    expect(await focused(page)).toBe(deleteButton);
    // Cancel by mouse returns focus to the button that opened the dialog as well.
    await page.getByRole("button", { name: deleteButton }).click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await focused(page)).toBe(deleteButton);
    await page.getByRole("button", { name: deleteButton }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete report" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    // Its row is gone: focus is on the message that says so, not lost on the page.
    expect(await focused(page)).toBe(`The report on Other Pupil ${stamp} was deleted.`);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(1);
  });

  test("says 'Loading student reports...' while the list loads", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/reports?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByText(messages.loadingReports).waitFor();
    release();
    await expect.poll(() => page.locator(".reports-table tbody tr").count()).toBe(1);
    expect(await page.getByText(messages.loadingReports).count()).toBe(0);
    await page.unroute("**/api/reports?*");
  });

  test("shows an error with Retry when the list cannot be fetched", async ({ page }) => {
    let fail = true;
    await page.route("**/api/reports?*", (route) =>
      fail ? route.abort("connectionrefused") : route.continue(),
    );
    await page.reload();
    const retry = page.getByRole("button", { name: "Retry" });
    await retry.waitFor({ timeout: 20_000 });
    expect(await page.getByRole("alert").first().textContent()).toContain(
      "The student reports could not be loaded.",
    );
    fail = false;
    await retry.click();
    await expect.poll(() => page.locator(".reports-table tbody tr").count()).toBe(1);
    await page.unroute("**/api/reports?*");
  });

  test("shows the reports as cards on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const row = page.locator(".reports-table tbody tr").first();
    await row.waitFor();
    // The column headings are kept for screen readers only; each cell carries its label.
    const head = await page.locator(".reports-table thead").boundingBox();
    expect(head?.height ?? 0).toBeLessThanOrEqual(1);
    expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe("block");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    expect(
      await row.locator('[data-label="Marks"]').evaluate((el) => getComputedStyle(el).display),
    ).toBe("grid");
    const box = await row.boundingBox();
    expect(box?.width ?? 999).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("cuts a longer ?q= from a link to the 100 characters the server takes", async ({ page }) => {
    await page.goto(`/teacher-dashboard?q=${"x".repeat(150)}`);
    await expect
      .poll(() => page.locator(".empty-state-title").textContent())
      .toBe(messages.noReports);
    expect(await page.getByLabel("Search by student name").inputValue()).toBe("x".repeat(100));
    expect(await page.getByText("could not be loaded").count()).toBe(0);
  });

  test("after an edit the list follows the sort and the search, and shows each report once", async ({
    page,
  }) => {
    // 29 more reports: 30 in all, two pages of the list.
    const pupils = Array.from({ length: 29 }, (_, k) => k + 1);
    await fileReports(
      page,
      pupils.map((i) => ({
        studentName: `Pupil ${stamp} ${String(i).padStart(2, "0")}`,
        course: i === 29 ? "Advanced Organic Chemistry and Laboratory Practice" : "Biology",
        marks: 50 + i,
        attendance: 90,
        assignments: 4,
        behavior: i % 2 ? "Needs Improvement" : "Good",
        feedback: "Steady.",
      })),
    );
    await page.goto("/teacher-dashboard?sort=name");
    const rows = page.locator(".reports-table tbody tr");
    const names = () => rows.locator(".report-name").allTextContents();
    await expect.poll(() => rows.count()).toBe(25);
    expect((await names())[0]).toBe(`Pupil ${stamp} 01`);

    // Renamed to sort last, the report leaves the first page.
    await page.getByRole("button", { name: `Edit the report on Pupil ${stamp} 01` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Student name").fill(`Zoe Zephyr ${stamp}`);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(async () => (await names())[0]).toBe(`Pupil ${stamp} 02`);
    expect(await names()).not.toContain(`Zoe Zephyr ${stamp}`);
    expect(await focused(page)).toBe(`The report on Zoe Zephyr ${stamp} was updated.`);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBe(30);
    const all = await names();
    expect(new Set(all).size).toBe(30);
    expect(all.at(-1)).toBe(`Zoe Zephyr ${stamp}`);
    expect(await page.locator(".reports-status").textContent()).toBe("30 reports shown.");

    // Renamed out of the search, it leaves the list.
    await page.getByLabel("Search by student name").fill(`${stamp} 0`);
    await expect.poll(() => rows.count()).toBe(8);
    await page.getByRole("button", { name: `Edit the report on Pupil ${stamp} 02` }).click();
    await dialog.getByLabel("Student name").fill(`Quentin ${stamp}`);
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => rows.count()).toBe(7);
    expect(await names()).not.toContain(`Quentin ${stamp}`);
  });

  test("shows every row's actions without sideways scrolling on a desktop screen", async ({
    page,
  }) => {
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1280, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await page.goto("/teacher-dashboard");
      const wrap = page.locator(".reports-table-wrap");
      await expect.poll(() => page.locator(".reports-table tbody tr").count()).toBe(25);
      const box = await wrap.boundingBox();
      expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth), `${size.width}px`).toBe(
        0,
      );
      for (const button of await page.locator(".report-actions .btn").all()) {
        const b = await button.boundingBox();
        expect(b && box && b.x + b.width <= box.x + box.width, `${size.width}px`).toBe(true);
      }
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test("a student sees no Teacher Input and the reports API answers 403", async ({
    page,
    browser,
  }) => {
    await logOut(page);
    await signUpAndLogIn(page, student, "Student");
    await page.goto("/dashboard");
    const items = await sidebarItems(page);
    expect(items).not.toContain("Teacher Input");
    expect(items).not.toContain("Teacher Dashboard");
    const statuses = await page.evaluate(async () => {
      const auth = { authorization: `Bearer ${localStorage.getItem("token")}` };
      const list = await fetch("/api/reports", { headers: auth });
      const create = await fetch("/api/reports", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ studentName: "X" }),
      });
      const csv = await fetch("/api/reports/export.csv", { headers: auth });
      return [list.status, create.status, csv.status, (await list.json()).error.code];
    });
    expect(statuses).toEqual([403, 403, 403, "forbidden"]);
    expect(
      browser.consoleErrors.filter(
        (e) => !/status of (403|500)|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e),
      ),
    ).toEqual([]);
  });
});
