import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../../test/render.tsx";
import { JoinClass } from "./join-class.tsx";
import { invitationTo, joinedClass } from "./join-class-fixtures.ts";

// Joining a class in European Portuguese (issue 33): the invitations, the join box with its
// error beside the field, and leaving a class, asked first.
const student = testUser("student", { locale: "pt-PT" });
const invitation = invitationTo("Matemática 10.º B", "Prof.ª Reis");
const joined = joinedClass("Português 11.º A", { name: "Prof. Lima", email: "lima@example.org" });

describe("joining a class in Portuguese", () => {
  it("offers the invitations, refuses an empty code beside the field, and asks before leaving", async () => {
    fakeServer({
      ...signedInAs(student),
      "GET /api/me/class-invitations": () => ({ body: { items: [invitation] } }),
      "GET /api/classes": () => ({ body: { items: [joined] } }),
    });
    renderPage(<JoinClass />, "/dashboard");
    expect(await screen.findByRole("heading", { name: "Convites para turmas" })).toBeTruthy();
    expect(
      screen.getByRole("button", { name: "Aceitar o convite para Matemática 10.º B" }),
    ).toBeTruthy();
    expect(screen.getByText(/Matemática · 2026\/27/)).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Entrar numa turma" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Entrar" }));
    expect(
      await screen.findByText("Escreva o código da turma que o seu professor lhe deu."),
    ).toBeTruthy();
    expect(screen.getByLabelText("Código da turma").getAttribute("aria-invalid")).toBe("true");
    expect(await screen.findByText(/Português · 2026\/27/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Sair de Português 11.º A" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Sair de Português 11.º A?")).toBeTruthy();
    expect(within(dialog).getByRole("button", { name: "Sair da turma" })).toBeTruthy();
  });
});
