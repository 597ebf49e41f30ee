import { consentTextVersionOf } from "@gradecast/contract/consent";
import { digestEmail } from "@gradecast/contract/emails";
import { describe, expect, it } from "vitest";
import { localizedDigestEmail } from "../../src/i18n/emails.ts";
import {
  postLogin,
  type SignedInUser,
  testPassword,
  uniqueEmail,
  waitForMail,
} from "../support/accounts.ts";
import { callApi } from "../support/api-call.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";

// Issue 33: the invitation, guardian consent and digest emails in the recipient's language (their
// setting; for an address with no account, the student's language for a guardian, else
// DEFAULT_LOCALE). The mails are read as the mailer wrote them (the outbox); English is unchanged.
const english = apiTests({ env: { RATE_LIMITS: "off" } });
const consent = apiTests({
  env: { RATE_LIMITS: "off", LEGAL_BASIS: "consent", DIGITAL_CONSENT_AGE: "13" },
});
const portugueseSchool = apiTests({ env: { RATE_LIMITS: "off", DEFAULT_LOCALE: "pt-PT" } });

const setLocale = async (t: TestApp, who: Pick<SignedInUser, "auth">, locale: "en" | "pt-PT") => {
  const res = await callApi(t, "PUT", "/api/me/locale", who.auth, { locale });
  expect(res.statusCode, res.body).toBe(200);
};

describe.each(dialects)("emails in the recipient's language (%s)", (dialect) => {
  const test = english[dialect];
  const school = portugueseSchool[dialect];
  const guardians = consent[dialect];

  test("class invitations: an account's own language, else DEFAULT_LOCALE", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const ana = await signedIn("student", { name: "Ana" });
    const bob = await signedIn("student", { name: "Bob" });
    await setLocale(t, ana, "pt-PT");
    const newcomer = uniqueEmail("new");
    const klass = await api(t).createClass(teacher, { name: "Mat 10B" });
    const file = `name,email\nAna,${ana.email}\nBob,${bob.email}\nNew,${newcomer}\n`;
    const res = await api(t).roster(teacher, klass.id, file, false);
    expect(res.statusCode, res.body).toBe(200);

    const pt = await waitForMail(t.dataDir, ana.email, /Mat 10B/);
    expect(pt.subject).toBe("Um convite para uma turma no Gradecast");
    expect(pt.text).toContain("Um professor convidou este endereço de email para uma turma");
    expect(pt.text).toContain("  Disciplina: Matemática");
    expect(pt.text).toContain("o seu Painel de aluno");
    const en = await waitForMail(t.dataDir, bob.email, /Mat 10B/);
    expect(en.subject).toBe("A class invitation on Gradecast");
    expect(en.text).toContain("  Subject: Mathematics");
    const none = await waitForMail(t.dataDir, newcomer, /Mat 10B/);
    expect(none.subject).toBe("A class invitation on Gradecast");
    expect(none.text).toContain(`Create your student account with this email address at`);
  });

  guardians("guardian consent emails follow the student's language", async ({ t }) => {
    const ask = async (name: string, locale: "en" | "pt-PT") => {
      const email = uniqueEmail("pupil");
      const registered = await callApi(
        t,
        "POST",
        "/api/auth/register",
        { "accept-language": locale },
        { name, email, password: testPassword, role: "student", dateOfBirth: "2018-01-15" },
      );
      expect(registered.statusCode, registered.body).toBe(201);
      await t.database.db
        .updateTable("users")
        .set({ email_verified: true })
        .where("email", "=", email)
        .execute();
      const pupil = {
        auth: { authorization: `Bearer ${(await postLogin(t, email)).json().token}` },
      };
      await setLocale(t, pupil, locale);
      const guardian = uniqueEmail("guardian");
      const res = await callApi(t, "POST", "/api/consent/request", pupil.auth, {
        guardianEmail: guardian,
      });
      expect(res.statusCode, res.body).toBe(202);
      return waitForMail(t.dataDir, guardian, new RegExp(name));
    };
    const pt = await ask("Rita Sousa", "pt-PT");
    expect(pt.subject).toBe("Rita Sousa pede o seu consentimento no Gradecast");
    expect(pt.text).toContain("Olá, encarregado de educação,");
    expect(pt.text).toContain("A ligação expira dentro de 7 dias.");
    // The link opens the guardian's page in the email's language.
    expect(pt.text).toMatch(/\/consent\?token=[\w-]+&lang=pt-PT\n/);
    const token = /token=([\w-]+)/.exec(pt.text)?.[1];
    const given = await callApi(
      t,
      "POST",
      "/api/consent/confirm",
      {},
      {
        token,
        textVersion: consentTextVersionOf("pt-PT"),
      },
    );
    expect(given.statusCode, given.body).toBe(200);
    const thanks = await waitForMail(t.dataDir, pt.to, /Obrigado/);
    expect(thanks.subject).toBe("Deu o seu consentimento para Rita Sousa no Gradecast");
    expect(thanks.text).toMatch(/\/consent\/withdraw\?token=[\w-]+&lang=pt-PT\n/);

    const en = await ask("Tom Hill", "en");
    expect(en.subject).toBe("Tom Hill asks for your consent on Gradecast");
    expect(en.text).toContain("Hello parent or guardian,");
    expect(en.text).toContain("The link expires in 7 days.");
    expect(en.text).toMatch(/\/consent\?token=[\w-]+&lang=en\n/);
  });

  school(
    "with DEFAULT_LOCALE=pt-PT an invitee with no account gets Portuguese",
    async ({ t, signedIn }) => {
      const admin = await signedIn("admin", { name: "Ada Admin" });
      const email = uniqueEmail("prof");
      const res = await callApi(t, "POST", "/api/admin/invitations", admin.auth, {
        email,
        name: "Teresa Dias",
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const mail = await waitForMail(t.dataDir, email, /Ada Admin/);
      expect(mail.subject).toBe("Foi convidado para o Gradecast como professor");
      expect(mail.text).toContain("Olá Teresa Dias,");
      expect(mail.text).toContain("Ada Admin convidou-o para o Gradecast como professor.");
    },
  );
});

describe("the digest email", () => {
  const p = {
    name: "Ana",
    choice: "weekly" as const,
    from: "2026-11-16",
    until: "2026-11-22",
    notifications: [{ title: "Rui is at risk", reasons: ["absences"] }],
    followUps: [{ student: "Rui", className: "10B", on: "2026-11-25" }],
    reviews: [],
    outcomes: [{ student: "Eva", className: "10B" }],
    appUrl: "https://school.example",
    unsubscribeLink: "https://school.example/unsubscribe?token=x",
  };
  it("is the contract's text in English and Portuguese with Portuguese dates in pt-PT", () => {
    expect(localizedDigestEmail("en", p)).toEqual(digestEmail(p));
    const pt = localizedDigestEmail("pt-PT", p);
    expect(pt.subject).toBe("O seu resumo semanal do Gradecast (16/11/2026 a 22/11/2026)");
    expect(pt.text).toContain("Olá Ana,");
    expect(pt.text).toContain("Notificações:\n- Rui is at risk (motivos: absences)");
    expect(pt.text).toContain("- Rui (10B): 25/11/2026");
    expect(pt.text).toContain("Resultados registados recentemente:\n- Eva (10B)");
    expect(pt.text).not.toContain("Intervention");
  });
});
