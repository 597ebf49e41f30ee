import { messages } from "@gradecast/contract/messages";
import { askedQuestions as questions } from "@gradecast/contract/questionnaire";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { localeKey } from "../i18n/locale.tsx";
import { fakeServer, renderPage, signedInAs, testUser, watchAlerts } from "../test/render.tsx";
import StudentInput from "./student-input.tsx";
import { consentNotNeeded, nothingSent } from "./student-input-fixtures.ts";

// The questionnaire as a student fills it: the progress follows the answers, Save with questions
// left names the first one and marks every one left beside it, and a complete questionnaire is
// sent once with the contract's codes, then the student lands on the dashboard.
const student = testUser("student");
const first = questions[0];
const second = questions[1];
if (!first || !second) throw new Error("the questionnaire has no questions");

/** Answers every question with its first listed option (not "Not known yet"). */
function answerAll(except: readonly string[] = []) {
  for (const q of questions) {
    if (except.includes(q.key)) continue;
    const option = q.options[0];
    if (!option) throw new Error(`${q.key} has no options`);
    // fireEvent, not user-event: 30 selects typed one by one would only slow the test down.
    fireEvent.change(screen.getByLabelText(q.label), { target: { value: String(option.value) } });
  }
}

describe("the student questionnaire", () => {
  it("counts answers in the progress bar as they are given", async () => {
    fakeServer({ ...signedInAs(student), ...nothingSent });
    const { user } = renderPage(<StudentInput />, "/student-input");
    const progress = await screen.findByRole("progressbar");
    expect(progress.getAttribute("value")).toBe("0");
    expect(screen.getByText(`0 of ${questions.length} questions answered (0%)`)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText(first.label), String(first.options[0]?.value));
    expect(progress.getAttribute("value")).toBe("1");
    expect(
      screen.getByText(
        `1 of ${questions.length} questions answered (${Math.round(100 / questions.length)}%)`,
      ),
    ).toBeTruthy();
  });

  it("stops Save with questions left: names the first, marks each one left, sends nothing", async () => {
    const server = fakeServer({ ...signedInAs(student), ...nothingSent });
    const { user } = renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    answerAll([first.key, second.key]);
    await user.click(screen.getByRole("button", { name: "Save" }));
    const missing = await screen.findByText(/before you save/);
    expect(missing.textContent).toBe(
      `Answer “${first.label}” before you save. 2 questions are left.`,
    );
    for (const q of [first, second]) {
      const select = screen.getByLabelText(q.label);
      expect(select.getAttribute("aria-invalid"), q.key).toBe("true");
      expect(document.getElementById(`${select.id}-error`)?.textContent).toBe("Choose an answer.");
    }
    // The focus goes to the first question left, so a keyboard user is taken there.
    expect(document.activeElement).toBe(screen.getByLabelText(first.label));
    expect(server.calls.some((c) => c.route === "POST /api/students")).toBe(false);
    // Answering clears that question's mark and the message follows what is left.
    await user.selectOptions(screen.getByLabelText(first.label), String(first.options[0]?.value));
    expect(screen.getByLabelText(first.label).getAttribute("aria-invalid")).toBeNull();
    expect(screen.getByText(/before you save/).textContent).toBe(
      `Answer “${second.label}” before you save. It is the last question left.`,
    );
  });

  it("saves a complete questionnaire once, with the contract's codes, and opens the dashboard", async () => {
    const alerts = watchAlerts();
    const server = fakeServer({
      ...signedInAs(student),
      ...nothingSent,
      "POST /api/students": ({ body }) => ({ status: 201, body: { student: body } }),
    });
    const { user } = renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    answerAll();
    expect(
      screen.getByText(`${questions.length} of ${questions.length} questions answered (100%)`),
    ).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/dashboard"));
    expect(alerts).toEqual([messages.studentSaved]);
    const sent = server.calls.filter((c) => c.route === "POST /api/students");
    expect(sent).toHaveLength(1);
    expect(Object.keys(sent[0]?.body as object).sort()).toEqual(questions.map((q) => q.key).sort());
    // The school is the deployment's: never asked, never sent (issue 28).
    expect(questions).toHaveLength(30);
    expect(sent[0]?.body).not.toHaveProperty("school");
  });
});

describe("the questionnaire in European Portuguese", () => {
  it("asks the contract's questions and answers in Portuguese, and names the first left on Save", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    fakeServer({ ...signedInAs(student), ...nothingSent });
    const { user } = renderPage(<StudentInput />, "/student-input");
    expect(await screen.findByRole("heading", { level: 1, name: "Dados do aluno" })).toBeTruthy();
    const none = new Intl.NumberFormat("pt-PT", { style: "percent" }).format(0);
    expect(
      screen.getByText(`0 de ${questions.length} perguntas respondidas (${none})`),
    ).toBeTruthy();
    const first = screen.getByLabelText("Sexo");
    expect(screen.getByRole("option", { name: "Feminino" })).toBeTruthy();
    expect(screen.getByRole("group", { name: /^Escola e família/ })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Guardar" }));
    expect(document.activeElement).toBe(first);
    expect(
      screen.getByText(`Responda a “Sexo” antes de guardar. Faltam ${questions.length} perguntas.`),
    ).toBeTruthy();
  });
});

// Where the form starts (issue 28): the newest answers sent, unless a draft is on this device.
describe("the questionnaire opens with what was sent", () => {
  /** A saved questionnaire: each question's last option, the second grade not known yet. */
  const savedAnswers = Object.fromEntries(
    questions.map((q) => [q.key, q.key === "G2" ? null : (q.options.at(-1)?.value ?? null)]),
  );
  const savedRecord = { ...savedAnswers, id: "s1", createdAt: "2026-03-01T10:00:00.000Z" };
  const selectValue = (label: string) => (screen.getByLabelText(label) as HTMLSelectElement).value;
  const labelOf = (key: string) => questions.find((q) => q.key === key)?.label ?? key;

  it("fills every question from the newest saved answers and says so", async () => {
    fakeServer({
      ...signedInAs(student),
      ...consentNotNeeded,
      "GET /api/students/mine": () => ({ body: { items: [savedRecord] } }),
      "GET /api/predictions/mine": () => ({ body: { items: [], latest: null } }),
    });
    renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    expect(
      screen.getByText(`${questions.length} of ${questions.length} questions answered (100%)`),
    ).toBeTruthy();
    expect(selectValue(labelOf("G2"))).toBe("not-known");
    expect(selectValue(labelOf("age"))).toBe("25");
    expect(screen.getByTestId("answers-source").textContent).toMatch(
      /^These are the answers you saved on .*2026.*\. Change what is new, then save or predict again\.$/,
    );
  });

  it("starts from the answers of the latest prediction when it is newer than the saved ones", async () => {
    const inputs = { ...savedAnswers, age: 16, G2: 12 };
    fakeServer({
      ...signedInAs(student),
      ...consentNotNeeded,
      "GET /api/students/mine": () => ({ body: { items: [savedRecord] } }),
      "GET /api/predictions/mine": () => ({
        body: {
          items: [{ id: "p1", createdAt: "2026-03-02T10:00:00.000Z", inputs }],
          latest: null,
        },
      }),
    });
    renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    expect(selectValue(labelOf("age"))).toBe("16");
    expect(selectValue(labelOf("G2"))).toBe("12");
    expect(screen.getByTestId("answers-source").textContent).toMatch(/answers you predicted from/);
  });

  it("keeps a draft typed on this device over the saved answers, and offers the saved ones", async () => {
    localStorage.setItem(
      `gradecast:questionnaire-draft:${student.uid}`,
      JSON.stringify({ age: "17" }),
    );
    fakeServer({
      ...signedInAs(student),
      ...consentNotNeeded,
      "GET /api/students/mine": () => ({ body: { items: [savedRecord] } }),
      "GET /api/predictions/mine": () => ({ body: { items: [], latest: null } }),
    });
    const { user } = renderPage(<StudentInput />, "/student-input");
    await screen.findByRole("progressbar");
    expect(selectValue(labelOf("age"))).toBe("17");
    expect(screen.getByText(`1 of ${questions.length} questions answered`, { exact: false }));
    await user.click(screen.getByRole("button", { name: /^Use the answers I saved on / }));
    expect(selectValue(labelOf("age"))).toBe("25");
    expect(
      screen.getByText(`${questions.length} of ${questions.length} questions answered (100%)`),
    ).toBeTruthy();
  });
});
