import type { LinkedReport } from "@gradecast/contract/report-students";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { columnHeaders, fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import TeacherDashboard from "./teacher-dashboard.tsx";

// The teacher dashboard in European Portuguese (issue 33): the headings, how many reports are
// shown (a plural), the table's words and days (28/11/2026), a report's details, the edit
// dialog with a number's error beside its field, and the confirmation before deleting.
const teacher = testUser("teacher", { locale: "pt-PT" });

const report = (id: string, studentName: string, day: string): LinkedReport => ({
  id,
  studentName,
  course: "Matemática",
  marks: 80,
  attendance: 95,
  assignments: 5,
  behavior: "Good",
  feedback: "Trabalho regular.",
  authorId: teacher.uid,
  authorName: "Prof.ª Reis",
  createdAt: `${day}T10:00:00.000Z`,
  updatedAt: `${day}T10:00:00.000Z`,
  studentId: null,
  classId: null,
});
const first = report("r1", "Ana Lima", "2026-11-28");
const second = report("r2", "Rui Costa", "2026-11-20");

function openDashboard() {
  const server = fakeServer({
    ...signedInAs(teacher),
    "GET /api/reports": ({ url }) => ({
      body: url.searchParams.get("cursor")
        ? { items: [second], nextCursor: null }
        : { items: [first], nextCursor: "next" },
    }),
    "PATCH /api/reports/r1": ({ body }) => ({
      body: { report: { ...first, ...(body as object), assignments: 6 } },
    }),
  });
  const view = renderPage(<TeacherDashboard />, "/teacher-dashboard");
  return { server, ...view };
}

describe("the teacher dashboard in Portuguese", () => {
  it("counts the reports shown, writes the table's words and days in Portuguese", async () => {
    const { user } = openDashboard();
    expect(
      await screen.findByRole("heading", { level: 1, name: "Painel do professor" }),
    ).toBeTruthy();
    expect(await screen.findByText("1 relatório mostrado, há mais disponíveis.")).toBeTruthy();
    const table = screen.getByRole("table", {
      name: "Relatórios dos alunos, ordenados por mais recentes primeiro",
    });
    expect(columnHeaders(table)).toEqual([
      "Aluno",
      "Curso",
      "Notas (em 100)",
      "Assiduidade",
      "Trabalhos",
      "Comportamento",
      "Professor",
      "Data",
      "Ações",
    ]);
    const row = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getByText("28/11/2026")).toBeTruthy();
    expect(within(row).getByText("Bom")).toBeTruthy();
    expect(within(row).getByText("95%")).toBeTruthy();
    expect(screen.getByLabelText("Ordenar por")).toBeTruthy();
    expect(screen.getByRole("option", { name: "Nome do aluno (A a Z)" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Carregar mais" }));
    expect(await screen.findByText("2 relatórios mostrados.")).toBeTruthy();
    expect(screen.getByText("20/11/2026")).toBeTruthy();
  });

  it("shows a report's details, says a number's error beside it in the edit dialog, and asks before deleting", async () => {
    const { server, user } = openDashboard();
    await user.click(await screen.findByRole("button", { name: "Ana Lima" }));
    const details = await screen.findByRole("dialog", { name: "Relatório: Ana Lima" });
    expect(within(details).getByText("80 em 100")).toBeTruthy();
    expect(within(details).getByText("5 em 6")).toBeTruthy();
    expect(within(details).getAllByText(/^28\/11\/2026, \d\d:\d\d$/)).toHaveLength(2);
    expect(within(details).getByText("Última alteração")).toBeTruthy();
    expect(within(details).getByRole("button", { name: "Ligar a um aluno" })).toBeTruthy();
    await user.click(within(details).getByRole("button", { name: "Editar" }));

    const edit = await screen.findByRole("dialog", { name: "Editar relatório: Ana Lima" });
    const assignments = within(edit).getByLabelText("Trabalhos") as HTMLInputElement;
    await user.clear(assignments);
    await user.type(assignments, "7");
    expect(document.getElementById(`${assignments.id}-error`)?.textContent).toBe(
      "“7” não é um número inteiro de 0 a 6.",
    );
    await user.click(within(edit).getByRole("button", { name: "Guardar alterações" }));
    expect(
      await within(edit).findByText(
        "As notas e a assiduidade têm de estar entre 0 e 100. Os trabalhos têm de estar entre 0 e 6.",
      ),
    ).toBeTruthy();
    expect(server.calls.some((c) => c.route === "PATCH /api/reports/r1")).toBe(false);
    await user.clear(assignments);
    await user.type(assignments, "6");
    await user.click(within(edit).getByRole("button", { name: "Guardar alterações" }));
    expect(await screen.findByText("O relatório sobre Ana Lima foi atualizado.")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Eliminar o relatório sobre Ana Lima" }));
    const confirm = await screen.findByRole("dialog", { name: "Eliminar este relatório?" });
    expect(confirm.textContent).toContain(
      "O relatório sobre Ana Lima (Matemática) vai ser eliminado. Não é possível anular.",
    );
    expect(within(confirm).getByRole("button", { name: "Eliminar relatório" })).toBeTruthy();
  });
});
