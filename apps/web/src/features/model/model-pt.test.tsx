import type { ModelState } from "@gradecast/contract/model-lifecycle";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { cardRow, modelFixtures, trainRoute } from "./model-fixtures.ts";
import { ModelView } from "./model-view.tsx";

// The admin screen "Model" in European Portuguese (issue 33): the cards and buttons, the model
// card's figures with a decimal comma and coverage in percent, a candidate's comparison and the
// gate's verdict and its reasons (worded from the report's figures), training's progress.

const admin = testUser("admin", { locale: "pt-PT" });

// Two setups' weights, for the Portuguese decimal comma in "peso 1,5".
const { version, shipped, modelState, trainingAfterPromotion } = modelFixtures([
  { setup: "A", weight: 2, rows: 60 },
  { setup: "B", weight: 1.5, rows: 60 },
]);

const refusedGate = {
  promotable: false,
  reasons: [
    "por: 30 outcomes, fewer than the 50 a candidate needs.",
    "Setup A: scoreIfSits RMSE 1.2 against 0.9 for the model in use (worse).",
    "Interval coverage 55 % for setup A, mat (40 rows), outside 70-90 % beyond its sampling error.",
  ],
  minOutcomes: 50,
  outcomes: { mat: 60, por: 30 },
  comparison: [
    {
      setup: "A" as const,
      measure: "scoreIfSits RMSE",
      rows: 60,
      current: 0.9,
      candidate: 1.2,
      difference: 0.3,
      lower: 0.2,
      upper: 0.4,
      verdict: "worse" as const,
    },
  ],
  coverage: [{ group: "setup A, mat", rows: 40, coverage: 0.55, ok: false }],
  checks: { monotone: true, additivity: true, failures: [] },
};

const state = (over: Partial<ModelState> = {}): ModelState =>
  modelState({
    card: [cardRow(0.93, 0.8)],
    versions: [version({ id: "cand-refused", state: "refused", gate: refusedGate }), shipped],
    ...over,
  });

describe("the Model screen in Portuguese", () => {
  it("shows the figures with a decimal comma, a refused candidate, and starts a training", async () => {
    fakeServer({
      ...signedInAs(admin),
      "GET /api/admin/model": () => ({ body: state() }),
      ...trainRoute,
    });
    const { user } = renderPage(<ModelView />, "/admin/model");
    expect(await screen.findByRole("heading", { name: "Em uso" })).toBeTruthy();
    expect(screen.getByText(/o modelo que veio com o Gradecast/)).toBeTruthy();
    const card = screen.getByRole("table", { name: "Os valores da ficha do modelo" });
    expect(within(card).getByRole("columnheader", { name: "Cobertura" })).toBeTruthy();
    expect(within(card).getByText("Matemática")).toBeTruthy();
    expect(within(card).getByText("0,930")).toBeTruthy();
    expect(within(card).getByText("0,0540")).toBeTruthy();
    expect(within(card).getByText(/^80\s%$/)).toBeTruthy();

    expect(screen.getByRole("heading", { name: "Os resultados desta escola" })).toBeTruthy();
    expect(screen.getByText(/pelo menos 50 resultados em cada disciplina/)).toBeTruthy();

    const refused = screen.getByRole("region", { name: "Candidato cand-refused" });
    expect(
      within(refused).getByText(
        "Treinado em 28/11/2026, 06:00 com 120 linhas de resultados; configuração A peso 2, configuração B peso 1,5.",
      ),
    ).toBeTruthy();
    expect(within(refused).getByText("0,2000 a 0,4000")).toBeTruthy();
    expect(within(refused).getByText("pior")).toBeTruthy();
    expect(within(refused).getByText("O teste recusa este candidato")).toBeTruthy();
    const reasons = within(refused)
      .getAllByRole("listitem")
      // Percentages keep their number and sign together (a no-break space).
      .map((li) => li.textContent?.replaceAll("\u00a0", " "));
    expect(reasons).toEqual([
      "Português: 30 resultados, menos do que os 50 de que um candidato precisa.",
      "Configuração A: scoreIfSits RMSE 1,2 contra 0,9 do modelo em uso (pior).",
      "Cobertura do intervalo de 55 % em setup A, mat (40 linhas), fora de 70 % a 90 % para além do erro de amostragem.",
    ]);
    expect(within(refused).queryByRole("button", { name: "Pôr este candidato em uso" })).toBeNull();
    expect(
      screen.getByText("Nenhuma: a versão em uso é a única que alguma vez esteve em uso."),
    ).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Treinar um candidato" }));
    expect(
      await screen.findByText("O treino começou. O seu progresso aparece abaixo."),
    ).toBeTruthy();
  });

  it("shows a running training's progress and an earlier version to roll back to", async () => {
    fakeServer({
      ...signedInAs(admin),
      "GET /api/admin/model": () => ({
        body: state(trainingAfterPromotion),
      }),
    });
    renderPage(<ModelView />, "/admin/model");
    expect(await screen.findByText("A treinar… 4 de 21 passos")).toBeTruthy();
    expect(
      screen.getByText(/treinado com os resultados desta escola, em uso desde 28\/11\/2026/),
    ).toBeTruthy();
    expect(screen.getByRole("progressbar", { name: "Progresso do treino" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Versões anteriores" })).toBeTruthy();
    expect(screen.getByText("(veio com o Gradecast)")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Voltar a esta versão" })).toBeTruthy();
    expect(
      screen.getByRole("button", { name: "Treinar um candidato" }).getAttribute("aria-disabled"),
    ).toBe("true");
    expect(
      screen.getByText("Ainda não há candidatos. Treine um quando houver resultados registados."),
    ).toBeTruthy();
  });
});
