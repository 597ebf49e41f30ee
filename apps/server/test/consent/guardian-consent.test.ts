import type { User } from "@gradecast/contract/auth";
import type { ClassRisk, RiskItem } from "@gradecast/contract/class-risk";
import {
  type ConsentStatus,
  type ConsentView,
  consentLinkDays,
  consentMessages,
  consentTexts,
  consentTextVersion,
} from "@gradecast/contract/consent";
import { privacyNoticeVersion } from "@gradecast/contract/privacy";
import { describe, expect } from "vitest";
import { newestConsent } from "../../src/db/consents.ts";
import {
  postLogin,
  randomIp,
  register,
  type SignedInUser,
  testPassword,
  uniqueEmail,
} from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTest, apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, recordingMailer, type TestApp } from "../support/helpers.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// Issue 31 part B: under LEGAL_BASIS=consent a student under the age of digital consent answers
// and is predicted only with a guardian's consent, given through an emailed link; the consent can
// be withdrawn (by the guardian's link or an admin), which stops predictions and hides them from
// teachers. Under public-task nothing of it applies.

const mailer = recordingMailer();
const tests = apiTests({
  env: { RATE_LIMITS: "off", LEGAL_BASIS: "consent", DIGITAL_CONSENT_AGE: "13" },
  services: { mailer },
  clock: true,
});

/** A date of birth `years` years (and a month) before today, YYYY-MM-DD. */
function bornYearsAgo(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 10);
}

/** Registers a student (with a date of birth `years` ago, unless null) and verifies the address; its id. */
async function registerVerified(
  t: TestApp,
  name: string,
  email: string,
  years: number | null,
): Promise<string> {
  const res = await register(t, {
    name,
    email,
    role: "student",
    ...(years === null ? {} : { dateOfBirth: bornYearsAgo(years) }),
  });
  expect(res.statusCode, res.body).toBe(201);
  const uid = (res.json() as { user: User }).user.uid;
  await t.database.db
    .updateTable("users")
    .set({ email_verified: true })
    .where("id", "=", uid)
    .execute();
  return uid;
}

/** Registers a student with a date of birth (as the registration form asks under consent). */
async function student(t: TestApp, years: number | null): Promise<SignedInUser> {
  const email = uniqueEmail("pupil");
  await registerVerified(t, `Pupil ${years}`, email, years);
  const login = await postLogin(t, email);
  const body = login.json() as { token: string; user: User };
  return {
    token: body.token,
    user: body.user,
    auth: { authorization: `Bearer ${body.token}` },
    refreshToken: "",
    email,
    password: testPassword,
  };
}

const status = async (t: TestApp, who: SignedInUser) => {
  const res = await api(t).call("GET", "/api/consent/mine", who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ConsentStatus;
};
const ask = (t: TestApp, who: SignedInUser, guardianEmail: string) =>
  api(t).call("POST", "/api/consent/request", who, { guardianEmail });
/** A guardian's call; a confirmation names the text version read (the English one unless told). */
const guardianCall = (
  t: TestApp,
  what: "view" | "confirm" | "withdraw",
  token: string,
  textVersion = consentTextVersion,
) =>
  api(t).call(
    "POST",
    `/api/consent/${what}`,
    undefined,
    what === "confirm" ? { token, textVersion } : { token },
  );
/** The guardian's page asking in a language, as the web sends it (Accept-Language). */
const viewIn = (t: TestApp, token: string, language: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/consent/view",
    headers: { "accept-language": language },
    payload: { token },
    remoteAddress: randomIp(),
  });
const save = (t: TestApp, who: SignedInUser) =>
  api(t).call("POST", "/api/students", who, sampleQuestionnaire);
const predict = (t: TestApp, who: SignedInUser) =>
  api(t).call("POST", "/api/predict", who, sampleQuestionnaire);

/** The newest mail to an address, and the token of its link (/consent or /consent/withdraw). */
function tokenMailedTo(to: string, kind: "consent" | "withdraw"): string {
  const mail = mailer.sent.filter((m) => m.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const re =
    kind === "consent"
      ? /\/consent\?token=([A-Za-z0-9_-]+)/
      : /\/consent\/withdraw\?token=([A-Za-z0-9_-]+)/;
  const token = re.exec(mail.text)?.[1];
  if (!token) throw new Error(`no ${kind} link in: ${mail.text}`);
  return token;
}

/** The whole consent: requested by the student, confirmed by the guardian; the guardian's address. */
async function consented(t: TestApp, who: SignedInUser): Promise<string> {
  const guardian = uniqueEmail("guardian");
  expect((await ask(t, who, guardian)).statusCode).toBe(202);
  const res = await guardianCall(t, "confirm", tokenMailedTo(guardian, "consent"));
  expect(res.statusCode, res.body).toBe(200);
  return guardian;
}

function refusedForConsent(res: { statusCode: number; body: string }, message: string) {
  expect(res.statusCode, res.body).toBe(403);
  const error = errorOf(res.body);
  expect(error.code).toBe("guardian_consent_required");
  expect(error.message).toBe(message);
}

describe.each(dialects)("guardian consent (%s)", (dialect) => {
  const test = tests[dialect];
  test.afterEach(({ clock }) => clock.reset());

  test("registration under consent asks a student's date of birth, and records the notice seen", async ({
    t,
  }) => {
    const missing = await register(t, { name: "No Date", email: uniqueEmail(), role: "student" });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing.body).fields?.dateOfBirth).toBe(consentMessages.dateOfBirthNeeded);
    const future = await register(t, {
      name: "Future",
      email: uniqueEmail(),
      role: "student",
      dateOfBirth: "2999-01-01",
    });
    expect(future.statusCode).toBe(400);
    expect(errorOf(future.body).fields?.dateOfBirth).toBeTruthy();
    // A teacher is not asked.
    const teacher = await register(t, { name: "T", email: uniqueEmail(), role: "teacher" });
    expect(teacher.statusCode, teacher.body).toBe(201);

    const pupil = await student(t, 12);
    const row = await t.database.db
      .selectFrom("users")
      .select(["notice_version"])
      .where("id", "=", pupil.user.uid)
      .executeTakeFirstOrThrow();
    expect(row.notice_version).toBe(privacyNoticeVersion);
  });

  test("a 12-year-old cannot answer until the guardian follows the link, then answers", async ({
    t,
  }) => {
    const pupil = await student(t, 12);
    expect(await status(t, pupil)).toMatchObject({ state: "needed", legalBasis: "consent" });
    refusedForConsent(await save(t, pupil), consentMessages.required);
    refusedForConsent(await predict(t, pupil), consentMessages.required);
    // What-if calls read the same answers: refused too.
    refusedForConsent(
      await api(t).call("POST", "/api/predict?store=false", pupil, sampleQuestionnaire),
      consentMessages.required,
    );

    const own = await ask(t, pupil, pupil.email);
    expect(own.statusCode).toBe(400);
    expect(errorOf(own.body).fields?.guardianEmail).toBeTruthy();

    const guardian = uniqueEmail("guardian");
    const asked = await ask(t, pupil, guardian);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ state: "pending", guardianEmail: guardian });
    const token = tokenMailedTo(guardian, "consent");
    // Asking again at once is refused (the resend limit), and sends nothing.
    const sent = mailer.sent.length;
    const again = await ask(t, pupil, guardian);
    expect(again.statusCode).toBe(429);
    expect(mailer.sent.length).toBe(sent);

    const view = await guardianCall(t, "view", token);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      studentName: pupil.user.name,
      guardianEmail: guardian,
      textVersion: consentTextVersion,
      state: "pending",
    } satisfies Partial<ConsentView>);
    // Viewing consents to nothing.
    refusedForConsent(await save(t, pupil), consentMessages.required);

    const confirmed = await guardianCall(t, "confirm", token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((confirmed.json() as ConsentView).state).toBe("given");
    const after = await status(t, pupil);
    expect(after.state).toBe("given");
    expect(after.consentedAt).not.toBeNull();
    const row = await t.database.db
      .selectFrom("guardian_consents")
      .selectAll()
      .where("student_id", "=", pupil.user.uid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ guardian_email: guardian, text_version: consentTextVersion });
    expect(row.token_hash).not.toContain(token);
    expect(row.consented_at).not.toBeNull();
    const [entry] = await auditOf(t, "consent.given", pupil.user.uid);
    expect(JSON.stringify(entry?.details)).not.toContain(guardian);

    const saved = await save(t, pupil);
    expect(saved.statusCode, saved.body).toBe(201);
    expect((await predict(t, pupil)).statusCode).toBe(200);
    const answers = await t.database.db
      .selectFrom("students")
      .select("notice_version")
      .where("user_id", "=", pupil.user.uid)
      .executeTakeFirstOrThrow();
    expect(answers.notice_version).toBe(privacyNoticeVersion);
    // The confirmation mail carries the withdrawal link.
    expect(tokenMailedTo(guardian, "withdraw")).toBeTruthy();
  });

  test("the text is read in the guardian's language, and its version recorded; an unknown one is refused", async ({
    t,
  }) => {
    const versionOf = async (who: SignedInUser) =>
      (await newestConsent(t.database.db, who.user.uid))?.textVersion;

    // A Portuguese reader: the Portuguese text and its own version.
    const rita = await student(t, 12);
    const ritaGuardian = uniqueEmail("guardian");
    await ask(t, rita, ritaGuardian);
    const token = tokenMailedTo(ritaGuardian, "consent");
    const pt = await viewIn(t, token, "pt-PT,pt;q=0.9,en;q=0.5");
    expect(pt.statusCode, pt.body).toBe(200);
    expect(pt.headers.vary).toContain("Accept-Language");
    const ptView = pt.json() as ConsentView;
    expect(ptView.text).toBe(consentTexts["pt-PT"]);
    expect(ptView.text).toMatch(/^O Gradecast é a ferramenta da escola/);
    expect(ptView.textVersion).toBe(`${consentTextVersion}/pt-PT`);
    const en = (await viewIn(t, token, "en-GB")).json() as ConsentView;
    expect(en).toMatchObject({ text: consentTexts.en, textVersion: consentTextVersion });

    // A version this server has no text for is refused, and nothing changes.
    const mails = mailer.sent.length;
    for (const unknown of ["2026-11-28/pt-BR", "2025-01-01", "2026-11-28/", "latest"]) {
      const refused = await guardianCall(t, "confirm", token, unknown);
      expect(refused.statusCode, unknown).toBe(400);
      expect(errorOf(refused.body)).toEqual({
        code: "unknown_text_version",
        message: consentMessages.textVersionUnknown,
      });
    }
    const empty = await guardianCall(t, "confirm", token, "");
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty.body).code).toBe("validation_failed");
    expect((await status(t, rita)).state).toBe("pending");
    expect(await versionOf(rita)).toBeNull();
    expect(await auditOf(t, "consent.given", rita.user.uid)).toEqual([]);
    expect(mailer.sent.length).toBe(mails);
    refusedForConsent(await save(t, rita), consentMessages.required);

    const given = await guardianCall(t, "confirm", token, ptView.textVersion);
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toMatchObject({ state: "given", text: ptView.text });
    expect(await versionOf(rita)).toBe(`${consentTextVersion}/pt-PT`);
    const [entry] = await auditOf(t, "consent.given", rita.user.uid);
    expect(entry?.details).toEqual({ textVersion: `${consentTextVersion}/pt-PT` });
    // Read again later in English, the page still shows the Portuguese text agreed to.
    expect((await viewIn(t, token, "en")).json()).toMatchObject({
      state: "given",
      text: consentTexts["pt-PT"],
      textVersion: `${consentTextVersion}/pt-PT`,
    });

    // An English reader: the English version, as before.
    const tom = await student(t, 11);
    const tomGuardian = uniqueEmail("guardian");
    await ask(t, tom, tomGuardian);
    const tomToken = tokenMailedTo(tomGuardian, "consent");
    const tomView = (await viewIn(t, tomToken, "en")).json() as ConsentView;
    const tomGiven = await guardianCall(t, "confirm", tomToken, tomView.textVersion);
    expect(tomGiven.statusCode, tomGiven.body).toBe(200);
    expect(await versionOf(tom)).toBe(consentTextVersion);
    expect((await status(t, tom)).state).toBe("given");
  });

  test("a link expires after its days, and a new request ends the previous link", async ({
    t,
    clock,
  }) => {
    const pupil = await student(t, 12);
    const guardian = uniqueEmail("guardian");
    await ask(t, pupil, guardian);
    const first = tokenMailedTo(guardian, "consent");
    // The link's days pass (moved in the database: the student's own sign-in would expire too).
    const past = (days: number) => new Date(clock.now().getTime() - days * 86_400_000);
    await t.database.db
      .updateTable("guardian_consents")
      .set({ created_at: past(consentLinkDays + 1), expires_at: past(1 / 24) })
      .where("student_id", "=", pupil.user.uid)
      .execute();
    const expired = await guardianCall(t, "confirm", first);
    expect(expired.statusCode).toBe(400);
    expect(errorOf(expired.body)).toMatchObject({
      code: "invalid_token",
      message: consentMessages.linkInvalid,
    });
    expect((await status(t, pupil)).state).toBe("needed");
    refusedForConsent(await save(t, pupil), consentMessages.required);

    // A fresh request: its link works, the old one stays dead.
    await ask(t, pupil, guardian);
    const second = tokenMailedTo(guardian, "consent");
    expect(second).not.toBe(first);
    expect((await guardianCall(t, "view", first)).statusCode).toBe(400);
    clock.tick(61_000);
    await ask(t, pupil, guardian);
    const third = tokenMailedTo(guardian, "consent");
    // The second was superseded by the third before anyone followed it.
    expect((await guardianCall(t, "confirm", second)).statusCode).toBe(400);
    expect((await guardianCall(t, "confirm", third)).statusCode).toBe(200);
  });

  test("a link consents for its own student only; a tampered token consents to nothing", async ({
    t,
  }) => {
    const amy = await student(t, 12);
    const ben = await student(t, 11);
    const guardian = uniqueEmail("guardian");
    await ask(t, amy, guardian);
    const token = tokenMailedTo(guardian, "consent");
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [tampered, "x", token.toUpperCase()]) {
      const res = await guardianCall(t, "confirm", bad);
      expect(res.statusCode, bad).toBe(400);
      expect(errorOf(res.body).code).toBe("invalid_token");
    }
    expect((await status(t, amy)).state).toBe("pending");
    // Amy's guardian's link is for Amy: Ben, who asked nobody, still cannot answer.
    expect((await guardianCall(t, "confirm", token)).statusCode).toBe(200);
    expect((await status(t, amy)).state).toBe("given");
    expect((await status(t, ben)).state).toBe("needed");
    refusedForConsent(await save(t, ben), consentMessages.required);
    // The withdrawal link is no consent link, nor the other way round.
    const withdraw = tokenMailedTo(guardian, "withdraw");
    expect((await guardianCall(t, "confirm", withdraw)).statusCode).toBe(400);
    expect((await guardianCall(t, "withdraw", token)).statusCode).toBe(400);
    expect((await status(t, amy)).state).toBe("given");
  });

  test("the guardian's withdrawal stops predictions and hides them from the class's teachers", async ({
    t,
    signedIn,
  }) => {
    const teacher = await signedIn("teacher");
    const pupil = await student(t, 12);
    const classId = await makeClass(t, {
      teachers: [teacher.user.uid],
      students: [pupil.user.uid],
    });
    const guardian = await consented(t, pupil);
    expect((await predict(t, pupil)).statusCode).toBe(200);
    const itemOf = async (): Promise<RiskItem> => {
      const res = await api(t).call("GET", `/api/classes/${classId}/risk`, teacher);
      expect(res.statusCode, res.body).toBe(200);
      const item = (res.json() as ClassRisk).items.find((i) => i.studentId === pupil.user.uid);
      if (!item) throw new Error("not on the list");
      return item;
    };
    expect((await itemOf()).prediction).not.toBeNull();

    const res = await guardianCall(t, "withdraw", tokenMailedTo(guardian, "withdraw"));
    expect(res.statusCode, res.body).toBe(200);
    expect((await status(t, pupil)).state).toBe("withdrawn");
    refusedForConsent(await predict(t, pupil), consentMessages.withdrawn);
    refusedForConsent(await save(t, pupil), consentMessages.withdrawn);
    const hidden = await itemOf();
    expect(hidden.prediction).toBeNull();
    expect(hidden.answered).toBe(false);
    expect(await auditOf(t, "consent.withdrawn", pupil.user.uid)).toHaveLength(1);
    // Following the link again changes nothing.
    expect(
      (await guardianCall(t, "withdraw", tokenMailedTo(guardian, "withdraw"))).statusCode,
    ).toBe(200);
  });

  test("an admin withdraws on request; nobody else may", async ({ t, signedIn, admin, clock }) => {
    const teacher = await signedIn("teacher");
    const pupil = await student(t, 12);
    const other = await student(t, 12);
    await consented(t, pupil);
    const url = `/api/admin/users/${pupil.user.uid}/consent/withdraw`;
    for (const who of [pupil, other, teacher]) {
      expect((await api(t).call("POST", url, who)).statusCode).toBe(403);
    }
    expect((await api(t).call("POST", url, undefined)).statusCode).toBe(401);
    const malformed = "/api/admin/users/not-a-uuid/consent/withdraw";
    expect((await api(t).call("POST", malformed, admin)).statusCode).toBe(404);
    expect((await status(t, pupil)).state).toBe("given");
    const res = await api(t).call("POST", url, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect((await status(t, pupil)).state).toBe("withdrawn");
    refusedForConsent(await predict(t, pupil), consentMessages.withdrawn);
    const [entry] = await auditOf(t, "consent.withdrawn", pupil.user.uid);
    expect(entry?.actor_id).toBe(admin.user.uid);
    // Twice: nothing left to withdraw.
    expect((await api(t).call("POST", url, admin)).statusCode).toBe(409);
    // The guardian may consent again through a new request.
    clock.tick(61_000);
    await consented(t, pupil);
    expect((await predict(t, pupil)).statusCode).toBe(200);
  });

  test("a student at or over the age answers freely", async ({ t }) => {
    const pupil = await student(t, 13);
    expect((await status(t, pupil)).state).toBe("not_needed");
    expect((await save(t, pupil)).statusCode).toBe(201);
    expect((await predict(t, pupil)).statusCode).toBe(200);
    expect((await ask(t, pupil, uniqueEmail("guardian"))).statusCode).toBe(409);
  });
});

// public-task (the default) changes nothing: no date of birth asked or kept, no consent needed.
const publicTask = apiTest(dialects[0]!, { env: { RATE_LIMITS: "off" } });
publicTask("public-task asks no date of birth and needs no consent", async ({ t }) => {
  const email = uniqueEmail("pupil");
  const uid = await registerVerified(t, "Young Pupil", email, 11);
  const row = await t.database.db
    .selectFrom("users")
    .select(["date_of_birth", "notice_version"])
    .where("id", "=", uid)
    .executeTakeFirstOrThrow();
  expect(row.date_of_birth).toBeNull();
  expect(row.notice_version).toBe(privacyNoticeVersion);
  const login = await postLogin(t, email);
  const auth = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
  const mine = await t.app.inject({ method: "GET", url: "/api/consent/mine", headers: auth });
  expect(mine.json()).toMatchObject({ legalBasis: "public-task", state: "not_needed" });
  const saved = await t.app.inject({
    method: "POST",
    url: "/api/students",
    headers: auth,
    payload: sampleQuestionnaire,
  });
  expect(saved.statusCode, saved.body).toBe(201);
  const predicted = await t.app.inject({
    method: "POST",
    url: "/api/predict",
    headers: auth,
    payload: sampleQuestionnaire,
  });
  expect(predicted.statusCode).toBe(200);
});
