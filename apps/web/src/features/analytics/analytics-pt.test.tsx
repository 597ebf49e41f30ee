import { analyticsMessages, type StudentReport } from "@gradecast/contract/analytics";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import ptApp from "../../i18n/catalogue-pt-PT-app.ts";
import { createIntl } from "../../i18n/intl.tsx";
import type { Messages } from "../../i18n/types.ts";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import type { ChartSize } from "./chart-fit.ts";
import { estimateTextWidth } from "./chart-fit.ts";
import { reportText } from "./report-text.ts";
import { staffReport } from "./staff-report.fixture.ts";
import { buildCharts, StaffReportView } from "./staff-report.tsx";
import { StudentReportView } from "./student-report.tsx";

// The analytics report in European Portuguese (issue 33): the school's and the student's report,
// their charts' titles, axes and tables, figures with a decimal comma and plurals.

const teacher = testUser("teacher", { locale: "pt-PT" });
const student = testUser("student", { locale: "pt-PT" });

const school = staffReport({
  attendanceVsMarks: {
    points: [
      { attendance: 90, marks: 80.25, count: 3 },
      { attendance: 50, marks: 35, count: 1 },
    ],
    fit: { slope: 0.912, intercept: -4.5, r: 0.87 },
  },
  courses: [
    { course: "Matemática", averageMarks: 71.5, reports: 60 },
    { course: "História", averageMarks: 64, reports: 40 },
  ],
  otherCourses: 1,
  atRisk: {
    total: 2,
    students: [
      {
        name: "Ana Silva",
        reasons: [
          { kind: "attendance", course: "Matemática", value: 62.5 },
          { kind: "predicted", value: 8.25 },
        ],
      },
      { name: "Rui Costa", reasons: [{ kind: "marks", course: "História", value: 35 }] },
    ],
  },
});

interface Drawn {
  xAxis: { name: string; data?: string[]; axisLabel?: { formatter?: (v: number) => string } };
  yAxis: { name: string; data?: string[]; axisLabel?: { formatter?: (v: number) => string } };
  series: { name: string }[];
  tooltip: { valueFormatter?: (v: unknown) => string };
}
const desktop: ChartSize = { width: 551, height: 380, measure: estimateTextWidth };
const drawn = (option: unknown) => (option as (s: ChartSize) => Drawn)(desktop);

describe("the school's report in Portuguese", () => {
  it("shows the totals, the charts' titles and tables, and the students at risk", async () => {
    fakeServer(signedInAs(teacher));
    renderPage(<StaffReportView report={school} />, "/report");
    expect(
      await screen.findByRole("heading", { name: "Distribuição das classificações" }),
    ).toBeTruthy();
    const totals = screen.getByRole("region", { name: "Totais" });
    expect(within(totals).getByText("Alunos com relatório")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Classificação média por curso" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "O que mais pesa na nota prevista" })).toBeTruthy();
    expect(screen.getAllByText("Mostrar os dados numa tabela").length).toBeGreaterThan(0);

    // Figures with a decimal comma, in the summaries and the tables.
    expect(
      screen.getByText(
        "Classificação média dos 2 cursos com mais relatórios; a mais alta é a de Matemática (71,5). 1 outro curso não é mostrado.",
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(/classificação = 0,91 × assiduidade − 4,5, correlação r = 0,87\./),
    ).toBeTruthy();
    const courses = screen.getByRole("table", { name: "Classificação média por curso" });
    expect(within(courses).getByRole("columnheader", { name: "Classificação média" })).toBeTruthy();
    expect(within(courses).getByRole("cell", { name: "71,5" })).toBeTruthy();
    const scatter = screen.getByRole("table", { name: "Assiduidade face à classificação" });
    expect(within(scatter).getByRole("cell", { name: "80,3" })).toBeTruthy();
    expect(
      within(scatter).getByRole("cell", { name: "declive 0,912, ordenada na origem -4,5" }),
    ).toBeTruthy();
    const behavior = screen.getByRole("table", { name: "Comportamento" });
    expect(within(behavior).getByRole("cell", { name: "Precisa de melhorar" })).toBeTruthy();
    const bands = screen.getByRole("table", { name: "Notas previstas por escalão" });
    expect(
      within(bands).getByRole("cell", { name: "Bom esforço! (de 7 a menos de 14)" }),
    ).toBeTruthy();
    const factors = screen.getByRole("table", { name: "O que mais pesa na nota prevista" });
    expect(within(factors).getByRole("cell", { name: "Nota do 2.º período (G2)" })).toBeTruthy();
    expect(within(factors).getByRole("cell", { name: "2,4" })).toBeTruthy();

    // The students at risk: a plural, and the reasons in words with commas.
    expect(screen.getByRole("heading", { name: "Alunos em risco" })).toBeTruthy();
    expect(
      screen.getByText(
        "2 alunos cumprem pelo menos uma regra de risco. Os relatórios e as previsões são associados pelo nome do aluno.",
      ),
    ).toBeTruthy();
    expect(screen.getByText("Assiduidade 62,5 % em Matemática (abaixo de 75 %)")).toBeTruthy();
    expect(screen.getByText("Nota prevista 8,3 (abaixo de 10)")).toBeTruthy();
    expect(screen.getByText("Classificação 35 em História (abaixo de 40)")).toBeTruthy();
  });

  it("names the charts' axes and series in Portuguese and writes their numbers with a comma", () => {
    const intl = createIntl("pt-PT", ptApp as Messages);
    const charts = buildCharts(school, reportText(intl));
    const courses = drawn(charts.courses.option);
    expect(courses.xAxis.name).toBe("Classificação média");
    expect(courses.yAxis.name).toBe("Curso");
    expect(courses.xAxis.axisLabel?.formatter?.(62.5)).toBe("62,5");
    expect(courses.tooltip.valueFormatter?.(71.5)).toBe("71,5");
    const marks = drawn(charts.marks.option);
    expect(marks.xAxis.name).toBe("Classificação");
    expect(marks.yAxis.name).toBe("Relatórios");
    expect(marks.series[0]?.name).toBe("Relatórios");
    const behavior = drawn(charts.behavior.option);
    expect(behavior.xAxis.data).toContain("Excelente");
    const bands = drawn(charts.bands.option);
    expect(bands.xAxis.data).toEqual([
      "Precisa de melhorar! (abaixo de 7)",
      "Bom esforço! (de 7 a menos de 14)",
      "Parabéns! (14 ou mais)",
    ]);
    expect(bands.yAxis.name).toBe("Alunos");
    const factors = drawn(charts.importance.option);
    expect(factors.yAxis.data).toEqual(["Nota do 2.º período (G2)"]);
    const scatter = charts.scatter.option as unknown as Drawn;
    expect(scatter.xAxis.name).toBe("Assiduidade (%)");
    expect(scatter.series.map((s) => s.name)).toEqual(["Relatórios", "Reta ajustada"]);
  });
});

const mine: StudentReport = {
  scope: "student",
  generatedAt: "2026-11-23T15:42:00.000Z",
  name: "Ana Silva",
  predictions: [
    { at: "2026-10-05T09:00:00.000Z", g1: 9, g2: null, score: 9.25, low: 7.5, high: 11 },
    { at: "2026-11-20T09:00:00.000Z", g1: 9, g2: 11, score: 12.5, low: 10.75, high: 14.25 },
  ],
  latest: {
    at: "2026-11-20T09:00:00.000Z",
    g1: 9,
    g2: 11,
    prediction: 12.5,
    band: "good",
    message: "Good effort!",
  },
  cohort: {
    g1: { bins: null, note: analyticsMessages.smallCohort },
    g2: { bins: null, note: analyticsMessages.smallCohort },
    prediction: {
      bins: [0, 0, 5, 6, null, 9, 12, 8, 5, 5].map((count, i) => ({
        from: 2 * i,
        to: 2 * i + 2,
        count,
      })),
      note: analyticsMessages.smallGroup,
    },
  },
} as StudentReport;

describe("the student's report in Portuguese", () => {
  it("says where the student stands, with the score's comma, the band and the cohorts", async () => {
    fakeServer(signedInAs(student));
    renderPage(<StudentReportView report={mine} />, "/report");
    expect(await screen.findByRole("heading", { name: "Onde se situa, Ana Silva" })).toBeTruthy();
    const latest = screen.getByRole("heading", { name: "Onde se situa, Ana Silva" }).parentElement!;
    expect(within(latest).getByText("12,5 em 20")).toBeTruthy();
    expect(within(latest).getByText("Bom esforço!")).toBeTruthy();
    expect(within(latest).getByText("(de 7 a menos de 14)")).toBeTruthy();
    expect(
      within(latest).getByText(/A 20\/11\/2026, \d\d:\d\d, a sua nota final prevista/),
    ).toBeTruthy();
    const facts = screen.getByText("11 em 20").closest("dl")!;
    expect(facts.getAttribute("aria-label")).toBe("As respostas em que se baseou");
    expect(within(facts).getByText("11 em 20")).toBeTruthy();
    expect(within(facts).getByText("2 (as anteriores abaixo)")).toBeTruthy();

    expect(
      screen.getByRole("heading", { name: "As suas previsões ao longo do tempo" }),
    ).toBeTruthy();
    expect(
      screen.getByText("2 previsões de 05/10/2026 a 20/11/2026: de 9,3 a 12,5 em 20."),
    ).toBeTruthy();
    const history = screen.getByRole("table", { name: "As suas previsões ao longo do tempo" });
    expect(within(history).getByRole("cell", { name: "10,8 a 14,3" })).toBeTruthy();
    expect(within(history).getByRole("cell", { name: "não indicada" })).toBeTruthy();

    // A cohort too small is explained in Portuguese; a withheld bin counted in the singular.
    expect(screen.getAllByText("Ainda não há alunos suficientes")).toHaveLength(2);
    expect(
      screen.getAllByText(
        "Menos de 5 alunos têm dados por agora, por isso o grupo não é mostrado.",
      ),
    ).toHaveLength(2);
    expect(
      screen.getByText(
        "Outros alunos em intervalos de 2 valores; está em 12–13. Os grupos com menos de 5 alunos não são mostrados, para proteger a sua privacidade. 1 intervalo fica em branco.",
      ),
    ).toBeTruthy();
    const cohort = screen.getByRole("table", { name: "A sua previsão entre os outros alunos" });
    expect(within(cohort).getByRole("cell", { name: "12–13 (o seu)" })).toBeTruthy();
    expect(within(cohort).getByRole("cell", { name: "menos de 5 (não mostrado)" })).toBeTruthy();
  });
});
