import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage } from "../test/render.tsx";
import Report from "./report.tsx";

// The analytics report's page in European Portuguese (issue 33): the language of this device
// (the report is opened by its link, with no session); the report itself is tested in
// features/analytics/analytics-pt.test.tsx.

describe("the report page in Portuguese", () => {
  it("asks for a link with a token", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    renderPage(<Report />, "/report");
    expect(await screen.findByRole("heading", { name: "Relatório de análise" })).toBeTruthy();
    expect(screen.getByText("Este relatório precisa de uma ligação com um token.")).toBeTruthy();
    expect(screen.getByText("Abra-o a partir do Painel do aluno.")).toBeTruthy();
  });

  it("titles the school's report and dates its figures", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    fakeServer({
      "GET /api/analytics/report": () => ({
        body: {
          scope: "staff",
          generatedAt: "2026-09-01T10:00:00.000Z",
          totals: { reports: 0, students: 0, predictions: 0 },
          marks: [],
          attendanceVsMarks: { points: [], fit: null },
          courses: [],
          otherCourses: 0,
          behavior: [],
          bands: [],
          atRisk: { total: 0, students: [] },
          importance: { modelVersion: null, factors: [] },
        },
      }),
    });
    renderPage(<Report />, "/report?token=t");
    expect(
      await screen.findByRole("heading", { name: "Relatório de análise da escola" }),
    ).toBeTruthy();
    expect(screen.getByText(/^Valores a 01\/09\/2026, \d\d:\d\d\.$/)).toBeTruthy();
    expect(screen.getByText("Nenhum aluno em risco")).toBeTruthy();
  });
});
