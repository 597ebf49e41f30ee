import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { post, signUpByApi } from "./api-calls.ts";
import { logIn, logOut, person, signUpVerified, verifyEmail } from "./browser-accounts.ts";
import { allowClipboard, pasteInto } from "./clipboard.ts";
import { describe, expect, test } from "./fixtures.ts";
import { pressInFrame } from "./frame-click.ts";
import { readOutbox, saveScreenshot } from "./harness.ts";
import { storedToken } from "./local-storage.ts";
import { sampleAnswers } from "./sample-answers.ts";

// Where a newcomer was misled on the screens (issue 21), each at the width where it was found:
// the teacher form rewriting what was typed, Back leaving the app, the report mixing one
// questionnaire's grades with another's prediction, the report frame shrunk to a stamp on a
// phone, words broken mid-word in the reports list, a made-up contact address, and a console that
// did not say where the emailed code went.
const teacher = person("Tess Teacher", "marks and more marks 9");
const student = person("Sol Student", "a fresh start at school 4");
const answers = sampleAnswers;
const phone = { width: 360, height: 740 };
const desktop = { width: 1366, height: 900 };
const longName = "Maximilianus Wolfeschlegelsteinhausen";

/** The words of the matched cells that the browser laid out over more than one line. */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const cell of Array.from(document.querySelectorAll(sel))) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/**
 * Opens /student-dashboard at 1366 px and walks the report's pages inside the 1250 by 600 frame:
 * on each, nothing overflows the frame (no scrolling) and no text is under 12 px.
 */
async function expectFramePagesFit(page: Page, heading: RegExp | string, who: string) {
  await page.goto("/student-dashboard");
  const handle = await page.locator("iframe[title='Analytics report']").elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error("no report frame");
  await frame.getByRole("heading", { name: heading }).first().waitFor({ timeout: 30_000 });
  const pager = frame.getByRole("navigation", { name: "Report pages" });
  const pages = await pager.getByRole("listitem").count();
  expect(pages).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < pages; i++) {
    if (i > 0) await pressInFrame(pager.getByRole("button", { name: "Next" }));
    await pager.getByText(`Page ${i + 1} of ${pages}`).waitFor();
    const fit = await frame.evaluate(() => {
      const root = document.documentElement;
      const sizes = Array.from(
        document.querySelectorAll<HTMLElement>("h1, h3, p, dt, dd, li, summary, button, td, th"),
      )
        .filter((el) => el.checkVisibility())
        .map((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      return {
        height: root.scrollHeight,
        width: root.scrollWidth,
        view: [root.clientWidth, root.clientHeight],
        smallestText: Math.min(...sizes),
      };
    });
    expect(fit.view).toEqual([1250, 600]);
    expect(fit.height, `${who} page ${i + 1}`).toBeLessThanOrEqual(600);
    expect(fit.width, `${who} page ${i + 1}`).toBeLessThanOrEqual(1250);
    // Legible: no text under 12 px.
    expect(fit.smallestText).toBeGreaterThanOrEqual(12);
    await saveScreenshot(page, `newcomer-report-frame-${who}-page-${i + 1}-1366`);
  }
}

// LOG_LEVEL=info, as `npm start` runs: the console line for each email is part of the test.
test.override("serverEnv", { RATE_LIMITS: "off", TEACHER_SIGNUP: "open", LOG_LEVEL: "info" });

describe("what a newcomer trips over, in the browser", () => {
  test.beforeAll(async ({ page, server }) => {
    await page.setViewportSize(desktop);
    await allowClipboard(page, server.url);
  });

  test("says in one console line where each email went, never its code", async ({
    page,
    server,
  }) => {
    await signUpVerified(page, server, teacher, "Teacher");
    const [mail] = (await readOutbox(server)).filter((m) => m.to.includes(teacher.email));
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeDefined();
    const lines = server
      .logs()
      .split("\n")
      .filter((l) => l.includes(".eml"));
    expect(lines).toContain(
      `Email to ${teacher.email} written to ${server.outboxDir}/${mail?.file}`,
    );
    expect(server.logs()).not.toContain(code);
  });

  test("Teacher Input keeps what is typed, marks a number out of range, takes a pasted one (1366 px)", async ({
    page,
  }) => {
    await page.goto("/teacher-input");
    await page.getByRole("heading", { level: 1, name: "Teacher Input" }).waitFor();
    const marks = page.getByLabel("Marks", { exact: true });
    const errorOf = (name: string) =>
      page
        .locator(".field")
        .filter({ has: page.getByLabel(name, { exact: true }) })
        .locator(".field-error");

    // 7.5 stays 7.5 (the old mask made it 75), marked, with why beside it.
    await marks.click();
    await page.keyboard.type("7.5");
    expect(await marks.inputValue()).toBe("7.5");
    expect(await marks.getAttribute("aria-invalid")).toBe("true");
    expect(await errorOf("Marks").textContent()).toBe("“7.5” is not a whole number from 0 to 100.");
    // A paste is taken as it is, even 1000 (marked, never cut down to 100).
    await pasteInto(marks, "1000");
    expect(await marks.inputValue()).toBe("1000");
    expect(await marks.getAttribute("aria-invalid")).toBe("true");
    await pasteInto(marks, "88");
    expect(await marks.inputValue()).toBe("88");
    expect(await marks.getAttribute("aria-invalid")).toBeNull();
    expect(await errorOf("Marks").count()).toBe(0);
    await saveScreenshot(page, "newcomer-teacher-input-numbers-1366");

    // Back to Dashboard is the teacher's own dashboard.
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.getByRole("heading", { level: 1, name: "Teacher Dashboard" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/teacher-dashboard");
  });

  test("reports list: whole words at 1366 px, labelled cards (Teacher, Date, Marks) at 360 px", async ({
    page,
    server,
  }) => {
    const token = await storedToken(page);
    await post(
      server,
      "/api/reports",
      {
        studentName: longName,
        course: "Environmental Sciences and Sustainability",
        marks: 64,
        attendance: 91,
        assignments: 5,
        behavior: "Good",
        feedback: "Steady progress.",
      },
      token ?? undefined,
    );
    await page.goto("/teacher-dashboard");
    await page.getByRole("button", { name: longName, exact: true }).waitFor();
    expect(await brokenWords(page, ".reports-table td, .reports-table th")).toEqual([]);
    await saveScreenshot(page, "newcomer-reports-1366");

    await page.setViewportSize(phone);
    await page.getByRole("button", { name: longName, exact: true }).waitFor();
    const labels = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".reports-table tbody tr:first-child td"), (td) =>
        getComputedStyle(td, "::before").content.replaceAll('"', ""),
      ),
    );
    expect(labels).toEqual(expect.arrayContaining(["Teacher", "Date", "Marks", "Course"]));
    const table = await page.locator(".reports-table tbody tr").first().boundingBox();
    expect(table?.width ?? 0).toBeLessThanOrEqual(phone.width);
    expect(await brokenWords(page, ".reports-table td")).toEqual([]);
    await saveScreenshot(page, "newcomer-reports-360");
    await page.setViewportSize(desktop);
  });

  test("the school report fits its 1250 by 600 frame at 1366 px, the totals above each page", async ({
    page,
  }) => {
    await expectFramePagesFit(page, "School analytics report", "teacher");
  });

  test("the student's report shows the latest prediction with its own G1, G2 and date (1366 px)", async ({
    page,
    server,
  }) => {
    await logOut(page);
    const token = await signUpByApi(server, student, "student");
    await post(server, "/api/students", answers, token);
    await post(server, "/api/predict", answers, token);
    // Newer answers saved without asking for a prediction: they must not be shown beside it.
    await post(server, "/api/students", { ...answers, G1: "5", G2: "6" }, token);
    await logIn(page, student);
    await verifyEmail(page, server, student);

    await page.goto("/student-dashboard");
    const frame = page.frameLocator("iframe[title='Analytics report']");
    const latest = frame.locator("section.report-latest");
    await latest.getByRole("heading", { name: /Where you stand/ }).waitFor({ timeout: 30_000 });
    const text = (await latest.textContent()) ?? "";
    expect(text).toMatch(/On .+, your latest predicted final score was \d+\.\d out of 20/);
    expect(text).toContain("G112 out of 20");
    expect(text).toContain("G213 out of 20");
    expect(text).not.toContain("5 out of 20");
    await saveScreenshot(page, "newcomer-student-report-1366");

    // One way to write the score and one colour for its band, here and on the prediction screen.
    const band = latest.locator(".band");
    const reportColor = await band.evaluate((el) => getComputedStyle(el).color);
    const bandText = (await band.textContent())?.trim() ?? "";
    expect(bandText).not.toBe("");
    await page.goto("/prediction");
    const score = (await page.getByTestId("prediction-score").textContent())?.trim() ?? "";
    expect(score).toMatch(/^\d+\.\d$/);
    expect(text).toContain(`${score} out of 20`);
    const message = page.locator(".prediction-message");
    expect(await message.evaluate((el) => getComputedStyle(el).color)).toBe(reportColor);
    expect(await message.textContent()).toContain(bandText);
  });

  test("the student's report fits its 1250 by 600 frame at 1366 px: pages of two parts, nothing scrolls", async ({
    page,
  }) => {
    await expectFramePagesFit(page, /Where you stand/, "student");
  });

  test("Back on the Student Dashboard returns to the previous screen and never leaves the app", async ({
    page,
    server,
  }) => {
    const nav = page.getByRole("navigation", { name: "Main" });
    await page.goto("/profile");
    await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor();
    await nav.getByRole("link", { name: "Student Dashboard" }).click();
    await page.getByRole("heading", { level: 1, name: "Student Dashboard" }).waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor();
    // The browser's own Back walks the same in-app entries.
    await nav.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor();

    // Opened straight from another site (the first page of the app in this tab): Back stays in
    // the app, on the dashboard.
    await page.goto("about:blank");
    await page.goto("/student-dashboard");
    await page.getByRole("heading", { level: 1, name: "Student Dashboard" }).waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    expect(new URL(page.url()).origin).toBe(server.url);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });

  test("on a phone the report is shown full-width with a link to open it on its own (360 px)", async ({
    page,
  }) => {
    await page.setViewportSize(phone);
    await page.goto("/student-dashboard");
    const iframe = page.locator("iframe[title='Analytics report']");
    await iframe.waitFor();
    const frame = page.frameLocator("iframe[title='Analytics report']");
    await frame.getByRole("heading", { name: /Where you stand/ }).waitFor({ timeout: 30_000 });
    const box = await iframe.boundingBox();
    // Not the 1250 by 600 frame shrunk to about 290 by 140: the phone's width, at its own scale.
    expect(box?.width ?? 0).toBeGreaterThan(280);
    expect(box?.height ?? 0).toBeGreaterThan(400);
    expect(await iframe.evaluate((el) => getComputedStyle(el).transform)).toBe("none");
    const inner = await iframe.evaluate(
      (el) => (el as HTMLIFrameElement).contentDocument?.documentElement.clientWidth ?? 0,
    );
    expect(inner).toBeLessThanOrEqual(phone.width);
    const link = page.getByRole("link", { name: /Open the report on its own page/ });
    expect(await link.getAttribute("href")).toMatch(/^\/report\?token=/);
    await saveScreenshot(page, "newcomer-student-dashboard-360");
    await page.setViewportSize(desktop);
  });

  test("the Contact page shows no made-up address when the school has set none (360 px)", async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(phone);
    await page.goto("/contact");
    await page.getByText(messages.contactNotSet).waitFor();
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(/\.local\b/);
    expect(await page.locator("a[href^='mailto:']").count()).toBe(0);
    await page.setViewportSize(desktop);
    expect(browser.consoleErrors).toEqual([]);
  });
});
