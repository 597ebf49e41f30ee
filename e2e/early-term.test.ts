import { modelSetupText } from "@gradecast/contract/prediction";
import { notKnownYetLabel, askedQuestions as questions } from "@gradecast/contract/questionnaire";
import { logIn } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";

// Early in the term, in Chromium against the real server (issue 19): a student who does not
// know their term grades yet answers "Not known yet", predicts, and reads which model answered,
// how sure it is and the two parts; with answers like those of students who did not sit the
// final, the screen says so plainly, with the school's contact address from configuration.

const contact = "student.support@school.example";
test.override("serverEnv", { RATE_LIMITS: "off", CONTACT_EMAIL: contact });

// A profile the shipped model gives a high risk of not sitting the final (about 38 % with no
// grade known, more with low ones): older, past failures, no wish for higher education.
const answers: Record<string, string> = {
  school: "MS",
  sex: "M",
  age: "19",
  address: "R",
  famsize: "GT3",
  Pstatus: "T",
  Medu: "1",
  Fedu: "1",
  Mjob: "other",
  Fjob: "other",
  reason: "course",
  guardian: "other",
  famsup: "no",
  famrel: "3",
  traveltime: "3",
  studytime: "1",
  failures: "3",
  schoolsup: "no",
  paid: "no",
  nursery: "yes",
  higher: "no",
  internet: "no",
  absences: "10",
  activities: "no",
  romantic: "yes",
  freetime: "3",
  goout: "5",
  health: "3",
  subject: "mat",
};

describe("a prediction early in the term", () => {
  test.beforeAll(async ({ page, accounts }) => {
    await logIn(page, await accounts.create({ name: "Elio Early", verified: false }));
  });

  test("answers with G1 and G2 'Not known yet': which model, how sure, the two parts, and the high-risk message with the school's contact", async ({
    page,
  }) => {
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    for (const q of questions) {
      if (q.key === "G1" || q.key === "G2") continue;
      await page.locator(`select[name="${q.key}"]`).selectOption(answers[q.key]!);
    }
    // "Not known yet" is chosen like any answer, by keyboard
    for (const key of ["G1", "G2"]) {
      await page.locator(`select[name="${key}"]`).focus();
      await page.keyboard.type("Not");
      expect(await page.locator(`select[name="${key}"] option:checked`).textContent(), key).toBe(
        notKnownYetLabel,
      );
    }
    expect(await page.locator(".questionnaire-progress-label").textContent()).toBe(
      `${questions.length} of ${questions.length} questions answered (100%)`,
    );
    await page.getByRole("button", { name: "Predict" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("prediction-score").waitFor();

    expect(await page.getByTestId("model-setup").textContent()).toContain(modelSetupText.C);
    expect(await page.getByTestId("model-setup").textContent()).toMatch(
      /not very sure|only roughly sure/,
    );
    expect(await page.getByTestId("score-if-sits").textContent()).toMatch(
      /^\d{1,2}\.\d out of 20$/,
    );
    const risk = Number((await page.getByTestId("no-final-risk").textContent())?.replace("%", ""));
    expect(risk).toBeGreaterThanOrEqual(25);
    const warning = page.getByTestId("high-risk-message");
    await expect.poll(() => warning.textContent()).toContain(contact);
    expect(await warning.locator(`a[href="mailto:${contact}"]`).count()).toBe(1);
    // the explanation says which grades were not known
    expect(await page.locator(".prediction-factors tbody").textContent()).toContain(
      notKnownYetLabel,
    );
  });

  test("with both grades known and good, names that model and shows no high-risk message", async ({
    page,
  }) => {
    await page.goto("/student-input");
    await page.getByLabel("Sex", { exact: true }).waitFor();
    const safe: Record<string, string> = {
      ...answers,
      school: "GP",
      age: "16",
      failures: "0",
      higher: "yes",
      studytime: "3",
      absences: "2",
      goout: "2",
      G1: "15",
      G2: "16",
    };
    for (const q of questions) {
      await page.locator(`select[name="${q.key}"]`).selectOption(safe[q.key]!);
    }
    await page.getByRole("button", { name: "Predict" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByTestId("model-setup").waitFor();
    await expect
      .poll(() => page.getByTestId("model-setup").textContent())
      .toContain(modelSetupText.A);
    expect(await page.getByTestId("high-risk-message").count()).toBe(0);
  });
});
