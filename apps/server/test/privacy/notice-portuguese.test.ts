import { describe, expect } from "vitest";
import { randomIp } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";

// Issue 33: the privacy notice in the reader's language (no sign-in: Accept-Language, else
// DEFAULT_LOCALE); English stays the registry's own text.
const tests = apiTests({});

interface Notice {
  sections: {
    table: string;
    title: string;
    whoSees: string;
    kept: string;
    fields: { name: string; about: string }[];
  }[];
}

const notice = async (t: TestApp, language: string) => {
  const reply = await t.app.inject({
    method: "GET",
    url: "/api/privacy",
    headers: { "accept-language": language },
    remoteAddress: randomIp(),
  });
  expect(reply.statusCode).toBe(200);
  return { notice: reply.json() as Notice, vary: reply.headers.vary };
};

describe.each(dialects)("the privacy notice in Portuguese (%s)", (dialect) => {
  const test = tests[dialect];

  test("titles, who sees the data, fields and periods are in Portuguese; English is unchanged", async ({
    t,
  }) => {
    const pt = await notice(t, "pt-PT,pt;q=0.9");
    expect(pt.vary).toMatch(/Accept-Language/);
    const section = (table: string) => pt.notice.sections.find((s) => s.table === table);
    expect(section("guardian_consents")?.title).toBe("Consentimento dos encarregados de educação");
    expect(section("account_deletions")?.title).toBe("Pedidos de apagamento de conta");
    expect(section("users")?.whoSees).toMatch(/^A pessoa; os administradores/);
    expect(section("users")?.kept).toBe("Prazo de conservação: até a conta ser apagada.");
    // A period in days, with its plural.
    expect(section("sessions")?.kept).toBe(
      "Prazo de conservação: 90 dias; depois é apagado (ou até a conta ser apagada, se for antes).",
    );
    expect(section("mail_outbox")?.fields.find((f) => f.name === "subject")?.about).toBe(
      "o assunto do email",
    );
    // A column never exported.
    expect(section("guardian_consents")?.fields.find((f) => f.name === "token_hash")?.about).toBe(
      "mantido secreto (um hash ou uma chave)",
    );

    const en = await notice(t, "en-GB");
    const users = en.notice.sections.find((s) => s.table === "users");
    expect(users?.title).toBe("Accounts");
    expect(users?.kept).toBe("Kept until the account is deleted.");
    expect(en.notice.sections.find((s) => s.table === "sessions")?.kept).toBe(
      "Kept 90 days, then deleted (or until the account is deleted, if sooner).",
    );
  });
});
