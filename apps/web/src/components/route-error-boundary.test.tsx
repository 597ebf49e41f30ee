import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, test, vi } from "vitest";
import { SessionProvider } from "../auth/session.tsx";
import { LocaleProvider, localeKey } from "../i18n/locale.tsx";
import { fakeServer, testCatalogues } from "../test/render.tsx";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";

// A page that fails to render shows what to do instead of a blank screen, in the page's language.
function Broken(): never {
  throw new Error("broken page");
}

describe.each([
  ["en", "Something went wrong.", "Reload", "Go to Home"],
  ["pt-PT", "Algo correu mal.", "Recarregar", "Ir para o início"],
])("a page that stops working (%s)", (locale, title, reload, home) => {
  test("says so, offers to reload it and a way home", async () => {
    localStorage.setItem(localeKey, locale);
    fakeServer({});
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    render(
      <MemoryRouter>
        <SessionProvider>
          <LocaleProvider catalogues={testCatalogues}>
            <RouteErrorBoundary>
              <Broken />
            </RouteErrorBoundary>
          </LocaleProvider>
        </SessionProvider>
      </MemoryRouter>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(title);
    expect(screen.getByRole("button", { name: reload })).toBeTruthy();
    expect(screen.getByRole("link", { name: home }).getAttribute("href")).toBe("/Home");
  });
});
