import { askedQuestions } from "@gradecast/contract/questionnaire";
import type { Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { fillSignUp, logIn, person, verifyEmail } from "./browser-accounts.ts";
import { deleteMyAccount, downloadMyData } from "./data-card-steps.ts";
import { describe, expect, test } from "./fixtures.ts";
import { readOutbox } from "./harness.ts";
import { sampleAnswers } from "./sample-answers.ts";

// Issue 31 in Chromium under LEGAL_BASIS=consent: a 12-year-old signs up with their date of
// birth, cannot answer the questionnaire, asks a guardian by email; the guardian follows the
// emailed link (in a browser of their own, with no account) and consents; the student then
// answers, sees a prediction with its oversight notice, exports their data and deletes the
// account. The new screens are checked with axe at 360 px and 1366 px.
test.override("serverEnv", { RATE_LIMITS: "off", LEGAL_BASIS: "consent" });

const student = person("Rita Young", "a twelve year old at school");
const guardianEmail = `guardian.${Date.now().toString(36)}@example.org`;

/** A date of birth twelve years and a few months ago (YYYY-MM-DD). */
function twelveYearsAgo(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 12);
  d.setUTCMonth(d.getUTCMonth() - 3, 1);
  return d.toISOString().slice(0, 10);
}

const seriousViolations = async (page: Page) =>
  (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");

/** axe finds nothing serious at a phone's width and a desktop's. */
async function axeAtBothWidths(page: Page, what: string) {
  for (const width of [360, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await seriousViolations(page), `${what} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The newest guardian link mailed to `to` (the path and query, to open on this server). */
async function mailedLink(server: { outboxDir: string }, to: string, path: RegExp) {
  for (let i = 0; i < 100; i++) {
    const mine = (await readOutbox(server)).filter((m) => m.to.includes(to));
    const link = mine
      .map((m) => m.text.match(path)?.[0])
      .filter(Boolean)
      .at(-1);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no link matching ${path} was emailed to ${to}`);
}

describe("a 12-year-old under the consent legal basis", () => {
  // One walk from sign-up to deletion, with axe at two widths on five screens: longer than most.
  test("signs up with a date of birth, waits for a guardian's consent, answers, exports and deletes", {
    timeout: 480_000,
    retry: 0,
  }, async ({ page, server, browser }) => {
    // Sign-up: the date of birth is asked of a student, and checked beside its field.
    await fillSignUp(page, student);
    const born = page.getByLabel("Date of birth");
    await born.waitFor();
    await axeAtBothWidths(page, "sign-up with the date of birth");
    await born.fill(twelveYearsAgo());
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.waitForURL(/\/login$/);
    await logIn(page, student);
    await verifyEmail(page, server, student);

    // The questionnaire is closed until a guardian consents.
    await page.goto("/student-input");
    await page.getByRole("heading", { name: "Ask a parent or guardian" }).waitFor();
    expect(await page.locator('select[name="G1"]').count()).toBe(0);
    await axeAtBothWidths(page, "the questionnaire's consent request");
    await page.getByLabel("Parent's or guardian's email").fill(guardianEmail);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText(/you can send it again after a minute/).waitFor();
    expect(await page.getByText(guardianEmail, { exact: true }).count()).toBe(1);

    // The guardian opens the emailed link in a browser of their own, with no account.
    const link = await mailedLink(server, guardianEmail, /\/consent\?token=[A-Za-z0-9_-]+/);
    const guardianContext = await browser.browser.newContext({ baseURL: server.url });
    try {
      const guardian = await guardianContext.newPage();
      const apiUrls: string[] = [];
      guardian.on("request", (r) => {
        if (r.url().includes("/api/")) apiUrls.push(r.url());
      });
      await guardian.goto(link);
      await guardian
        .getByRole("heading", { level: 1, name: "Parent or guardian consent" })
        .waitFor();
      await guardian.getByText(student.name, { exact: true }).waitFor();
      // The token left the address bar and never travelled in an API request's URL.
      expect(new URL(guardian.url()).search).toBe("");
      await axeAtBothWidths(guardian, "the guardian's consent page");
      await guardian.getByRole("button", { name: "I consent" }).click();
      await guardian.getByText(/your consent for Rita Young is recorded/).waitFor();
      expect(apiUrls.filter((u) => u.includes("token"))).toEqual([]);

      // The confirmation email carries the withdrawal link: its page asks before withdrawing.
      const withdraw = await mailedLink(
        server,
        guardianEmail,
        /\/consent\/withdraw\?token=[A-Za-z0-9_-]+/,
      );
      await guardian.goto(withdraw);
      await guardian.getByRole("button", { name: "Withdraw consent" }).waitFor();
      expect(new URL(guardian.url()).search).toBe("");
      await axeAtBothWidths(guardian, "the guardian's withdrawal page");
    } finally {
      await closeContext(guardianContext);
    }

    // The student answers and predicts.
    await page.goto("/student-input");
    await page.locator('select[name="G1"]').waitFor();
    // The sample answers, and the subject they leave out (the model's ages start at 15).
    const answers: Record<string, string> = { ...sampleAnswers, subject: "mat" };
    for (const q of askedQuestions) {
      await page.locator(`select[name="${q.key}"]`).selectOption(answers[q.key] ?? "");
    }
    await page.getByRole("button", { name: "Predict" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("prediction-score").waitFor();
    await page.getByText(/This is an estimate from data, not a judgement/).waitFor();
    await page.getByLabel("Why the estimate is wrong").fill("I was ill for the second test.");
    await page.getByRole("button", { name: "Send to my teachers" }).click();
    await page.getByText(/Sent to your class teachers on/).waitFor();
    await axeAtBothWidths(page, "the prediction with its contest form");

    // Export: a ZIP that holds the consent and the prediction.
    await page.goto("/settings");
    const { filename, account } = await downloadMyData(page);
    expect(filename).toMatch(/\.zip$/);
    expect(account[0]?.email).toBe(student.email);

    // Deletion: the password is asked again, and the student is signed out.
    await deleteMyAccount(page);
  });
});

async function closeContext(context: { close(): Promise<void> }) {
  await context.close();
}
