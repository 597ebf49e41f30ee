import { screen } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { ErrorState } from "./error-state.tsx";
import NotAllowed from "./not-allowed.tsx";
import { VerifyBanner } from "./verify-banner.tsx";

// The pieces every page shares, in European Portuguese (issue 33): the page a role may not open,
// an error with its retry, a confirmation's cancel, and the banner of an unverified address.
const student = testUser("student", { locale: "pt-PT", emailVerified: false });

describe("shared pieces in Portuguese", () => {
  test("not allowed, an error with Retry, a confirmation and the unverified banner", async () => {
    fakeServer(signedInAs(student));
    const retry = vi.fn();
    renderPage(
      <>
        <VerifyBanner />
        <NotAllowed />
        <ErrorState error={new Error("A rede falhou.")} onRetry={retry} />
        <ConfirmDialog
          title="Apagar a turma?"
          confirmLabel="Apagar"
          onConfirm={async () => undefined}
          onClose={() => undefined}
        >
          <p>Os alunos saem da turma.</p>
        </ConfirmDialog>
      </>,
      "/admin/users",
    );
    expect(await screen.findByRole("heading", { level: 1, name: "Sem permissão" })).toBeTruthy();
    expect(screen.getByText("Não tem permissão para fazer isto.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Ir para o início" })).toBeTruthy();
    expect(screen.getByText("Não foi possível carregar isto.")).toBeTruthy();
    screen.getByRole("button", { name: "Tentar de novo" }).click();
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "Cancelar" })).toBeTruthy();
    expect(
      (await screen.findByRole("link", { name: "Verifique o seu email" })).closest("p")
        ?.textContent,
    ).toBe(
      `O seu endereço de email ainda não está verificado. Verifique o seu email com o código que enviámos para ${student.email}.`,
    );
  });
});
