import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, test } from "vitest";
import { tokenKey } from "../api/client.ts";
import { LocaleProvider, localeKey } from "../i18n/locale.tsx";
import { fakeServer, testCatalogues } from "../test/render.tsx";
import { RequireSignIn } from "./guards.tsx";
import { SessionProvider } from "./session.tsx";

// A signed-in page waits for the session (GET /api/me) behind a spinner in the page's language.
// Both catalogues are at hand, so the spinner seen is the guard's, not the catalogue's own.
describe("the sign-in guard in Portuguese", () => {
  test("says it is loading in Portuguese while the session is read", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    localStorage.setItem(tokenKey, "a-token");
    // GET /api/me has not answered yet.
    fakeServer({ "GET /api/me": () => new Promise(() => {}) });
    render(
      <MemoryRouter initialEntries={["/dashboard"]}>
        <SessionProvider>
          <LocaleProvider catalogues={testCatalogues}>
            <Routes>
              <Route element={<RequireSignIn />}>
                <Route path="/dashboard" element={<p>Painel</p>} />
              </Route>
            </Routes>
          </LocaleProvider>
        </SessionProvider>
      </MemoryRouter>,
    );
    expect((await screen.findByRole("status")).textContent).toBe("A carregar...");
    expect(screen.queryByText("Painel")).toBeNull();
  });
});
