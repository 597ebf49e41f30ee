import { screen } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { fakeServer, renderPage } from "../test/render.tsx";
import About from "./about.tsx";
import Contact from "./contact.tsx";
import Help from "./help.tsx";
import NotFound from "./not-found.tsx";

// The public pages anyone may open, in European Portuguese (issue 33): help, about, contact and
// the page for an address that is no page, on a device whose chosen language is pt-PT.

afterEach(() => localStorage.removeItem("gradecast:locale"));

const site = {
  schoolName: "Escola Secundária de Gondomar",
  contactEmail: "apoio@escola.example.org",
};

describe("the public pages in Portuguese", () => {
  test("help answers by topic, with its links and the join code's length", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    fakeServer({});
    renderPage(<Help />, "/help");
    expect(await screen.findByRole("heading", { level: 1, name: "Ajuda" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Palavras-passe e a sua conta" })).toBeTruthy();
    expect(screen.getByText("Como entro na minha turma?")).toBeTruthy();
    expect(screen.getByText(/escreva, em "Entrar numa turma", as 8 letras e algarismos/));
    expect(screen.getByRole("link", { name: "Painel do aluno" }).getAttribute("href")).toBe(
      "/student-dashboard",
    );
    expect(screen.getByRole("link", { name: "Contacte-nos" }).getAttribute("href")).toBe(
      "/contact",
    );
  });

  test("about, contact with the school's address, and an address that is no page", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    fakeServer({ "GET /api/site": () => ({ body: site }) });
    const about = renderPage(<About />, "/about");
    expect(await screen.findByRole("heading", { level: 1, name: "Sobre nós" })).toBeTruthy();
    expect(screen.getByText(/em inglês e português europeu\.$/)).toBeTruthy();
    about.unmount();

    const contact = renderPage(<Contact />, "/contact");
    expect(await screen.findByRole("heading", { level: 1, name: "Contacte-nos" })).toBeTruthy();
    expect(
      await screen.findByText(
        "Perguntas, problemas com uma conta ou ideias: a escola Escola Secundária de Gondomar lê todas as mensagens.",
      ),
    ).toBeTruthy();
    expect(
      (await screen.findByRole("link", { name: site.contactEmail })).closest("p")?.textContent,
    ).toBe(
      `Escreva para ${site.contactEmail}. Diga-nos o endereço de email da sua conta e o que estava a tentar fazer; nunca envie a sua palavra-passe.`,
    );
    contact.unmount();

    renderPage(<NotFound />, "/nao-existe");
    expect(
      await screen.findByRole("heading", { level: 1, name: "Página não encontrada" }),
    ).toBeTruthy();
    expect(screen.getByText("/nao-existe").tagName).toBe("CODE");
    expect(screen.getByRole("link", { name: "Obter ajuda" })).toBeTruthy();
  });
});
