import type { ClassView } from "@gradecast/contract/classes";
import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { studentSources } from "@gradecast/contract/school-record";
import { screen, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import Prediction from "./prediction.tsx";
import StudentDashboard from "./student-dashboard.tsx";

// The student's prediction and dashboard in European Portuguese (issue 33): a student whose
// account speaks pt-PT sees the score and its range with a decimal comma, the reasons, which
// values came from the school record, and the report's frame in Portuguese.

const student = testUser("student", { locale: "pt-PT" });
// The server writes SPEC's band message in English whatever the language: the page says it in its own.

const latest = {
  prediction: 12.54,
  modelSetup: "A",
  scoreIfSits: 13.1,
  noFinalScoreRisk: 0.04,
  combination: "",
  raw: 12.54,
  band: "good",
  message: "Good effort!",
  interval: { low: 10.2, high: 14.8, level: 0.8 },
  baseValue: 10.3,
  contributions: [
    {
      feature: "G2",
      label: "Second period grade (G2)",
      value: 13,
      effect: 1.62,
      actionable: false,
    },
    { feature: "absences", label: "School absences", value: 12, effect: -0.48, actionable: true },
  ],
  extrapolation: false,
  extrapolationFeatures: [],
  modelVersion: "test",
  inputs: { G1: 12, G2: 13, absences: 12, failures: 0, studytime: 2, goout: 3 },
  sources: { ...studentSources, absences: "school" },
  classId: "c-mat",
  id: "p1",
  createdAt: "2026-11-20T10:05:00.000Z",
} as unknown as PredictionResult;

const history = {
  latest,
  items: [
    {
      id: "p1",
      createdAt: "2026-11-20T10:05:00.000Z",
      prediction: 12.54,
      band: "good",
      message: "Good effort!",
      interval: { low: 10.2, high: 14.8 },
    },
  ],
} as unknown as PredictionHistory;

const maths = { id: "c-mat", name: "Matemática 10.º B", subject: "mat", year: "2026/27" };

describe("the student's prediction in Portuguese", () => {
  test("the score, its range, the reasons and the school record's marks", async () => {
    fakeServer({
      ...signedInAs(student),
      "GET /api/predictions/mine": () => ({ body: history }),
      "GET /api/classes": () => ({ body: { items: [maths as ClassView] } }),
      "GET /api/me/sharing": () => ({
        body: { shareExplanation: false, changedAt: null, sharedWith: [], notSharedWith: [] },
      }),
      "GET /api/predictions/p1/contest": () => ({ status: 404, body: {} }),
    });
    renderPage(<Prediction />, "/prediction");

    expect((await screen.findByTestId("prediction-score")).textContent).toBe("12,5");
    expect(screen.getByTestId("prediction-message").textContent).toBe("Bom esforço!");
    expect(screen.getByRole("heading", { name: "Previsão" })).toBeTruthy();
    expect(
      screen
        .getByText(/Intervalo provável a 80 %/)
        .textContent?.startsWith("Intervalo provável a 80 %: 10,2 a 14,8"),
    ).toBe(true);
    expect(screen.getByText("Prevista em 20/11/2026, 10:05.", { exact: false })).toBeTruthy();

    // The reasons: what moved the prediction, in the contract's Portuguese labels.
    const factors = screen.getByRole("figure", { name: "O que fez mudar a sua previsão" });
    expect(within(factors).getByText(/Partindo da média do modelo, 10,3/)).toBeTruthy();
    expect(
      within(factors).getByRole("rowheader", { name: "Nota do 2.º período (G2)" }),
    ).toBeTruthy();
    expect(within(factors).getByText("+1,62")).toBeTruthy();
    expect(within(factors).getByText("−0,48")).toBeTruthy();

    // One value from the school record: the singular, and the mark beside it.
    const source = screen
      .getByRole("heading", { name: "De onde vêm estes valores" })
      .closest(".card") as HTMLElement;
    expect(within(source).getByText(/O registo da sua escola tem este valor,/)).toBeTruthy();
    expect(within(source).getAllByText("Do registo da sua escola").length).toBe(1);

    expect(screen.getByRole("heading", { name: "E se?" })).toBeTruthy();
    expect(
      screen.getByText("Partilhar a minha explicação completa com os meus professores"),
    ).toBeTruthy();
  });

  test("the student dashboard", async () => {
    fakeServer({
      ...signedInAs(student),
      "GET /api/analytics/embed": () => ({
        body: { url: "https://reports.example.org/r?token=t", external: true },
      }),
      "GET /api/classes": () => ({ body: { items: [] } }),
      "GET /api/reports/mine": () => ({ body: { items: [] } }),
    });
    renderPage(<StudentDashboard />, "/student-dashboard");
    expect(await screen.findByRole("heading", { name: "Painel dos alunos" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Voltar" })).toBeTruthy();
    expect(await screen.findByTitle("Relatório de análise")).toBeTruthy();
    expect(
      screen.getByText(
        /Este relatório é fornecido pela sua escola a partir de reports\.example\.org/,
      ),
    ).toBeTruthy();
    expect(
      screen.getByRole("link", {
        name: "Abra o relatório numa página própria (abre num novo separador)",
      }),
    ).toBeTruthy();
  });
});
