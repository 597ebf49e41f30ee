import { askedQuestions } from "@gradecast/contract/questionnaire";
import type { BrowserContext, Page } from "playwright-core";
import { axeViolations } from "./a11y.ts";
import { createClassByApi, post, signUpByApi } from "./api-calls.ts";
import { type Person, person } from "./browser-accounts.ts";
import { describe, expect, test } from "./fixtures.ts";
import { mailedCode, readOutbox, saveScreenshot } from "./harness.ts";
import { sampleAnswers } from "./sample-answers.ts";

// The newcomer's walk in European Portuguese (issue 33), in a browser whose language is pt-PT and
// an account that never chose one: registering, the emailed code (in Portuguese) typed on the
// verification page, the questionnaire, the prediction with its decimal comma, and the teacher's
// class risk list. Every screen of the walk passes axe at 360 and 1366 pixels.
// an address without accents (the browser's email field refuses them in the part before @)
const student = {
  ...person("Ines Conceição", "uma frase longa para a escola 4"),
  name: "Inês Conceição",
};
const teacher = person("Rita Gonçalves", "a lista de risco da turma 7");
const answers: Record<string, string> = {
  ...sampleAnswers,
  subject: "mat",
  G1: "11",
  G2: "12",
};

test.override("serverEnv", { TEACHER_SIGNUP: "open", RATE_LIMITS: "off" });

/** Signs in on the Portuguese login page and waits for /Home. */
async function entrar(page: Page, who: Person) {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  await page.getByRole("heading", { level: 1, name: "Iniciar sessão" }).waitFor();
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Palavra-passe").fill(who.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL(/\/Home$/);
}

/** axe at both widths on the page as it is: the violations' ids, by width. */
async function axeAtBothWidths(page: Page, name: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const width of [360, 1366]) {
    await page.setViewportSize({ width, height: width < 700 ? 740 : 900 });
    const ids = (await axeViolations(page)).map((v) => v.id);
    if (ids.length > 0) found[width] = ids;
    await saveScreenshot(page, `portuguese-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  return found;
}

describe("the newcomer's walk in Portuguese", () => {
  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser, server }) => {
    context = await browser.browser.newContext({ baseURL: server.url, locale: "pt-PT" });
    page = await context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test.afterAll(async () => {
    await context?.close();
  });

  test("registers, signs in and verifies the address with the code the Portuguese email gave", async ({
    server,
  }) => {
    await page.goto("/register");
    await page.getByRole("heading", { level: 1, name: "Registar" }).waitFor();
    expect(await page.locator("html").getAttribute("lang")).toBe("pt-PT");
    expect(await axeAtBothWidths(page, "register")).toEqual({});
    await page.getByLabel("Nome").fill(student.name);
    await page.getByLabel("Email").fill(student.email);
    await page.getByLabel("Palavra-passe").fill(student.password);
    await page.getByRole("button", { name: "Registar" }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole("heading", { level: 1, name: "Iniciar sessão" }).waitFor();
    expect(await axeAtBothWidths(page, "login")).toEqual({});

    // The verification email is written in the language the page asked for.
    const mail = (await readOutbox(server)).find((m) => m.to.includes(student.email));
    expect(mail?.subject).toMatch(/^O seu código de verificação do Gradecast: \d{6}$/);
    expect(mail?.text).toMatch(/O seu código de verificação do Gradecast é \d{6}\./);

    await entrar(page, student);
    await page.goto("/Verify");
    await page.getByRole("heading", { level: 1, name: "Verificar o seu email" }).waitFor();
    expect(await axeAtBothWidths(page, "verify")).toEqual({});
    await page.getByLabel("Código").fill(await mailedCode(server, student.email));
    await page.getByRole("button", { name: "Verificar" }).click();
    await page.getByText("Verificação efetuada com sucesso").waitFor();
  });

  test("answers the questionnaire in Portuguese and reads the prediction with a decimal comma", async () => {
    await page.goto("/student-input");
    await page.getByRole("heading", { level: 1, name: "Dados do aluno" }).waitFor();
    await page.getByLabel("Sexo", { exact: true }).waitFor();
    const progress = page.locator(".questionnaire-progress-label");
    expect(await progress.textContent()).toMatch(/^0 de 30 perguntas respondidas \(0\s?%\)$/);
    // The answers read in Portuguese: the UCI terms translated.
    expect(await page.locator('select[name="sex"] option[value="F"]').textContent()).toBe(
      "Feminino",
    );
    expect(await axeAtBothWidths(page, "student-input")).toEqual({});
    for (const q of askedQuestions) {
      await page.locator(`select[name="${q.key}"]`).selectOption(answers[q.key]!);
    }
    expect(await progress.textContent()).toMatch(/^30 de 30 perguntas respondidas \(100\s?%\)$/);
    await page.getByRole("button", { name: "Prever" }).click();
    await page.waitForURL(/\/prediction$/);
    await page.getByRole("heading", { level: 1, name: "Previsão" }).waitFor();
    const score = (await page.getByTestId("prediction-score").textContent()) ?? "";
    expect(score).toMatch(/^\d{1,2},\d$/);
    expect(await page.getByTestId("prediction-message").textContent()).toMatch(
      /^(Precisa de melhorar!|Bom esforço!|Parabéns!)$/,
    );
    await page.getByRole("heading", { name: "O que fez mudar a sua previsão" }).waitFor();
    expect(await axeAtBothWidths(page, "prediction")).toEqual({});
  });

  test("shows the teacher the class risk list in Portuguese", async ({ browser, server }) => {
    const teacherToken = await signUpByApi(server, teacher, "teacher", { verified: true });
    const created = await createClassByApi(server, teacherToken, "Matemática 10.º B");
    const { token } = (await post(server, "/api/auth/login", {
      email: student.email,
      password: student.password,
    })) as { token: string };
    await post(server, "/api/classes/join", { code: created.joinCode }, token);
    await post(server, "/api/predict", answers, token);

    const teacherContext = await browser.browser.newContext({
      baseURL: server.url,
      locale: "pt-PT",
    });
    try {
      const staff = await teacherContext.newPage();
      await staff.setViewportSize({ width: 1366, height: 900 });
      await entrar(staff, teacher);
      await staff.goto(`/classes/${created.id}`);
      await staff.getByRole("heading", { level: 1, name: "Matemática 10.º B" }).waitFor();
      await staff.getByRole("heading", { name: "Lista de risco" }).waitFor();
      await staff.getByText(/^1 aluno · \d em risco · todos responderam$/).waitFor();
      const table = staff.getByRole("region", { name: "Tabela da lista de risco" });
      const text = (await table.textContent()) ?? "";
      expect(text).toContain(student.name);
      // the interval with decimal commas, the reasons in the questionnaire's words
      expect(text).toMatch(/\d{1,2},\d-\d{1,2},\d/);
      expect(text).toContain("Nota do 2.º período (G2) 12");
      expect(await axeAtBothWidths(staff, "class-risk")).toEqual({});
    } finally {
      await teacherContext.close();
    }
  });
});
