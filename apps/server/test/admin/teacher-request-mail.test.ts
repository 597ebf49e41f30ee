import type { User } from "@gradecast/contract/auth";
import type { SetupState } from "@gradecast/contract/site";
import { describe, expect, it } from "vitest";
import { createOrPromoteAdmin } from "../../src/users/admin.ts";
import {
  logIn,
  readOutbox,
  register,
  type SignedInUser,
  uniqueEmail,
  verifyByMail,
  waitForMail,
} from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp, withTestApp } from "../support/helpers.ts";

// Issue 28: a teacher's sign-up is no longer silent. Under TEACHER_SIGNUP=approval every active
// admin is emailed once the teacher has verified the address (a made-up address never reaches
// them), and the teacher is emailed when an admin approves or refuses. GET /api/setup says
// whether an admin exists yet and how teacher sign-ups are handled.

const tests = apiTests({ env: { RATE_LIMITS: "off" } });

/** Signs a teacher up through the API (waiting for approval) and signs them in. */
async function askToTeach(t: TestApp, name: string) {
  const email = uniqueEmail("asks");
  const res = await register(t, { name, email, role: "teacher" });
  expect(res.statusCode, res.body).toBe(201);
  const user = (res.json() as { user: User }).user;
  expect(user).toMatchObject({ role: "student", pendingRole: "teacher" });
  return { email, uid: user.uid, auth: await logIn(t, email) };
}

const mailsTo = async (t: TestApp, email: string, match: RegExp) =>
  (await readOutbox(t.dataDir)).filter(
    (m) => m.to.toLowerCase().includes(email.toLowerCase()) && match.test(m.text),
  );

describe.each(dialects)("teacher requests by email on %s", (dialect) => {
  const test = tests[dialect];

  test("emails every admin once the teacher verifies, never before", async ({ t, signedIn }) => {
    const first: SignedInUser = await signedIn("admin", { name: "Ada Admin" });
    const second: SignedInUser = await signedIn("admin", { name: "Bea Admin" });
    const teacher = await askToTeach(t, "Tess Asking");
    expect(await mailsTo(t, first.email, /Tess Asking/)).toEqual([]);

    const verified = await verifyByMail(t, teacher.email, teacher.auth);
    expect(verified.statusCode, verified.body).toBe(200);
    for (const admin of [first, second]) {
      const mail = await waitForMail(t.dataDir, admin.email, /Tess Asking/);
      expect(mail.subject).toBe("Tess Asking asks to be a teacher on Gradecast");
      expect(mail.text).toContain(`Tess Asking (${teacher.email}) signed up as a teacher`);
      expect(mail.text).toContain("/admin/users");
    }
  });

  test("sends no admin mail when a student verifies", async ({ t, signedIn }) => {
    const admin = await signedIn("admin");
    const email = uniqueEmail("pupil");
    await register(t, { name: "Sam Student", email, role: "student" });
    const res = await verifyByMail(t, email, await logIn(t, email));
    expect(res.statusCode, res.body).toBe(200);
    expect(await mailsTo(t, admin.email, /Sam Student/)).toEqual([]);
  });

  test("emails the teacher when an admin approves", async ({ t, signedIn }) => {
    const admin = await signedIn("admin");
    const teacher = await askToTeach(t, "Tom Approved");
    const res = await api(t).call("PATCH", `/api/admin/users/${teacher.uid}`, admin, {
      role: "teacher",
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await waitForMail(t.dataDir, teacher.email, /approved your teacher account/);
    expect(mail.subject).toBe("Your Gradecast teacher account is approved");
    expect(mail.text).toContain("Hello Tom Approved,");
  });

  test("emails the person when an admin refuses, and not when the refusal fails", async ({
    t,
    signedIn,
  }) => {
    const admin = await signedIn("admin");
    const teacher = await askToTeach(t, "Rita Refused");
    const reject = () =>
      api(t).call("POST", `/api/admin/users/${teacher.uid}/reject-teacher`, admin);
    expect((await reject()).statusCode).toBe(200);
    const mail = await waitForMail(t.dataDir, teacher.email, /refused your request/);
    expect(mail.subject).toBe("Your Gradecast teacher request was not approved");
    // Nothing waits any more: a second refusal is a 409 and mails nobody.
    expect((await reject()).statusCode).toBe(409);
    expect(await mailsTo(t, teacher.email, /refused your request/)).toHaveLength(1);
  });

  test("a student or a teacher cannot approve, and nobody is emailed", async ({
    t,
    signedIn,
    student,
  }) => {
    const teacher = await askToTeach(t, "Nina Notyet");
    const colleague = await signedIn("teacher");
    for (const who of [student, colleague]) {
      const res = await api(t).call("PATCH", `/api/admin/users/${teacher.uid}`, who, {
        role: "teacher",
      });
      expect(res.statusCode).toBe(403);
    }
    expect(await mailsTo(t, teacher.email, /approved|refused/)).toEqual([]);
  });
});

describe.each(dialects)("GET /api/setup on %s", (dialect) => {
  it.each([["approval"], ["closed"], ["open"]] as const)(
    "says no admin exists on a fresh install until one is made (TEACHER_SIGNUP=%s)",
    async (mode) => {
      await withTestApp(dialect, { env: { TEACHER_SIGNUP: mode } }, async (t) => {
        const setup = async () => {
          const res = await t.app.inject({ method: "GET", url: "/api/setup" });
          expect(res.statusCode).toBe(200);
          expect(res.headers["cache-control"]).toBe("no-store");
          return res.json() as SetupState;
        };
        expect(await setup()).toEqual({
          adminExists: false,
          teacherSignup: mode,
          oidcName: null,
          legalBasis: "public-task",
        });
        await createOrPromoteAdmin(t.database.db, {
          email: uniqueEmail("head"),
          name: "Head Teacher",
          password: "correct horse battery staple",
        });
        expect(await setup()).toEqual({
          adminExists: true,
          teacherSignup: mode,
          oidcName: null,
          legalBasis: "public-task",
        });
      });
    },
  );

  it("says the legal basis, so that the sign-up asks a student's date of birth under consent", async () => {
    await withTestApp(dialect, { env: { LEGAL_BASIS: "consent" } }, async (t) => {
      const res = await t.app.inject({ method: "GET", url: "/api/setup" });
      expect((res.json() as SetupState).legalBasis).toBe("consent");
    });
  });
});
