import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import TeacherInput from "./teacher-input.tsx";

// The teacher's report form in European Portuguese (issue 33): the headings and labels, a number
// out of range said beside its field, the contract's one message for the form, the behaviours,
// the student picker's status, and the server's refusal of a student beside the student field.
const teacher = testUser("teacher", { locale: "pt-PT" });
const enrolled = { studentId: "s1", name: "Ana Lima", classId: "c1", className: "10.º B" };

const errorOf = (input: HTMLElement) =>
  document.getElementById(`${input.id}-error`)?.textContent ?? "";

async function openForm(post: () => { status: number; body: unknown }) {
  const server = fakeServer({
    ...signedInAs(teacher),
    "GET /api/classes/students": () => ({ body: { items: [enrolled] } }),
    "POST /api/reports": post,
  });
  const view = renderPage(<TeacherInput />, "/teacher-input");
  await screen.findByRole("form", { name: "Relatório do aluno" });
  return { server, ...view };
}

describe("the teacher report form in Portuguese", () => {
  it("says a number out of range beside its field and the form's one message on send", async () => {
    const { server, user } = await openForm(() => ({ status: 201, body: {} }));
    expect(screen.getByRole("heading", { level: 1, name: "Dados do professor" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Relatório do aluno" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Voltar ao painel" })).toBeTruthy();
    expect(screen.getByText("Um número inteiro de 0 a 100.")).toBeTruthy();
    expect(screen.getByText("Trabalhos entregues, de 0 a 6.")).toBeTruthy();

    const marks = screen.getByLabelText("Notas") as HTMLInputElement;
    await user.type(marks, "7.5");
    expect(marks.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(marks)).toBe("“7.5” não é um número inteiro de 0 a 100.");
    expect(marks.getAttribute("aria-describedby")).toContain(`${marks.id}-error`);

    const behavior = screen.getByLabelText("Comportamento") as HTMLSelectElement;
    expect([...behavior.options].map((o) => o.textContent)).toEqual([
      "Escolha o comportamento",
      "Excelente",
      "Bom",
      "Médio",
      "Precisa de melhorar",
      "Fraco",
    ]);
    // The value sent stays the contract's word.
    expect(behavior.options[4]?.value).toBe("Needs Improvement");

    await user.click(screen.getByRole("button", { name: "Submeter relatório" }));
    expect(await screen.findByText("Preencha todos os campos obrigatórios.")).toBeTruthy();
    for (const name of ["Curso", "Assiduidade", "Trabalhos", "Comportamento", "Apreciação"]) {
      expect(screen.getByLabelText(name).getAttribute("aria-invalid"), name).toBe("true");
    }
    expect(errorOf(marks)).toBe("“7.5” não é um número inteiro de 0 a 100.");
    expect(server.calls.some((c) => c.route === "POST /api/reports")).toBe(false);
  });

  it("links the student chosen from the list, and says the server's refusal beside the student", async () => {
    const { user } = await openForm(() => ({
      status: 403,
      body: {
        error: {
          code: "forbidden",
          message: "Só pode escrever relatórios sobre alunos inscritos nas suas turmas.",
        },
      },
    }));
    const student = screen.getByRole("combobox", { name: "Nome do aluno" });
    expect(
      screen.getByText(
        "Escreva um nome e escolha o aluno das suas turmas, ou escreva o nome de um aluno que ainda não está registado.",
      ),
    ).toBeTruthy();
    await user.type(student, "Ana");
    expect(
      await screen.findByText(/^Não está ligado a um aluno inscrito: só o autor/),
    ).toBeTruthy();
    const list = await screen.findByRole("listbox", { name: "Alunos das suas turmas" });
    fireEvent.mouseDown(await within(list).findByRole("option", { name: "Ana Lima (10.º B)" }));
    expect(
      await screen.findByText(
        "Ligado a Ana Lima, 10.º B: o aluno e os professores da turma vão ver este relatório.",
      ),
    ).toBeTruthy();

    await user.type(screen.getByLabelText("Curso"), "Matemática");
    await user.type(screen.getByLabelText("Notas"), "80");
    await user.type(screen.getByLabelText("Assiduidade"), "95");
    await user.type(screen.getByLabelText("Trabalhos"), "5");
    fireEvent.change(screen.getByLabelText("Comportamento"), { target: { value: "Good" } });
    await user.type(screen.getByLabelText("Apreciação"), "Trabalho regular.");
    await user.click(screen.getByRole("button", { name: "Submeter relatório" }));

    expect(
      await screen.findByText("Não foi possível submeter o relatório. Tente novamente."),
    ).toBeTruthy();
    expect(errorOf(student)).toBe(
      "Só pode escrever relatórios sobre alunos inscritos nas suas turmas.",
    );
    expect(student.getAttribute("aria-invalid")).toBe("true");
  });
});
