import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { localeKey } from "../i18n/locale.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import { AppLayout } from "./app-layout.tsx";
import Home from "./home.tsx";
import Settings from "./settings.tsx";

// Issue 33: the signed-in frame and the account's settings in European Portuguese.
describe("the frame and the settings in Portuguese", () => {
  test("the sidebar, the menu and the sign-out speak the account's language", async () => {
    fakeServer(
      signedInAs(testUser("admin", { name: "Ana", locale: "pt-PT", emailVerified: false })),
    );
    renderPage(<AppLayout />, "/settings");
    expect(await screen.findByRole("button", { name: "Terminar sessão" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Utilizadores" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Registo de auditoria" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Menu" })).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Principal" }).textContent).toContain(
      "Sessão iniciada como Ana",
    );
  });

  test("the settings' cards, sessions and dates are in Portuguese", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    fakeServer({
      ...signedInAs(testUser("teacher", { locale: "pt-PT" })),
      "GET /api/me/mfa": () => ({
        body: { enabled: true, required: false, recoveryCodesLeft: 8 },
      }),
      "GET /api/me/sessions": () => ({
        body: {
          sessions: [
            {
              id: "s1",
              current: false,
              ip: "192.0.2.7",
              userAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/120.0",
              createdAt: "2026-11-20T10:00:00.000Z",
              lastUsedAt: "2026-11-27T10:00:00.000Z",
              method: "password",
            },
          ],
        },
      }),
    });
    renderPage(<Settings />, "/settings");
    expect(await screen.findByRole("heading", { level: 1, name: "Definições" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Alterar a palavra-passe" })).toBeTruthy();
    expect(await screen.findByText(/Códigos de recuperação restantes: 8/)).toBeTruthy();
    expect(await screen.findByText("Firefox em Windows")).toBeTruthy();
    expect(screen.getByText(/sessão iniciada a 20\/11\/2026/)).toBeTruthy();
    expect(
      screen.getByRole("button", { name: "Terminar a sessão: Firefox em Windows, 192.0.2.7" }),
    ).toBeTruthy();
  });

  test("the landing page after login welcomes in Portuguese", async () => {
    fakeServer(signedInAs(testUser("student", { name: "Rui", locale: "pt-PT" })));
    renderPage(<Home />, "/Home");
    expect(await screen.findByText(/Bem-vindo\(a\), Rui\. O Gradecast reúne/)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Começar" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Terminar sessão" })).toBeTruthy();
  });
});
