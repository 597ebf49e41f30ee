import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import AdminAudit from "./admin-audit.tsx";
import AdminUsers from "./admin-users.tsx";

// Issue 33: the admin's audit log in European Portuguese, and its English words as before.
const entry = {
  id: "a1",
  at: "2026-11-27T10:05:00.000Z",
  action: "auth.mfa_enabled",
  actorId: null,
  actorName: null,
  actorEmail: null,
  target: null,
  targetName: null,
  targetEmail: null,
  ip: "192.0.2.1",
  details: { role: "teacher", mfa: "recovery" },
  names: {},
};

function serve(locale: "en" | "pt-PT") {
  fakeServer({
    ...signedInAs(testUser("admin", { locale })),
    "GET /api/admin/audit": () => ({ body: { items: [entry], nextCursor: null } }),
  });
}

describe("the audit log's language", () => {
  test("in Portuguese: the title, the filters, the count and the table", async () => {
    serve("pt-PT");
    renderPage(<AdminAudit />, "/admin/audit");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Registo de auditoria" }),
    ).toBeTruthy();
    expect(
      await screen.findByText("1 entrada do registo de auditoria, as mais recentes primeiro"),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Aplicar os filtros" })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "Quando" })).toBeTruthy();
    expect(screen.getByText("Sistema (linha de comandos)")).toBeTruthy();
    // the action, the details' names and values in the page's words
    expect(screen.getByRole("cell", { name: "Início de sessão em dois passos ligado" }));
    expect(screen.getByText("Função").closest("li")?.textContent).toBe("Função: Professor");
    expect(screen.getByText("Segundo passo").closest("li")?.textContent).toBe(
      "Segundo passo: Código de recuperação",
    );
    expect(screen.getByRole("option", { name: "Apagamento da conta pedido" })).toBeTruthy();
  });

  test("in English the words are as they were", async () => {
    serve("en");
    renderPage(<AdminAudit />, "/admin/audit");
    expect(await screen.findByText("1 audit log entry, newest first")).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "When" })).toBeTruthy();
    expect(screen.getByText(/^27 Nov 2026, \d\d:\d\d$/)).toBeTruthy();
    expect(screen.getByRole("cell", { name: "Two-step login turned on" }));
    expect(screen.getByText("Role").closest("li")?.textContent).toBe("Role: Teacher");
  });
});

describe("the users screen's language", () => {
  function serveUsers(locale: "en" | "pt-PT") {
    const me = testUser("admin", { locale });
    const ana = { ...testUser("student", { uid: "uid-ana", name: "Ana" }), disabled: false };
    fakeServer({
      ...signedInAs(me),
      "GET /api/admin/users": () => ({
        body: {
          items: [ana, { ...me, disabled: false }],
          nextCursor: null,
          activeAdminCount: 1,
          pendingCount: 0,
        },
      }),
    });
  }

  test("in Portuguese: the table, the actions and their dialog", async () => {
    serveUsers("pt-PT");
    const { user } = renderPage(<AdminUsers />, "/admin/users");
    expect(await screen.findByText("2 contas, as mais recentes primeiro")).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "Email verificado" })).toBeTruthy();
    expect(screen.getByText("(você)")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Desativar Ana" }));
    expect(await screen.findByRole("heading", { name: "Desativar Ana?" })).toBeTruthy();
    expect(
      screen.getByText(/Ana \(student@example.org\) termina a sessão em todo o lado/),
    ).toBeTruthy();
  });

  test("in English the words are as they were", async () => {
    serveUsers("en");
    const { user } = renderPage(<AdminUsers />, "/admin/users");
    expect(await screen.findByText("2 accounts, newest first")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Reset two-step login of Ana" }));
    expect(
      await screen.findByText(
        "For someone who lost their authenticator and recovery codes: Ana (student@example.org) then signs in with their password alone. Make sure it is really them who asked.",
      ),
    ).toBeTruthy();
  });
});
