import {
  type OneRosterResult,
  oneRosterChangeKinds,
  oneRosterChangeLabels,
} from "@gradecast/contract/oneroster";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import imports from "../../locales/en/imports.json";
import { listedLines, previewFile, renderRefusingImport } from "../../test/import-refusal.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { OneRosterImport } from "./oneroster-import.tsx";

// The OneRoster import in European Portuguese (issue 33): its sentences, the
// missing bundle said beside the field, the preview's groups and counts, and a refused bundle's
// lines with the server's own (already translated) reasons.

const admin = testUser("admin", { locale: "pt-PT" });
const zip = () => new File(["PK fake"], "escola.zip", { type: "application/zip" });

function result(dryRun: boolean): OneRosterResult {
  const changes = Object.fromEntries(
    oneRosterChangeKinds.map((k) => [k, { count: 0, items: [] as string[] }]),
  ) as OneRosterResult["changes"];
  changes.classesCreated = { count: 3, items: ["Matemática 10.º A (mat, 2027)"] };
  changes.studentsInvited = { count: 1, items: ["nia@example.org -> Matemática 10.º A"] };
  return {
    dryRun,
    mode: "delta",
    read: { "users.csv": 3, "enrollments.csv": 4 },
    changes,
    emailsQueued: 2,
    message: dryRun
      ? "Ainda nada mudou: isto é o que a importação faria."
      : "As turmas foram importadas.",
  };
}

describe("the OneRoster import in Portuguese", () => {
  it("says beside the field when no bundle is chosen, previews and imports", async () => {
    fakeServer({
      ...signedInAs(admin),
      "POST /api/admin/oneroster": ({ url }) => ({
        body: result(url.searchParams.get("dryRun") === "true"),
      }),
    });
    const { user } = renderPage(<OneRosterImport />, "/admin/oneroster");
    expect(
      await screen.findByRole("heading", { name: "Importar um pacote OneRoster" }),
    ).toBeTruthy();
    expect(screen.getByText(/até 50 MB/)).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Pré-visualizar" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Escolha primeiro um pacote ZIP.");
    expect(screen.getByLabelText("Pacote ZIP").getAttribute("aria-invalid")).toBe("true");

    await user.upload(screen.getByLabelText("Pacote ZIP"), zip());
    await user.click(screen.getByRole("radio", { name: /^Parcial \(delta\)/ }));
    await user.click(screen.getByRole("button", { name: "Pré-visualizar" }));
    expect(await screen.findByText("O que a importação vai fazer")).toBeTruthy();
    expect(screen.getByText("Registos lidos: users.csv: 3, enrollments.csv: 4.")).toBeTruthy();
    expect(screen.getByText("Turmas criadas: 3")).toBeTruthy();
    expect(screen.getByText("e mais 2")).toBeTruthy();
    expect(
      screen.getByText("Alunos convidados para turmas (aceitam, ou registam-se com o endereço): 1"),
    ).toBeTruthy();
    expect(screen.getByText("Emails de convite a enviar: 2")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Importar" }));
    expect(await screen.findByText("Emails de convite a escrever e enviar: 2")).toBeTruthy();
    expect(screen.getByText(/As turmas foram importadas/)).toBeTruthy();
  });

  it("lists each file, line and reason of a refused bundle", async () => {
    const { user } = renderRefusingImport(
      admin,
      "POST /api/admin/oneroster",
      {
        code: "invalid_input",
        message: "O pacote não foi importado: 2 linhas precisam de correção. Nada mudou.",
        fields: {
          bundle: "Falta o manifest.csv.",
          "users.csv line 4": "email não é um endereço de email.",
        },
      },
      <OneRosterImport />,
      "/admin/oneroster",
    );
    const alert = await previewFile(user, "Pacote ZIP", zip(), "Pré-visualizar");
    expect(alert.textContent).toContain("2 linhas precisam de correção");
    expect(listedLines(alert)).toEqual([
      "Pacote: Falta o manifest.csv.",
      "users.csv linha 4: email não é um endereço de email.",
    ]);
    expect(screen.queryByRole("button", { name: "Importar" })).toBeNull();
  });

  it("keeps the English change labels equal to the contract's", () => {
    const en = imports as Record<string, string>;
    for (const kind of oneRosterChangeKinds) {
      expect(en[`imports.oneroster.change.${kind}`]).toBe(oneRosterChangeLabels[kind]);
    }
  });
});
