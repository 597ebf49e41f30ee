import { screen, waitFor } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { localeKey } from "../i18n/locale.tsx";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import Login from "./login.tsx";
import Profile from "./profile.tsx";

// The page's language (issue 33): a choice made on this device before signing in, the account's
// own setting, and what the server is told so that its messages follow.
describe("the page's language", () => {
  test("a visitor who chose Português reads the login page in European Portuguese, and the server is asked in it", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    const server = fakeServer({
      "POST /api/auth/login": () => ({
        status: 401,
        body: {
          error: { code: "invalid_credentials", message: "Email ou palavra-passe errados." },
        },
      }),
    });
    const { user } = renderPage(<Login />, "/login");
    expect(await screen.findByRole("heading", { level: 1, name: "Iniciar sessão" })).toBeTruthy();
    expect(document.documentElement.lang).toBe("pt-PT");
    expect(screen.getByRole("link", { name: "Esqueceu-se da palavra-passe?" })).toBeTruthy();
    await user.type(screen.getByLabelText("Email"), "ana@example.org");
    await user.type(screen.getByLabelText("Palavra-passe"), "not her password");
    await user.click(screen.getByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Email ou palavra-passe errados.")).toBeTruthy();
    const login = server.calls.find((c) => c.route === "POST /api/auth/login");
    expect(login?.headers.get("accept-language")).toBe("pt-PT");
  });

  test("the browser's language is followed until a choice is made", async () => {
    fakeServer({});
    renderPage(<Login />, "/login");
    expect(await screen.findByRole("heading", { level: 1, name: "Login" })).toBeTruthy();
    expect(document.documentElement.lang).toBe("en");
  });

  // The server writes DEFAULT_LOCALE on the page's <html> (http/index-page.ts).
  test.each([
    { languages: ["fr-FR", "de"], heading: "Iniciar sessão", lang: "pt-PT" },
    { languages: ["en-GB", "fr"], heading: "Login", lang: "en" },
  ])("a browser asking for $languages at a pt-PT deployment reads $lang", async (c) => {
    document.documentElement.dataset.defaultLocale = "pt-PT";
    const languages = vi.spyOn(navigator, "languages", "get").mockReturnValue(c.languages);
    try {
      fakeServer({});
      renderPage(<Login />, "/login");
      expect(await screen.findByRole("heading", { level: 1, name: c.heading })).toBeTruthy();
      expect(document.documentElement.lang).toBe(c.lang);
    } finally {
      languages.mockRestore();
      delete document.documentElement.dataset.defaultLocale;
    }
  });

  test("a person's choice on the profile is kept on the account and the page switches at once", async () => {
    const me = testUser("student", { locale: null });
    const server = fakeServer({
      ...signedInAs(me),
      "PUT /api/me/locale": ({ body }) => ({
        body: { ...me, locale: (body as { locale: "en" | "pt-PT" | null }).locale },
      }),
    });
    const { user } = renderPage(<Profile />, "/profile");
    const choice = await screen.findByLabelText("Language");
    expect((choice as HTMLSelectElement).value).toBe("");
    await user.selectOptions(choice, "pt-PT");
    expect(await screen.findByRole("heading", { level: 2, name: "Idioma" })).toBeTruthy();
    expect(screen.getByRole("option", { name: "Seguir o meu navegador" })).toBeTruthy();
    expect(server.calls.find((c) => c.route === "PUT /api/me/locale")?.body).toEqual({
      locale: "pt-PT",
    });
    await waitFor(() => expect(document.documentElement.lang).toBe("pt-PT"));

    await user.selectOptions(screen.getByLabelText("Idioma"), "");
    expect(await screen.findByRole("heading", { level: 2, name: "Language" })).toBeTruthy();
    expect(server.calls.filter((c) => c.route === "PUT /api/me/locale").at(-1)?.body).toEqual({
      locale: null,
    });
  });
});
