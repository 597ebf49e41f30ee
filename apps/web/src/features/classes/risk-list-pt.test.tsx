import type { RiskItem } from "@gradecast/contract/class-risk";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { columnHeaders, renderAs, testUser } from "../../test/render.tsx";
import { atRiskStudent, classRisk, recordInputs } from "../../test/risk-list-fixtures.ts";
import { RiskList } from "./risk-list.tsx";

// The class risk list in European Portuguese (issue 33): columns as the Portuguese CSV names
// them, the reasons in the questionnaire's words, scores with a decimal comma, days as
// 18/11/2026, the record's sources and the "differs" mark, and plurals.

const teacher = testUser("teacher", { locale: "pt-PT" });
const ana = atRiskStudent({
  reasons: [
    { feature: "G2", label: "Second-period grade", value: 5, effect: -3.1 },
    { feature: "other", label: "Other answers", value: null, effect: 0.45 },
  ],
  inputs: recordInputs(5),
  differs: true,
});
const rui: RiskItem = {
  ...ana,
  studentId: "rui",
  name: "Rui Lopes",
  email: "rui@example.org",
  answered: false,
  answeredAt: null,
  prediction: null,
  interval: null,
  noFinalScoreRisk: null,
  scoreIfSits: null,
  modelSetup: null,
  atRisk: false,
  reasons: null,
  inputs: null,
  differs: false,
  predictedAt: null,
};
const list = classRisk("Matemática 10.º B", { students: 2, answered: 1, atRisk: 1 }, [ana, rui]);

describe("the class risk list in Portuguese", () => {
  it("names its columns, reasons, sources, scores and days in pt-PT", async () => {
    renderAs(teacher, <RiskList classId="c1" />, "/classes/c1", { "/api/classes/c1/risk": list });
    const table = await screen.findByRole("table", {
      name: "Alunos da turma, ordenados por risco",
    });
    expect(screen.getByRole("heading", { name: "Lista de risco" })).toBeTruthy();
    expect(screen.getByTestId("risk-counts").textContent).toBe(
      "2 alunos · 1 em risco · 1 ainda não respondeu",
    );
    expect(screen.getByLabelText("Só alunos em risco (1)")).toBeTruthy();
    const headers = columnHeaders(table);
    expect(headers).toEqual([
      "Aluno",
      "Em risco",
      "Nota final prevista",
      "Intervalo de 80%",
      "Dados do registo escolar",
      "Risco de não fazer o exame final",
      "Modelo",
      "Respondido em",
      "Previsto em",
      "Razões",
      "Última nota de intervenção",
      "Acompanhamento",
    ]);
    const [anaRow, ruiRow] = within(table).getAllByTestId("risk-row");
    const cell = (row: HTMLElement, column: string) =>
      row.querySelectorAll<HTMLElement>("th, td")[headers.indexOf(column)]!.textContent;
    expect(cell(anaRow!, "Em risco")).toBe("Sim");
    expect(cell(anaRow!, "Nota final prevista")).toBe("6,5");
    expect(cell(anaRow!, "Intervalo de 80%")).toBe("4,0-9,5");
    expect(cell(anaRow!, "Modelo")).toBe("Fim do período, ambas as notas conhecidas");
    expect(cell(anaRow!, "Respondido em")).toBe("18/11/2026");
    expect(cell(anaRow!, "Razões")).toContain("Nota do 2.º período (G2) 5: -3,1");
    expect(cell(anaRow!, "Razões")).toContain("Outras respostas: +0,5");
    expect(cell(anaRow!, "Dados do registo escolar")).toContain("Faltas 12 escola");
    expect(cell(anaRow!, "Dados do registo escolar")).toContain("Reprovações desconhecido aluno");
    expect(within(anaRow!).getByText("Difere do registo")).toBeTruthy();
    expect(cell(ruiRow!, "Nota final prevista")).toBe("Ainda não respondeu");
    expect(screen.getByText(/Notas finais previstas do 1 aluno que respondeu/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Exportar CSV" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Adicionar nota sobre Ana Sousa" })).toBeTruthy();
  });
});
