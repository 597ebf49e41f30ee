import type { MyReport } from "@gradecast/contract/report-students";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAs, testUser } from "../../test/render.tsx";
import { MyReports } from "./my-reports.tsx";

// A student's "Reports about you" in European Portuguese (issue 33): who wrote each report, in
// which class and on which day (28/11/2026), its figures and behaviour, and the empty list.
const student = testUser("student", { locale: "pt-PT" });
const mine = (id: string, className: string | null): MyReport => ({
  id,
  studentName: "Ana Lima",
  course: "Matemática",
  marks: 87,
  attendance: 92,
  assignments: 5,
  behavior: "Needs Improvement",
  feedback: "Trabalho regular.",
  teacherName: "Prof.ª Reis",
  className,
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt: "2026-11-28T10:00:00.000Z",
});

describe("a student's reports in Portuguese", () => {
  it("says who wrote each one, where and when, with its figures", async () => {
    renderAs(student, <MyReports />, "/dashboard", {
      "/api/me/reports": { items: [mine("m1", "10.º B"), mine("m2", null)], nextCursor: "next" },
    });
    expect(await screen.findByRole("heading", { name: "Relatórios sobre si" })).toBeTruthy();
    const [first, second] = await screen.findAllByRole("listitem");
    expect(
      within(first as HTMLElement).getByText(
        (_, el) =>
          el?.tagName === "P" && el.textContent === "Por Prof.ª Reis, 10.º B, em 28/11/2026",
      ),
    ).toBeTruthy();
    expect(
      within(second as HTMLElement).getByText(
        (_, el) => el?.tagName === "P" && el.textContent === "Por Prof.ª Reis em 28/11/2026",
      ),
    ).toBeTruthy();
    const figures = within(first as HTMLElement);
    expect(figures.getByText("87 em 100")).toBeTruthy();
    expect(figures.getByText("92%")).toBeTruthy();
    expect(figures.getByText("5 em 6")).toBeTruthy();
    expect(figures.getByText("Precisa de melhorar")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Mostrar relatórios mais antigos" })).toBeTruthy();
  });

  it("says when there are none yet", async () => {
    renderAs(student, <MyReports />, "/dashboard", {
      "/api/me/reports": { items: [], nextCursor: null },
    });
    expect(await screen.findByText("Ainda não há relatórios sobre si.")).toBeTruthy();
  });
});
