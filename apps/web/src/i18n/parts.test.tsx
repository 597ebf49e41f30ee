import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, test } from "vitest";
import { SessionProvider } from "../auth/session.tsx";
import { fakeServer } from "../test/render.tsx";
import { useIntl } from "./intl.tsx";
import { AppMessagesRoute, LocaleProvider, localeKey } from "./locale.tsx";

// The catalogue in two parts (issue 33): the public pages speak with the first one alone; a page
// past them waits, with a spinner in the page's language, for the second part to arrive.
function Says({ id }: { id: string }) {
  const intl = useIntl();
  return <p>{intl.formatMessage({ id })}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SessionProvider>
        <LocaleProvider>
          <Routes>
            <Route path="/login" element={<Says id="login.title" />} />
            <Route element={<AppMessagesRoute />}>
              <Route path="/register" element={<Says id="fields.enterPassword" />} />
            </Route>
          </Routes>
        </LocaleProvider>
      </SessionProvider>
    </MemoryRouter>,
  );
}

describe("the catalogue's parts", () => {
  test("the login page speaks from the first part", async () => {
    fakeServer({});
    renderAt("/login");
    expect(await screen.findByText("Login")).toBeTruthy();
  });

  test("a page past the public ones shows the loading state in Portuguese, then its text", async () => {
    localStorage.setItem(localeKey, "pt-PT");
    fakeServer({});
    renderAt("/register");
    expect(screen.getByRole("status").textContent).toContain("A carregar...");
    expect(await screen.findByText("Introduza uma palavra-passe.")).toBeTruthy();
  });
});
