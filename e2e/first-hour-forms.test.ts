import { messages } from "@gradecast/contract/messages";
import type { Page } from "playwright-core";
import { post } from "./api-calls.ts";
import { logIn, logOut } from "./browser-accounts.ts";
import { allowClipboard, pasteInto } from "./clipboard.ts";
import { type Accounts, describe, expect, test } from "./fixtures.ts";
import { saveScreenshot } from "./harness.ts";
import { fillReportForm } from "./report-form.ts";
import { weakTerm } from "./sample-answers.ts";

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
  test("101, -5, 7.5 and 100.5 stay as typed, marked; the form refuses them with the contract's one message", async ({
    page,
    accounts,
  }) => {
    await newSignedIn(page, accounts, "teacher", desktop);
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
    await allowClipboard(page, new URL(page.url()).origin);
    await pasteInto(marks, "85 ");
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
    await signOut(page);
  });
});

const phone = { width: 390, height: 844 };

const progressText = (page: Page) => page.locator(".questionnaire-progress-label").textContent();

/**
 * The sidebar, opened through the Menu button on a phone. The frame first: right after a
 * navigation the Menu button may not be drawn yet, and a visibility check that does not wait
 * would leave a phone's sidebar closed.
 */
async function openSidebar(page: Page) {
  // A phone's closed sidebar is hidden, and role queries pass over hidden elements.
  await page
    .getByRole("navigation", { name: "Main", includeHidden: true })
    .waitFor({ state: "attached" });
  const menu = page.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  return page.getByRole("navigation", { name: "Main" });
}

/** Opens a sidebar item: on a phone, through the Menu button first. */
async function openFromSidebar(page: Page, name: string) {
  await (await openSidebar(page)).getByRole("link", { name }).click();
}

/** Logout from the sidebar (through Menu on a phone), as the student would. */
async function signOut(page: Page) {
  await openSidebar(page);
  await logOut(page);
}

/** A test's own sign-in, whatever the one before left on the page. */
async function signInFresh(page: Page, who: Parameters<typeof logIn>[1]) {
  await page.goto("/login");
  await page.evaluate(() => localStorage.clear());
  await page.goto("/login");
  await logIn(page, who);
}

/** A new account of `role` through the API, signed in afresh on a page of `size`. */
async function newSignedIn(
  page: Page,
  accounts: Accounts,
  role: "student" | "teacher",
  size: { width: number; height: number },
) {
  await page.setViewportSize(size);
  const who = await accounts.create({ role });
  await signInFresh(page, who);
  return who;
}

async function predictionCount(page: Page): Promise<number> {
  const mine = await pageApi(page, "GET", "/api/predictions/mine");
  return (mine.body as { items: unknown[] }).items.length;
}

describe("a student finds their way back (390 px)", () => {
  test("the questionnaire opens with what was saved, after Save, a new sign-in and Change answers; the dashboard says what next; Prediction in the sidebar adds no point", async ({
    browser,
    accounts,
  }) => {
    const { page, dialogs } = browser;
    const student = await newSignedIn(page, accounts, "student", phone);

    // A new student: the dashboard keeps its welcome card and says to answer first.
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: `Welcome, ${student.name}!` }).waitFor();
    expect(await page.getByRole("link", { name: "Back to Home" }).count()).toBe(1);
    const next = page.locator(".next-steps");
    await next.getByRole("link", { name: "Answer the questionnaire" }).waitFor();
    expect(await next.getByRole("link", { name: "Join a class" }).getAttribute("href")).toBe(
      "/student-dashboard",
    );
    await saveScreenshot(page, "first-hour-dashboard-new-student-390");

    // The questionnaire: 30 questions, no school, answers as labels.
    await next.getByRole("link", { name: "Answer the questionnaire" }).click();
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("0 of 30 questions answered (0%)");
    expect(await page.locator('select[name="school"]').count()).toBe(0);
    expect(await page.locator('select[name="Mjob"] option[value="at_home"]').textContent()).toBe(
      "At home",
    );
    expect(await page.locator("select option", { hasText: " — " }).count()).toBe(0);
    for (const [key, value] of Object.entries(weakTerm)) {
      if (key === "school") continue;
      await page.locator(`select[name="${key}"]`).selectOption(value);
    }
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/dashboard$/);
    expect(dialogs.at(-1)).toBe(messages.studentSaved);

    // Saved, not predicted yet: the dashboard says so.
    await page
      .locator(".next-steps")
      .getByText("Your answers are saved. Predict your final score out of 20 from them.")
      .waitFor();

    // The next visit starts from what was saved.
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    expect(await page.locator('select[name="G2"]').inputValue()).toBe("8");
    await saveScreenshot(page, "first-hour-questionnaire-saved-answers-390");

    // So is the next sign-in (logout forgets the device's drafts, not what was saved).
    await signOut(page);
    await signInFresh(page, student);
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");

    // One grade changed, then Predict; "Change answers" comes back to the same answers.
    await page.locator('select[name="G2"]').selectOption("14");
    await page.getByRole("button", { name: "Predict" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("prediction-score").waitFor();
    const score = await page.getByTestId("prediction-score").textContent();
    await page.getByRole("link", { name: "Change answers" }).click();
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await progressText(page)).toBe("30 of 30 questions answered (100%)");
    expect(await page.locator('select[name="G2"]').inputValue()).toBe("14");

    // Another sign-in: the newest answers sent are the prediction's (G2 14), not the saved ones.
    await signOut(page);
    await signInFresh(page, student);
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    expect(await page.locator('select[name="G2"]').inputValue()).toBe("14");
    expect(await page.getByTestId("answers-source").textContent()).toMatch(
      /^These are the answers you predicted from on /,
    );

    // The dashboard leads to the latest prediction; so does the sidebar. Neither predicts again.
    const before = await predictionCount(page);
    expect(before).toBe(1);
    await page.goto("/dashboard");
    const latest = page.locator(".next-steps");
    await latest.getByText(`Your latest prediction: ${score} out of 20`).waitFor();
    await saveScreenshot(page, "first-hour-dashboard-student-390");
    await latest.getByRole("link", { name: "See your prediction" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("prediction-score").waitFor();
    expect(await page.getByTestId("prediction-score").textContent()).toBe(score);
    await page.goto("/dashboard");
    await page.getByRole("heading", { name: `Welcome, ${student.name}!` }).waitFor();
    await openFromSidebar(page, "Prediction");
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("prediction-score").waitFor();
    expect(await page.getByTestId("prediction-score").textContent()).toBe(score);
    await page.reload();
    await page.getByTestId("prediction-score").waitFor();
    expect(await predictionCount(page)).toBe(before);
    await signOut(page);
  });

  test("a teacher's dashboard lists their classes and how many students are at risk", async ({
    page,
    server,
    accounts,
  }) => {
    await newSignedIn(page, accounts, "teacher", phone);
    const student = await accounts.create({ role: "student" });
    await page.goto("/dashboard");
    await page.locator(".next-steps").getByRole("link", { name: "Create a class" }).waitFor();

    const made = await pageApi(page, "POST", "/api/classes", {
      name: "Maths 10B",
      subject: "mat",
      year: "2026/27",
    });
    expect(made.status).toBe(201);
    const madeClass = made.body as { class: { id: string; joinCode: string } };
    const { token } = (await post(server, "/api/auth/login", {
      email: student.email,
      password: student.password,
    })) as { token: string };
    await post(server, "/api/classes/join", { code: madeClass.class.joinCode }, token);
    await post(server, "/api/predict", { ...weakTerm, G1: "4", G2: "3", failures: "2" }, token);

    const risk = await pageApi(page, "GET", `/api/classes/${madeClass.class.id}/risk`);
    const counts = (risk.body as { counts: { students: number; atRisk: number; answered: number } })
      .counts;
    expect(counts.students).toBe(1);
    const people = (n: number) => `${n} ${n === 1 ? "student" : "students"}`;
    await page.reload();
    const item = page.locator(".next-steps-classes li", { hasText: "Maths 10B (2026/27)" });
    await item.waitFor();
    await expect
      .poll(() => item.textContent())
      .toBe(
        `Maths 10B (2026/27): ${people(counts.atRisk)} at risk of ${people(counts.students)} (${counts.answered} answered)`,
      );
    expect(await item.getByRole("link").getAttribute("href")).toBe(
      `/classes/${madeClass.class.id}`,
    );
    await saveScreenshot(page, "first-hour-dashboard-teacher-390");
    await signOut(page);
  });
});

describe("the what-if agrees with the prediction (1366 px)", () => {
  test("the difference is the one between the scores as shown; no change says the model finds no effect", async ({
    page,
    accounts,
  }) => {
    await newSignedIn(page, accounts, "student", desktop);
    // Term grades of 8: for this profile study time moves the prediction by less than 0.01.
    const made = await pageApi(page, "POST", "/api/predict", weakTerm);
    expect(made.status).toBe(200);
    await page.goto("/prediction");
    const shown = Number(await page.getByTestId("prediction-score").textContent());

    await page.locator("#whatif-studytime").selectOption("4");
    await page.getByTestId("whatif-difference").waitFor();
    expect(await page.getByTestId("whatif-difference").textContent()).toBe(
      "(±0.0 points, no change)",
    );
    expect(await page.getByTestId("whatif-no-effect").textContent()).toMatch(
      /^The model finds (almost )?no effect of weekly study time for students with these grades/,
    );
    await saveScreenshot(page, "first-hour-whatif-no-effect-1366");

    await page.getByRole("button", { name: "Back to my answers" }).click();
    await page.locator("#whatif-absences").selectOption("30");
    const moved = page.getByTestId("whatif-prediction");
    await moved.waitFor();
    const difference = (await page.getByTestId("whatif-difference").textContent()) ?? "";
    const [, sign, amount] = difference.match(/^\(([+−±])(\d+\.\d) points?, /) ?? [];
    const value = Number(amount) * (sign === "−" ? -1 : 1);
    expect(value).toBeCloseTo(Number(await moved.textContent()) - shown, 5);
    expect(await page.getByTestId("whatif-no-effect").count()).toBe(value === 0 ? 1 : 0);
    await saveScreenshot(page, "first-hour-whatif-1366");
    await signOut(page);
  });
});

describe("the school is the deployment's (390 px)", () => {
  test("never asked; the prediction uses MODEL_SCHOOL and its explanation shows labels, not codes", async ({
    page,
    accounts,
  }) => {
    await newSignedIn(page, accounts, "student", phone);
    const saved = await pageApi(page, "POST", "/api/students", { ...weakTerm, school: "MS" });
    expect((saved.body as { student: { school: string } }).student.school).toBe("GP");
    await pageApi(page, "POST", "/api/predict", { ...weakTerm, school: "MS", Mjob: "at_home" });
    await page.goto("/prediction");
    const table = page.locator(".prediction-factors tbody");
    await table.waitFor({ state: "attached" });
    // The table behind "Show every answer" (hidden until opened: read, not clicked).
    const row = (label: string) =>
      table
        .locator("tr")
        .filter({ has: page.locator("th", { hasText: new RegExp(`^${label}$`) }) });
    expect(await row("School").locator("td").first().textContent()).toBe("Gabriel Pereira");
    expect(await row("Mother's job").locator("td").first().textContent()).toBe("At home");
    expect(await table.textContent()).not.toContain(" — ");
    await saveScreenshot(page, "first-hour-prediction-labels-390");
    await signOut(page);
  });
});
