import type { Evaluation } from "@gradecast/contract/evaluation";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAs, testUser } from "../../test/render.tsx";
import { evaluationOf, noOutcomes } from "./evaluation-fixtures.ts";
import { EvaluationView } from "./evaluation-view.tsx";

// How the model did (issue 29) in European Portuguese (issue 33): the setups, measures and groups
// in the catalogue's words, figures with a decimal comma (1,40) and percents as 80 %, the
// sentence beside a worse figure written from its figures, plurals, and the empty state.

const teacher = testUser("teacher", { locale: "pt-PT" });

const evaluation = evaluationOf(["Matemática 10.º B", "Português 11.º A"], {
  // The server writes its sentence in English; the page writes its own.
  worseNote: "Typical error of the score (RMSE): 1.40 here against 0.83 expected.",
  femaleRmse: 2.356,
});

describe("how the model did, in Portuguese", () => {
  it("shows the figures with decimal commas, the worse one in a sentence, and the groups", async () => {
    renderAs(teacher, <EvaluationView viewer="teacher" />, "/evaluation", {
      "/api/evaluation": evaluation,
    });
    const table = await screen.findByRole("table", {
      name: "Depois da nota do 2.º período (configuração A): valores",
    });
    expect(
      screen.getByRole("heading", { name: "Depois da nota do 2.º período (configuração A)" }),
    ).toBeTruthy();
    expect(within(table).getByRole("columnheader", { name: "Intervalo de 95 %" })).toBeTruthy();
    const rmse = within(table).getByRole("row", { name: /Erro típico da nota \(RMSE\)/ });
    expect(within(rmse).getByText("1,40")).toBeTruthy();
    expect(within(rmse).getByText("0,83")).toBeTruthy();
    expect(within(rmse).getByText("1,26 a 1,54")).toBeTruthy();
    expect(within(rmse).getByText("Pior do que o esperado")).toBeTruthy();
    expect(
      screen.getByText(
        "Erro típico da nota (RMSE): 1,40 aqui contra 0,83 esperado. É pior do que o valor da ficha do modelo por mais do que o acaso explica.",
      ),
    ).toBeTruthy();
    const coverage = within(table).getByRole("row", { name: /O intervalo acertou na nota final/ });
    expect(within(coverage).getByText("80 %")).toBeTruthy();
    expect(within(coverage).getByText("84 %")).toBeTruthy();
    expect(within(table).getByRole("row", { name: /pontuação de Brier/ })).toBeTruthy();

    // Counts in sentences, with plurals.
    expect(
      screen.getByText(/^24 alunos com nota final ou "não fez o exame" registado\./),
    ).toBeTruthy();
    expect(screen.getByText(/1000 reamostragens bootstrap/)).toBeTruthy();
    expect(screen.getByText("24 alunos (22 fizeram o exame).")).toBeTruthy();

    // Groups by kind, the server's words for a sex translated, the error with a comma.
    const groups = screen.getByRole("table", {
      name: "Depois da nota do 2.º período (configuração A): por grupo",
    });
    expect(within(groups).getByRole("row", { name: /Turma: Matemática 10\.º B/ })).toBeTruthy();
    const female = within(groups).getByRole("row", { name: /Sexo: Feminino/ });
    expect(within(female).getByText("2,36")).toBeTruthy();
    expect(within(female).getByText("85 %")).toBeTruthy();
    expect(screen.getByText("2 grupos com menos de 5 alunos não são mostrados.")).toBeTruthy();

    // The calibration charts' titles and their tables.
    expect(
      screen.getByRole("heading", {
        name: "Risco de não fazer o exame: previsto face ao que aconteceu",
      }),
    ).toBeTruthy();
    expect(screen.getAllByText("Mostrar os dados numa tabela")).toHaveLength(2);
    expect(screen.getByRole("cell", { name: "11,5" })).toBeTruthy();

    expect(screen.getByRole("button", { name: "Descarregar CSV" })).toBeTruthy();
    expect(screen.getByLabelText("Turmas")).toBeTruthy();
    expect(screen.getByRole("option", { name: "Todas as minhas turmas" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "Português 11.º A (Português)" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "O que significam as medidas" })).toBeTruthy();
    expect(screen.getByText(/1 é perfeito, 0,5 é ao acaso/)).toBeTruthy();
  });

  it("says how to get figures when no outcome is recorded yet, and counts one hidden group", async () => {
    renderAs(
      testUser("admin", { locale: "pt-PT" }),
      <EvaluationView viewer="admin" />,
      "/evaluation",
      { "/api/evaluation": noOutcomes(evaluation) },
    );
    expect(await screen.findByText("Ainda não há resultados")).toBeTruthy();
    expect(screen.getByText(/registe as notas finais na pauta da turma/)).toBeTruthy();
    expect(screen.getByRole("option", { name: "Toda a escola" })).toBeTruthy();
  });

  it("writes one hidden group in the singular", async () => {
    const [setup] = evaluation.setups;
    renderAs(teacher, <EvaluationView viewer="teacher" />, "/evaluation", {
      "/api/evaluation": {
        ...evaluation,
        setups: [{ ...setup!, hiddenGroups: 1 }],
      } satisfies Evaluation,
    });
    expect(await screen.findByText("1 grupo com menos de 5 alunos não é mostrado.")).toBeTruthy();
  });
});
