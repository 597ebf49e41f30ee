import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { logIn, logOut } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { saveScreenshot } from "./harness.ts";
import { fillReportForm } from "./report-form.ts";

// A school's first hour with Gradecast (issue 28), the forms and the student's way back to their
// prediction, each at the width where it was found: the teacher form keeping what was typed, the
// questionnaire opening with the saved answers, the dashboard saying what to do next, the
// what-if's numbers agreeing with the prediction, and the school taken from the configuration.

test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open", MODEL_SCHOOL: "GP" });

const desktop = { width: 1366, height: 900 };

/** The API as the signed-in page calls it (its own token): the status and the JSON. */
async function pageApi(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem("token")}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    { method, path, body },
  );
}

const errorBeside = (page: Page, name: string) =>
  page
    .locator(".field")
    .filter({ has: page.getByLabel(name, { exact: true }) })
    .locator(".field-error");

describe("Teacher Input never changes a number (1366 px)", () => {
  test("101, -5, 7.5 and 100.5 stay as typed, marked; the form refuses them with SPEC.md's message", async ({
    page,
    accounts,
  }) => {
    await page.setViewportSize(desktop);
    const teacher = await accounts.create({ role: "teacher" });
    await logIn(page, teacher);
    await page.goto("/teacher-input");
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    const studentName = `Nina Numbers ${Date.now()}`;
    await fillReportForm(page, {
      studentName,
      course: "Mathematics",
      marks: "",
      attendance: "90",
      assignments: "5",
      behavior: "Good",
      feedback: "Steady work.",
    });
    const marks = page.getByLabel("Marks", { exact: true });
    for (const typed of ["101", "-5", "7.5", "100.5"]) {
      await marks.fill("");
      await marks.click();
      await page.keyboard.type(typed);
      expect(await marks.inputValue()).toBe(typed);
      expect(await marks.getAttribute("aria-invalid"), typed).toBe("true");
      expect(await errorBeside(page, "Marks").textContent()).toBe(
        `“${typed}” is not a whole number from 0 to 100.`,
      );
      await page.getByRole("button", { name: "Submit Report" }).click();
      await page.getByRole("alert").filter({ hasText: messages.reportRange }).waitFor();
      expect(await marks.inputValue()).toBe(typed);
    }
    expect(messages.reportRange).toBe(
      "Marks and Attendance must be between 0 and 100. Assignments must be between 0 and 6.",
    );
    await saveScreenshot(page, "first-hour-teacher-input-refused-1366");
    const none = await pageApi(
      page,
      "GET",
      `/api/reports?search=${encodeURIComponent(studentName)}`,
    );
    expect((none.body as { items: unknown[] }).items).toEqual([]);

    // The server refuses them too, with the same message, whatever a client sends.
    for (const bad of ["101", "-5", "7.5", "100.5", 101, 7.5]) {
      const sent = await pageApi(page, "POST", "/api/reports", {
        studentName,
        course: "Mathematics",
        marks: bad,
        attendance: "90",
        assignments: "5",
        behavior: "Good",
        feedback: "Steady work.",
      });
      expect(sent.status, String(bad)).toBe(400);
      expect(JSON.stringify(sent.body)).toContain(messages.reportRange);
    }

    // 85 with a trailing space, as pasted from a spreadsheet, is taken as 85.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: new URL(page.url()).origin,
    });
    await marks.fill("");
    await marks.focus();
    await page.evaluate(() => navigator.clipboard.writeText("85 "));
    await page.keyboard.press("Control+V");
    expect(await marks.inputValue()).toBe("85 ");
    expect(await marks.getAttribute("aria-invalid")).toBeNull();
    await page.getByRole("button", { name: "Submit Report" }).click();
    await page.getByText(messages.reportSubmitted).waitFor();
    // The form is empty and says nothing more of the numbers.
    expect(await marks.inputValue()).toBe("");
    expect(await page.locator(".report-fields .field-error").count()).toBe(0);
    expect(await page.locator("[aria-invalid=true]").count()).toBe(0);
    const saved = await pageApi(
      page,
      "GET",
      `/api/reports?search=${encodeURIComponent(studentName)}`,
    );
    expect((saved.body as { items: { marks: number }[] }).items.map((r) => r.marks)).toEqual([85]);
    await logOut(page);
  });
});
