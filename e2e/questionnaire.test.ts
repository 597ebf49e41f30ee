import { messages } from "@gradecast/contract/messages";
import {
  askedQuestions,
  defaultOptionalQuestions,
  optionText,
  questionByKey,
  questions,
  sections,
} from "@gradecast/contract/questionnaire";
import { bandMessages, bandOf } from "@gradecast/contract/score";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { signUpAndLogIn, submitLogin } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { storedKeys } from "./local-storage.ts";
import { weakTerm } from "./sample-answers.ts";

// The student questionnaire and the prediction in Chromium against the real server (issue 6):
// a student fills every question with the keyboard only, is stopped at the first unanswered
// one, keeps the draft across a reload, predicts, reads the score, the message and the factor
// chart, tries a what-if, saves, and still sees the latest prediction after a reload.

const stamp = Date.now();
const student = {
  name: "Quinn Questionnaire",
  email: `quinn.${stamp}@example.org`,
  password: "seven sleepy owls study",
};

// The student gives the answers of a weak term (weakTerm, the codes the form sends). The school
// is the deployment's, never asked (issue 28).

/** What the student types into a closed select for an answer: its text as shown, "8" or "Female"
 * (type-to-select matches the start of an option's text). */
const typing = (key: string) => {
  const option = questionByKey[key as keyof typeof questionByKey].options.find(
    (o) => String(o.value) === weakTerm[key],
  );
  return option ? optionText(option) : weakTerm[key]!;
};

/** The questions in the order of the page: by section, then as the contract lists them. */
const pageOrder = sections.flatMap((s) => askedQuestions.filter((q) => q.section === s.key));
const asked = askedQuestions.length;

const progressText = (page: Page) => page.locator(".questionnaire-progress-label").textContent();

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

const focusedName = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.name ?? "");

const seriousViolations = async (page: Page) =>
  (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");

describe("student questionnaire and prediction in the browser", () => {
  let predicted = "";

  test("a new student sees 'No prediction available.' on /prediction", async ({ page }) => {
    await signUpAndLogIn(page, student);
    await page.goto("/prediction");
    await expect.poll(() => page.getByText(messages.noPrediction, { exact: true }).count()).toBe(1);
  });

  test("fills the questionnaire by keyboard only; the first unanswered question is focused and named", async ({
    browser,
  }) => {
    const { page, dialogs } = browser;
    const dialogsBefore = dialogs.length;
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(asked).toBe(30);
    expect(await progressText(page)).toBe("0 of 30 questions answered (0%)");
    // The school is the deployment's (MODEL_SCHOOL), never asked.
    expect(await page.locator('select[name="school"]').count()).toBe(0);
    expect(await page.getByText("Gabriel Pereira").count()).toBe(0);

    // Every question offers exactly the contract's options, after an empty first choice.
    for (const q of askedQuestions) {
      const values = await page
        .locator(`select[name="${q.key}"] option`)
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(values, q.key).toEqual([
        "",
        ...(q.unknownLabel ? ["not-known"] : []),
        // "Prefer not to say" on the questions the deployment marks optional (issue 31)
        ...((defaultOptionalQuestions as readonly string[]).includes(q.key) ? ["prefer-not"] : []),
        ...q.options.map((o) => String(o.value)),
      ]);
    }
    // Answers read as their labels, never the data set's codes (issue 28).
    expect(await page.locator('select[name="Medu"] option[value="4"]').textContent()).toBe(
      "Higher education",
    );
    expect(await page.locator('select[name="famsize"] option[value="LE3"]').textContent()).toBe(
      "Three or fewer",
    );
    expect(await page.locator('select[name="Mjob"] option[value="at_home"]').textContent()).toBe(
      "At home",
    );

    // Predict too early: the first question is focused and named.
    await page.getByRole("button", { name: "Predict" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedName(page)).toBe("sex");
    expect(
      await page.getByRole("alert").filter({ hasText: "before you predict" }).textContent(),
    ).toBe("Answer “Sex” before you predict. 30 questions are left.");

    // Tab from question to question, typing the start of each answer; skip "goout".
    for (const [i, q] of pageOrder.entries()) {
      if (i > 0) await page.keyboard.press("Tab");
      expect(await focusedName(page), `focus at question ${i}`).toBe(q.key);
      if (q.key === "goout") continue;
      await page.keyboard.type(typing(q.key));
      expect(await page.locator(`select[name="${q.key}"]`).inputValue(), q.key).toBe(
        weakTerm[q.key],
      );
    }
    expect(await progressText(page)).toBe("29 of 30 questions answered (97%)");
    // The message followed the answers: one question is left now.
    expect(
      await page.getByRole("alert").filter({ hasText: "before you predict" }).textContent(),
    ).toBe("Answer “Going out with friends” before you predict. It is the last question left.");

    // Save too early: the one question left is focused and named.
    await page.getByRole("button", { name: "Save" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedName(page)).toBe("goout");
    expect(await page.getByRole("alert").filter({ hasText: "before you save" }).textContent()).toBe(
      "Answer “Going out with friends” before you save. It is the last question left.",
    );
    expect(dialogs.slice(dialogsBefore)).toEqual([]);

    // Arrow keys work too: from "Select…" down three options to "3 — medium".
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    expect(await page.locator('select[name="goout"]').inputValue()).toBe("3");
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    expect(await page.locator("progress").getAttribute("value")).toBe("30");
    // Nothing is left to answer, so nothing is left of the message.
    expect(await page.getByRole("alert").filter({ hasText: "before you" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("keeps the draft across a reload", async ({ page }) => {
    await page.reload();
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    expect(await page.locator('select[name="G2"]').inputValue()).toBe("8");
  });

  test("predicts: the score out of 20 with one decimal, its message, the interval and the factor chart", async ({
    page,
  }) => {
    await page.getByRole("button", { name: "Predict" }).focus();
    // The button is at the bottom of the questionnaire, so the page is scrolled to reach it.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/prediction$/);
    const scoreLocator = page.getByTestId("prediction-score");
    await scoreLocator.waitFor();
    // The new page opens at the top, where the score is.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    predicted = (await scoreLocator.textContent()) ?? "";
    expect(predicted).toMatch(/^\d{1,2}\.\d$/);
    const value = Number(predicted);
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(20);
    expect(await page.getByTestId("prediction-message").textContent()).toBe(
      bandMessages[bandOf(value)],
    );
    expect(await page.locator(".prediction-score").textContent()).toMatch(
      /80% likely range: \d{1,2}\.\d to \d{1,2}\.\d/,
    );

    // The factor chart is drawn (ECharts on a canvas) with its table of labelled effects.
    const chart = page.locator(".prediction-factors [role=img]");
    await chart.locator("canvas").waitFor();
    expect(await chart.getAttribute("aria-label")).toMatch(/moved the prediction most/);
    const rows = page.locator(".prediction-factors tbody tr");
    expect(await rows.count()).toBe(questions.length);
    expect(await page.locator(".prediction-factors tbody").textContent()).toContain(
      "Second period grade (G2)",
    );
  });

  // With G1 and G2 known the grades carry the prediction: for this profile study time moves it by
  // less than 0.01, while 20 absences instead of 4 take it down by about 0.2.
  test("what-if: more absences show a new, lower prediction and the difference at once", async ({
    page,
  }) => {
    expect(await page.locator(".prediction-whatif-result").textContent()).toContain(
      "Change an answer above",
    );
    await page.locator("#whatif-absences").focus();
    await page.keyboard.type("20");
    const whatIf = page.getByTestId("whatif-prediction");
    await whatIf.waitFor();
    const moved = Number(await whatIf.textContent());
    expect(moved).not.toBeCloseTo(Number(predicted), 1);
    const difference = (await page.getByTestId("whatif-difference").textContent()) ?? "";
    expect(difference).toMatch(/^\(−\d+\.\d points?, lower\)$/);
    // The difference is the one between the two scores as shown.
    expect(Number(difference.match(/\d+\.\d/)?.[0])).toBeCloseTo(Number(predicted) - moved, 5);
    // The saved prediction itself has not changed.
    expect(await page.getByTestId("prediction-score").textContent()).toBe(predicted);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("after a reload /prediction still shows the latest prediction, from the server", async ({
    page,
  }) => {
    await page.reload();
    await page.getByTestId("prediction-score").waitFor();
    expect(await page.getByTestId("prediction-score").textContent()).toBe(predicted);
    await page.locator(".prediction-factors canvas").waitFor();
    expect(await page.locator(".prediction-history").textContent()).toContain(
      "1 prediction so far",
    );
  });

  test("a page that fails to render says so inside the app frame, with Reload and a way home", async ({
    browser,
  }) => {
    const { page, consoleErrors } = browser;
    const logged = consoleErrors.length;
    await page.goto("/dashboard");
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    // A history entry whose carried result is damaged: /prediction throws while rendering.
    await page.evaluate(() => {
      const state = { usr: { result: { prediction: 5 } }, key: "damaged", idx: 1 };
      window.history.pushState(state, "", "/prediction");
      window.dispatchEvent(new PopStateEvent("popstate", { state }));
    });
    const alert = page.getByRole("alert").filter({ hasText: "Something went wrong." });
    await alert.waitFor();
    expect(await alert.getByRole("button", { name: "Reload" }).count()).toBe(1);
    expect(await alert.getByRole("link", { name: "Go to Home" }).getAttribute("href")).toBe(
      "/Home",
    );
    // The frame is still there and its links still work.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Student Input" })
      .click();
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await alert.count()).toBe(0);
    consoleErrors.splice(logged);
  });

  test("a failed Save keeps focus on Save; a session that ended says so and removes the answers from the device", async ({
    browser,
  }) => {
    const { page, dialogs, consoleErrors } = browser;
    const logged = consoleErrors.length;
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    const dialogsBefore = dialogs.length;
    await page.route("**/api/students", async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.fulfill({ status: 500, body: "" });
    });
    const save = page.getByRole("button", { name: "Save" });
    await save.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => dialogs.length).toBe(dialogsBefore + 1);
    expect(dialogs.at(-1)).toBe(messages.studentSaveFailed);
    expect(await focusedText(page)).toBe("Save");
    await page.unroute("**/api/students");

    // The ID token is no longer accepted and the refresh is refused: the session has ended.
    await page.evaluate(() => localStorage.setItem("token", "expired.id.token"));
    await page.route("**/api/auth/refresh", (route) =>
      route.fulfill({
        status: 401,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unauthorized", message: "Please sign in." } }),
      }),
    );
    await save.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/login\?next=%2Fstudent-input$/);
    expect(dialogs.at(-1)).toBe(
      "Your session has ended, so your answers were removed from this device. Log in again to answer the questions.",
    );
    expect(await storedKeys(page, "gradecast:questionnaire-draft:")).toEqual([]);
    await page.unroute("**/api/auth/refresh");
    await submitLogin(page, student);
    await page.waitForURL(/\/student-input$/);
    await page.getByLabel("Sex", { exact: true }).waitFor();
    // The draft went with the session, but the answers of the prediction made above were sent:
    // the form opens with them (issue 28), not with 30 questions to answer again.
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    for (const q of pageOrder) {
      expect(await page.locator(`select[name="${q.key}"]`).inputValue(), q.key).toBe(
        weakTerm[q.key],
      );
    }
    // Only the refused requests' own console lines.
    const added = consoleErrors.splice(logged);
    expect(added.filter((m) => !/Failed to load resource/.test(m))).toEqual([]);
  });

  test("saves the questionnaire: alert, /dashboard, and the form opens again with what was saved", async ({
    browser,
  }) => {
    const { page, dialogs } = browser;
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    const dialogsBefore = dialogs.length;
    await page.getByRole("button", { name: "Save" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard$/);
    expect(dialogs.slice(dialogsBefore)).toEqual([messages.studentSaved]);
    // The next visit starts from what was saved (issue 28).
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    expect(await page.getByTestId("answers-source").textContent()).toMatch(
      /^These are the answers you saved on /,
    );

    await page.goto("/prediction");
    await page.getByTestId("prediction-score").waitFor();
    expect(await page.getByTestId("prediction-score").textContent()).toBe(predicted);
  });

  test("logged no console errors", ({ browser }) => {
    expect(browser.consoleErrors).toEqual([]);
  });
});
