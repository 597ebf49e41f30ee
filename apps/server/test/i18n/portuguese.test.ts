import { messages } from "@gradecast/contract/messages";
import { describe, expect, it } from "vitest";
import { csvFormatOf, csvRow } from "../../src/csv/csv.ts";
import { parseRecordFile } from "../../src/record/import.ts";
import { signIn, uniqueEmail, waitForMail } from "../support/accounts.ts";
import { callApi } from "../support/api-call.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";

// Issue 33: the API answers in the caller's language (their setting, else Accept-Language, else
// DEFAULT_LOCALE); error codes never change; CSV files fit the caller's spreadsheet.
const tests = apiTests({});

describe.each(dialects)("Portuguese answers (%s)", (dialect) => {
  const test = tests[dialect];

  test("an error in pt-PT by Accept-Language, with the same code, and Vary names the header", async ({
    t,
  }) => {
    const english = await callApi(t, "POST", "/api/auth/login", {}, { email: "", password: "" });
    const portuguese = await callApi(
      t,
      "POST",
      "/api/auth/login",
      { "accept-language": "pt-PT,pt;q=0.9,en;q=0.5" },
      { email: "", password: "" },
    );
    expect(portuguese.statusCode).toBe(english.statusCode);
    expect(portuguese.json().error.code).toBe(english.json().error.code);
    expect(portuguese.headers.vary).toMatch(/Accept-Language/);

    const wrong = await callApi(
      t,
      "POST",
      "/api/auth/login",
      { "accept-language": "pt" },
      { email: "nobody@example.org", password: "not the password" },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({
      code: "invalid_credentials",
      message: "Email ou palavra-passe inválidos.",
    });
    const inEnglish = await callApi(
      t,
      "POST",
      "/api/auth/login",
      { "accept-language": "en-GB" },
      { email: "nobody@example.org", password: "not the password" },
    );
    expect(inEnglish.json().error.message).toBe(messages.invalidCredentials);
  });

  test("field messages follow the language too", async ({ t }) => {
    const res = await callApi(
      t,
      "POST",
      "/api/auth/register",
      { "accept-language": "pt-PT" },
      { name: "", email: "not an address", password: "x" },
    );
    expect(res.statusCode).toBe(400);
    const { fields } = res.json().error;
    expect(fields.name).toBe("Introduza o seu nome.");
    expect(fields.email).toBe("Introduza um endereço de email válido.");
    expect(fields.password).toBe("Use pelo menos 8 caracteres.");
  });

  test("the person's setting wins over the browser's language", async ({ t }) => {
    const s = await signIn(t, "student");
    await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: "pt-PT" });
    const res = await callApi(t, "GET", "/api/reports", { ...s.auth, "accept-language": "en" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: "forbidden",
      message: "Não tem permissão para fazer isto.",
    });
    await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: null });
    const back = await callApi(t, "GET", "/api/reports", { ...s.auth, "accept-language": "en" });
    expect(back.json().error.message).toBe(messages.notAllowed);
  });

  test("the verification email is in the language of the registration, English otherwise", async ({
    t,
  }) => {
    const email = uniqueEmail("ines");
    const res = await callApi(
      t,
      "POST",
      "/api/auth/register",
      { "accept-language": "pt-PT" },
      { name: "Inês Conceição", email, password: "correct horse battery staple" },
    );
    expect(res.statusCode).toBe(201);
    const mail = await waitForMail(t.dataDir, email, /verificação/);
    expect(mail.text).toMatch(/O seu código de verificação do Gradecast é \d{6}\./);
    expect(mail.text).toContain("Olá Inês Conceição,");
    expect(mail.text).toContain("Expira dentro de 10 minutos.");

    const other = uniqueEmail("john");
    await callApi(
      t,
      "POST",
      "/api/auth/register",
      {},
      { name: "John", email: other, password: "correct horse battery staple" },
    );
    const english = await waitForMail(t.dataDir, other, /verification code is/);
    expect(english.text).toContain("Hello John,");
  });

  test("the password reset email follows the account's setting, else the request's language", async ({
    t,
  }) => {
    const s = await signIn(t, "student", { name: "Rui Sousa" });
    const forgot = (headers: Record<string, string>) =>
      callApi(t, "POST", "/api/auth/forgot-password", headers, { email: s.email });
    expect((await forgot({ "accept-language": "pt-PT" })).statusCode).toBe(202);
    const mail = await waitForMail(t.dataDir, s.email, /palavra-passe/);
    expect(mail.subject).toBe("Redefinir a sua palavra-passe do Gradecast");
    expect(mail.text).toContain("Olá Rui Sousa,");
    expect(mail.text).toContain("expira dentro de 30 minutos.");
    expect(mail.text).toMatch(/\/reset-password\?token=/);

    await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: "en" });
    await forgot({ "accept-language": "pt-PT" });
    const english = await waitForMail(t.dataDir, s.email, /reset the password/);
    expect(english.subject).toBe("Reset your Gradecast password");
    expect(english.text).toContain("Hello Rui Sousa,");
  });

  test("both emails of an address change in the person's language", async ({ t }) => {
    const s = await signIn(t, "student", { name: "Marta Lopes" });
    await callApi(t, "PUT", "/api/me/locale", s.auth, { locale: "pt-PT" });
    const next = uniqueEmail("marta-new");
    const res = await callApi(t, "PATCH", "/api/me/email", s.auth, { email: next });
    expect(res.statusCode, res.body).toBe(200);
    const old = await waitForMail(t.dataDir, s.email, /foi alterado para/);
    expect(old.subject).toBe("O endereço de email da sua conta Gradecast foi alterado");
    expect(old.text).toContain(
      `O endereço de email da sua conta Gradecast foi alterado para ${next}.`,
    );
    const code = await waitForMail(t.dataDir, next, /verificação/);
    expect(code.text).toContain("Olá Marta Lopes,");
  });

  test("teacher requests, approvals and refusals in each recipient's language", async ({ t }) => {
    const admin = await signIn(t, "admin", { name: "Ana Admin" });
    await callApi(t, "PUT", "/api/me/locale", admin.auth, { locale: "pt-PT" });
    const ask = async (name: string) => {
      const email = uniqueEmail("prof");
      const res = await callApi(
        t,
        "POST",
        "/api/auth/register",
        { "accept-language": "pt-PT" },
        { name, email, password: "correct horse battery staple", role: "teacher" },
      );
      expect(res.statusCode, res.body).toBe(201);
      const auth = {
        authorization: `Bearer ${
          (
            await callApi(
              t,
              "POST",
              "/api/auth/login",
              {},
              {
                email,
                password: "correct horse battery staple",
              },
            )
          ).json().token
        }`,
      };
      await callApi(t, "PUT", "/api/me/locale", auth, { locale: "pt-PT" });
      const code = /é (\d{6})\./.exec(
        (await waitForMail(t.dataDir, email, /verificação/)).text,
      )?.[1];
      const verified = await callApi(t, "POST", "/api/verify", auth, { code });
      expect(verified.statusCode, verified.body).toBe(200);
      return { email, uid: res.json().user.uid as string };
    };
    const joana = await ask("Joana Reis");
    const request = await waitForMail(t.dataDir, admin.email, /Joana Reis/);
    expect(request.subject).toBe("Joana Reis pede para ser professor no Gradecast");
    expect(request.text).toContain("Olá Ana Admin,");
    expect(request.text).toContain(`Joana Reis (${joana.email}) registou-se como professor`);

    const approved = await callApi(t, "PATCH", `/api/admin/users/${joana.uid}`, admin.auth, {
      role: "teacher",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const yes = await waitForMail(t.dataDir, joana.email, /aprovou a sua conta/);
    expect(yes.subject).toBe("A sua conta de professor no Gradecast foi aprovada");
    expect(yes.text).toContain("Olá Joana Reis,");

    const pedro = await ask("Pedro Neves");
    const refused = await callApi(
      t,
      "POST",
      `/api/admin/users/${pedro.uid}/reject-teacher`,
      admin.auth,
    );
    expect(refused.statusCode, refused.body).toBe(200);
    const no = await waitForMail(t.dataDir, pedro.email, /recusou o seu pedido/);
    expect(no.subject).toBe("O seu pedido de conta de professor no Gradecast não foi aprovado");
  });

  test("the reports export in pt-PT: BOM, semicolons, Portuguese headers", async ({ t }) => {
    const teacher = await signIn(t, "teacher");
    const filed = await callApi(t, "POST", "/api/reports", teacher.auth, {
      ...validReport,
      studentName: "Luís Semicolon; Santos",
    });
    expect(filed.statusCode).toBe(201);
    const res = await callApi(t, "GET", "/api/reports/export.csv?search=Semicolon", {
      ...teacher.auth,
      "accept-language": "pt-PT",
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const [header, row] = res.body.slice(1).split("\r\n");
    expect(header?.split(";").slice(0, 3)).toEqual(["Aluno", "Curso", "Notas (em 100)"]);
    expect(row?.startsWith('"Luís Semicolon; Santos";Mathematics;61;88;4;')).toBe(true);

    const english = await callApi(t, "GET", "/api/reports/export.csv?search=Semicolon", {
      ...teacher.auth,
      "accept-language": "en",
    });
    expect(english.body.slice(1).split("\r\n")[0]?.split(",").slice(0, 2)).toEqual([
      "Student",
      "Course",
    ]);
  });
});

describe("CSV figures and imports in either language", () => {
  it("decimals take a comma in pt-PT and a point in English", () => {
    expect(csvRow(["Ana", 12.5, "11.2-13.4", "85.5%", "2026-11-28"], csvFormatOf("pt-PT"))).toBe(
      "Ana;12,5;11,2-13,4;85,5%;2026-11-28\r\n",
    );
    expect(csvRow(["Ana", 12.5, "=1+1"], csvFormatOf("en"))).toBe("Ana,12.5,'=1+1\r\n");
  });

  it("a school record file with semicolons and decimal commas is read", async () => {
    const students = [
      { id: "s1", name: "Luís Santos", email: "luis@example.org" },
      { id: "s2", name: "Ana Sá", email: "ana@example.org" },
    ];
    const file =
      "\uFEFFemail;G1;G2;absences;sat\r\nluis@example.org;14,0;15;3;sim\r\nana@example.org;12.0;;0;não\r\n";
    const parsed = await parseRecordFile(Buffer.from(file, "utf8"), students);
    expect(parsed.errors).toEqual({});
    expect(parsed.rows.map((r) => r.values)).toEqual([
      { G1: 14, G2: 15, absences: 3, sat: true },
      { G1: 12, absences: 0, sat: false },
    ]);
    const half = await parseRecordFile(
      Buffer.from("email;G1\r\nluis@example.org;12,5\r\n", "utf8"),
      students,
    );
    expect(Object.keys(half.errors)).toEqual(["line 2"]);
  });
});
