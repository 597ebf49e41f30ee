import type { RecordImport as ImportAnswer } from "@gradecast/contract/school-record";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { listedLines, previewFile, renderRefusingImport } from "../../test/import-refusal.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { RecordImport } from "./record-import.tsx";

// The gradebook's CSV import in European Portuguese (issue 33): the columns keep their names
// (they are the file's format), the sentences around them, the preview's changes and counts are
// Portuguese; the server's reasons for refused lines are shown as it gives them.

const teacher = testUser("teacher", { locale: "pt-PT" });
const csv = "email;G1;sat\namy@example.org;8;sim\nben@example.org;14;\n";
const file = () => new File([csv], "pauta.csv", { type: "text/csv" });

function answer(dryRun: boolean, unchanged: number): ImportAnswer {
  const who = { studentId: "amy", name: "Amy Struggling", email: "amy@example.org", line: 2 };
  return {
    dryRun,
    rows: 2,
    changes: [
      { ...who, field: "G1", from: 6, to: 8 },
      { ...who, field: "sat", from: null, to: true },
    ],
    unchanged,
    message: dryRun ? "2 valores iriam mudar." : "2 valores foram guardados.",
  };
}

describe("the gradebook's CSV import in Portuguese", () => {
  it("explains the format, previews the changes with plurals, then imports", async () => {
    let unchanged = 1;
    fakeServer({
      ...signedInAs(teacher),
      "POST /api/classes/c1/record/import": ({ url }) => ({
        body: answer(url.searchParams.get("dryRun") === "true", unchanged),
      }),
    });
    const { user } = renderPage(<RecordImport classId="c1" />, "/classes/c1");
    const heading = await screen.findByRole("heading", {
      name: "Importar valores de um ficheiro CSV",
    });
    const intro = heading.parentElement?.textContent ?? "";
    expect(intro).toContain(
      "email e depois qualquer das seguintes: G1, G2, absences, failures, G3, sat, por qualquer ordem",
    );
    expect(intro).toContain("até 5000 linhas");

    await user.upload(screen.getByLabelText("Ficheiro CSV de valores"), file());
    await user.click(screen.getByRole("button", { name: "Pré-visualizar a importação" }));
    expect(
      await screen.findByRole("heading", { name: "O que a importação vai mudar" }),
    ).toBeTruthy();
    expect(screen.getAllByTestId("import-change").map((r) => r.textContent)).toEqual([
      "Amy Struggling (amy@example.org, linha 2): Nota do 1.º período (G1) 6 → 8; Fez o exame vazio → sim",
    ]);
    expect(screen.getByText("1 valor do ficheiro já está no registo.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeTruthy();

    unchanged = 3;
    await user.click(screen.getByRole("button", { name: "Pré-visualizar a importação" }));
    expect(await screen.findByText("3 valores do ficheiro já estão no registo.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Importar 2 valores" }));
    expect(await screen.findByText("2 valores foram guardados.")).toBeTruthy();
  });

  it("says beside the field that no file is chosen, and lists refused lines in Portuguese", async () => {
    const { user } = renderRefusingImport(
      teacher,
      "POST /api/classes/c1/record/import",
      {
        code: "validation",
        message: "O ficheiro não foi importado: corrija as linhas indicadas e tente de novo.",
        fields: {
          "line 12": "Nenhum aluno da turma tem este email.",
          "line 3": "Nota do 1.º período (G1) é um número inteiro de 0 a 20.",
          file: "O ficheiro está vazio.",
        },
      },
      <RecordImport classId="c1" />,
      "/classes/c1",
    );
    await user.click(await screen.findByRole("button", { name: "Pré-visualizar a importação" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Escolha primeiro um ficheiro CSV.",
    );
    const field = screen.getByLabelText("Ficheiro CSV de valores");
    expect(field.getAttribute("aria-invalid")).toBe("true");

    const alert = await previewFile(
      user,
      "Ficheiro CSV de valores",
      file(),
      "Pré-visualizar a importação",
    );
    await waitFor(() =>
      expect(listedLines(alert)).toEqual([
        "Ficheiro: O ficheiro está vazio.",
        "Linha 3: Nota do 1.º período (G1) é um número inteiro de 0 a 20.",
        "Linha 12: Nenhum aluno da turma tem este email.",
      ]),
    );
    expect(alert.textContent).toContain("O ficheiro não foi importado");
    expect(field.getAttribute("aria-describedby")).toBe(alert.id);
    expect(screen.queryByRole("button", { name: /^Importar/ })).toBeNull();
  });
});
