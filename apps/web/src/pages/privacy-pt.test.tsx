import {
  consentTexts,
  consentTextVersion,
  consentTextVersionOf,
} from "@gradecast/contract/consent";
import type { DataProtection, PrivacyNotice } from "@gradecast/contract/data-rights";
import type { Locale } from "@gradecast/contract/locale-tags";
import { screen } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { LanguageChoice } from "../components/language-choice.tsx";
import { ConsentGate } from "../features/consent/consent-gate.tsx";
import { GuardianConsent, GuardianWithdraw } from "../features/consent/guardian-pages.tsx";
import { type FakeServer, fakeServer, renderPage, signedInAs, testUser } from "../test/render.tsx";
import DataProtectionPage from "./data-protection.tsx";
import Privacy from "./privacy.tsx";

// Consent and privacy in European Portuguese (issue 33): the guardian's pages (no account: the
// device's choice of language, else the emailed link's), the student's consent gate, and the
// privacy notice.

afterEach(() => localStorage.removeItem("gradecast:locale"));

/** The guardian's link as the server answers it: the text in the language the page asked in. */
function guardianServer(confirm?: () => { status: number; body: unknown }): FakeServer {
  const server: FakeServer = fakeServer({
    "POST /api/consent/view": () => ({ body: viewIn(languageOfLastCall()) }),
    "POST /api/consent/confirm": ({ body }) =>
      confirm?.() ?? {
        body: { ...viewIn(languageOfLastCall()), state: "given", ...(body as object) },
      },
  });
  const languageOfLastCall = () =>
    server.calls.at(-1)?.headers.get("accept-language") === "pt-PT" ? "pt-PT" : "en";
  return server;
}

function viewIn(locale: Locale) {
  return {
    studentName: "Rita Sousa",
    guardianEmail: "pai@example.org",
    text: consentTexts[locale],
    textVersion: consentTextVersionOf(locale),
    state: "pending",
  };
}

describe("consent in Portuguese", () => {
  test("the guardian reads the Portuguese text and consents to its Portuguese version", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    window.history.replaceState(null, "", "/consent?token=t1");
    const server = guardianServer();
    const { user } = renderPage(<GuardianConsent />, "/consent");
    expect(
      await screen.findByRole("heading", { name: "Consentimento do encarregado de educação" }),
    );
    expect((await screen.findByText("Rita Sousa")).closest("p")?.textContent).toBe(
      "Rita Sousa pede-lhe, em pai@example.org, enquanto pai, mãe ou encarregado de educação, que aceite que utilize o Gradecast na escola.",
    );
    expect(screen.getByText(/^O Gradecast é a ferramenta da escola para estimar a nota final/));
    expect(screen.getByText(/^Pode retirar o seu consentimento a qualquer momento/));
    expect(screen.queryByText(/^Gradecast is the school's tool/)).toBeNull();
    expect(screen.getByText(`Versão do texto de consentimento: ${consentTextVersion}/pt-PT.`));
    expect(screen.getByRole("link", { name: "aviso de privacidade" }).getAttribute("href")).toBe(
      "/privacy",
    );
    await user.click(screen.getByRole("button", { name: "Dou o meu consentimento" }));
    expect(
      await screen.findByText(/o seu consentimento para Rita Sousa ficou registado/),
    ).toBeTruthy();
    expect(server.calls.map((c) => c.headers.get("accept-language"))).toEqual(["pt-PT", "pt-PT"]);
    expect(server.calls[1]?.body).toEqual({ token: "t1", textVersion: "2026-11-28/pt-PT" });
  });

  test("the emailed link's language opens the page, and the switcher changes the text read", async () => {
    // A browser in English, no choice made on this device: the Portuguese email's link decides.
    window.history.replaceState(null, "", "/consent?token=t2&lang=pt-PT");
    const server = guardianServer();
    const { user } = renderPage(
      <>
        <GuardianConsent />
        <LanguageChoice />
      </>,
      "/consent",
    );
    expect(await screen.findByText(/^O Gradecast é a ferramenta da escola/)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText("Idioma"), "English");
    expect(await screen.findByText(/^Gradecast is the school's tool/)).toBeTruthy();
    expect(screen.queryByText(/^O Gradecast é a ferramenta da escola/)).toBeNull();
    expect(screen.getByText(`Consent text version ${consentTextVersion}.`)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "I consent" }));
    expect(await screen.findByText(/your consent for Rita Sousa is recorded/)).toBeTruthy();
    expect(server.calls.at(-1)?.body).toEqual({ token: "t2", textVersion: consentTextVersion });
  });

  test("a text updated since the page opened is read again before consenting", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    window.history.replaceState(null, "", "/consent?token=t3");
    const refused = {
      status: 400,
      body: { error: { code: "unknown_text_version", message: "This consent text is old." } },
    };
    const server = guardianServer(() => refused);
    const { user } = renderPage(<GuardianConsent />, "/consent");
    await user.click(await screen.findByRole("button", { name: "Dou o meu consentimento" }));
    expect(
      await screen.findByText(
        "O texto de consentimento foi atualizado depois de abrir esta página. Leia-o de novo abaixo e confirme se concordar.",
      ),
    ).toBeTruthy();
    await screen.findByRole("button", { name: "Dou o meu consentimento" });
    expect(server.calls.map((c) => c.route)).toEqual([
      "POST /api/consent/view",
      "POST /api/consent/confirm",
      "POST /api/consent/view",
    ]);
  });

  test("the guardian withdraws it after confirming", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    window.history.replaceState(null, "", "/consent/withdraw?token=w1");
    fakeServer({
      "POST /api/consent/withdraw": () => ({ body: { message: "O consentimento foi retirado." } }),
    });
    const { user } = renderPage(<GuardianWithdraw />, "/consent/withdraw");
    await user.click(await screen.findByRole("button", { name: "Retirar o consentimento" }));
    expect(screen.getByText("Retirar o seu consentimento?")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Manter o meu consentimento" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Sim, retirar" }));
    expect(await screen.findByText("O consentimento foi retirado.")).toBeTruthy();
  });

  test("the student's consent gate says where the link went and when", async () => {
    const student = testUser("student", { locale: "pt-PT" });
    fakeServer({
      ...signedInAs(student),
      "GET /api/consent/mine": () => ({
        body: {
          legalBasis: "consent",
          state: "pending",
          digitalConsentAge: 13,
          guardianEmail: "mae@example.org",
          requestedAt: "2026-11-28T10:00:00.000Z",
          consentedAt: null,
          withdrawnAt: null,
        },
      }),
    });
    renderPage(
      <ConsentGate>
        <p>O questionário</p>
      </ConsentGate>,
      "/student-input",
    );
    expect(await screen.findByRole("heading", { name: "Pedir a um encarregado de educação" }));
    expect(screen.getByText(/Tens menos de 13 anos/)).toBeTruthy();
    expect(screen.getByText(/em 28\/11\/2026/)).toBeTruthy();
    expect(screen.getByLabelText("Email do encarregado de educação")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Enviar uma nova ligação" })).toBeTruthy();
    expect(screen.queryByText("O questionário")).toBeNull();
  });
});

describe("the privacy notice in Portuguese", () => {
  test("the page around the server's notice, with its plurals", async () => {
    localStorage.setItem("gradecast:locale", "pt-PT");
    const notice: PrivacyNotice = {
      version: "2026-11-28",
      schoolName: "Escola Secundária de Gondomar",
      dpoContact: null,
      graceDays: 30,
      sections: [
        {
          table: "users",
          title: "Contas",
          purpose: "Iniciar sessão",
          whoSees: "A pessoa; os administradores",
          kept: "Prazo de conservação: até a conta ser apagada.",
          fields: [
            { name: "name", about: "nome" },
            { name: "email", about: "endereço de email" },
          ],
        },
        {
          table: "mfa_recovery_codes",
          title: "Códigos de recuperação",
          purpose: "Iniciar sessão",
          whoSees: "Ninguém",
          kept: "Prazo de conservação: 90 dias.",
          fields: [{ name: "used_at", about: "quando um código foi usado" }],
        },
      ],
    };
    fakeServer({ "GET /api/privacy": () => ({ body: notice }) });
    renderPage(<Privacy />, "/privacy");
    expect(await screen.findByRole("heading", { name: "Contas" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Aviso de privacidade" })).toBeTruthy();
    expect(
      screen.getByText(
        "Escola Secundária de Gondomar é responsável pelo tratamento dos dados abaixo. Versão do aviso: 2026-11-28.",
      ),
    ).toBeTruthy();
    expect(screen.getByText(/^Encarregado de proteção de dados: a escola ainda não/)).toBeTruthy();
    expect(screen.getByText(/titular dos dados/)).toBeTruthy();
    expect(screen.getByText(/é removida ao fim de 30 dias/)).toBeTruthy();
    expect(screen.getByText("O que é guardado (2 campos)")).toBeTruthy();
    expect(screen.getByText("O que é guardado (1 campo)")).toBeTruthy();
    expect(screen.getAllByText("Finalidade:")).toHaveLength(2);
  });
});

describe("the data protection screen in Portuguese", () => {
  test("retention, what is due, deletions waiting and students to review", async () => {
    const admin = testUser("admin", { locale: "pt-PT" });
    const setting = {
      configurable: true,
      keepDays: null,
      autoPurge: false,
      due: 0,
      checkedAt: null,
      purgedAt: null,
      purgedCount: null,
    };
    const data: DataProtection = {
      retention: [
        { ...setting, category: "account", label: "Accounts", configurable: false },
        {
          ...setting,
          category: "sessions",
          label: "Sign-in sessions and codes",
          keepDays: 90,
          due: 3,
          purgedAt: "2026-11-20T10:00:00.000Z",
          purgedCount: 12,
        },
      ],
      deletedStudentReports: "anonymise",
      graceDays: 30,
      deletions: [
        {
          uid: "u1",
          name: "Rui Costa",
          email: "rui@example.org",
          role: "student",
          via: "self",
          requestedAt: "2026-11-27T10:00:00.000Z",
          dueAt: "2026-12-27T10:00:00.000Z",
        },
      ],
      toReview: [],
    };
    const server = fakeServer({
      ...signedInAs(admin),
      "GET /api/admin/data-protection": () => ({ body: data }),
      "POST /api/admin/data-protection/purge": () => ({ status: 202, body: { jobId: "j1" } }),
    });
    const { user } = renderPage(<DataProtectionPage />, "/admin/data-protection");
    expect(await screen.findByRole("heading", { name: "Prazos de conservação dos dados" }));
    expect(screen.getByRole("heading", { name: "Proteção de dados" })).toBeTruthy();
    expect(screen.getByLabelText("Sessões e códigos de início de sessão")).toBeTruthy();
    expect(screen.getByText("Com a conta")).toBeTruthy();
    expect(screen.getByText("20/11/2026 (12)")).toBeTruthy();
    expect(screen.getByText(/Um apagamento espera 30 dias/)).toBeTruthy();
    expect(
      screen.getByText(
        /Rui Costa \(rui@example.org\), pedido pelo próprio, removida em 27\/12\/2026/,
      ),
    ).toBeTruthy();
    expect(screen.getByText("Ninguém a rever")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Apagar 3" }));
    expect(
      await screen.findByText("A apagar sessões e códigos de início de sessão: 3 linhas."),
    ).toBeTruthy();
    expect(server.calls.some((c) => c.route === "POST /api/admin/data-protection/purge")).toBe(
      true,
    );
  });
});
