import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import Dashboard from "./dashboard.tsx";

// The dashboard in European Portuguese (issue 33): the welcome with the role, and what to do
// next with plurals and the latest prediction's score and day in Portuguese form.

describe("the dashboard in Portuguese", () => {
  it("welcomes a student and gives the latest prediction as 12,5 and its day", async () => {
    const student = testUser("student", { locale: "pt-PT" });
    fakeServer({
      ...signedInAs(student),
      "GET /api/students/mine": () => ({ body: { items: [] } }),
      "GET /api/predictions/mine": () => ({
        body: {
          items: [
            {
              id: "p1",
              prediction: 12.5,
              band: "good",
              // the server's own message, in English whatever the language
              message: "Good effort!",
              interval: { low: 10, high: 15 },
              createdAt: "2026-11-20T10:05:00.000Z",
            },
          ],
          latest: null,
        },
      }),
      "GET /api/classes": () => ({ body: { items: [] } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    expect(await screen.findByRole("heading", { name: "O que fazer a seguir" })).toBeTruthy();
    expect(screen.getByText(/Tem sessão iniciada como/).textContent).toBe(
      "Tem sessão iniciada como aluno.",
    );
    const latest = await screen.findByText(/A sua previsão mais recente/);
    expect(latest.textContent).toContain("12,5 em 20");
    expect(latest.textContent).toContain("Bom esforço!");
    expect(latest.textContent).toContain("20/11/2026");
    expect(screen.getByRole("link", { name: "Entrar numa turma" })).toBeTruthy();
  });

  it("tells an admin in Portuguese how many teachers wait", async () => {
    fakeServer({
      ...signedInAs(testUser("admin", { locale: "pt-PT" })),
      "GET /api/admin/users": () => ({ body: { items: [], nextCursor: null, pendingCount: 2 } }),
    });
    renderPage(<Dashboard />, "/dashboard");
    expect(await screen.findByText("2 professores aguardam a sua aprovação.")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Abrir Utilizadores" })).toBeTruthy();
  });
});
