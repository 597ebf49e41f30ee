import { randomBytes } from "node:crypto";
import { messages } from "@gradecast/contract/messages";
import { describe, expect } from "vitest";
import { sha256 } from "../../src/auth/tokens.ts";
import {
  codeOf,
  postLogin,
  randomIp,
  resetTokenOf,
  type SignedInUser,
  signIn,
  testPassword,
  uniqueEmail,
  waitForMail,
} from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Issue 26, the account takeover: a reset link (or a verification code) mailed to the address an
// account had proves that address only. An email change ends every emailed proof of the
// account, so a link sent before it neither verifies the new, unproven address (which would
// accept the teacher or class invitations waiting for it) nor lets the old mailbox take the
// account back.

const newPassword = "a brand new passphrase 26";

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: { admin: "admin", teacher: "teacher" },
});

describe.each(dialects)("a reset link proves only its own address (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;
  test.beforeAll(({ t }) => {
    c = api(t);
  });

  const post = (t: TestApp, url: string, payload: object, auth?: { authorization: string }) =>
    t.app.inject({
      method: "POST",
      url,
      remoteAddress: randomIp(),
      ...(auth ? { headers: auth } : {}),
      payload,
    });

  /** A reset link mailed to the student's own (proven) address. */
  async function resetLinkFor(t: TestApp, who: SignedInUser): Promise<string> {
    const asked = await post(t, "/api/auth/forgot-password", { email: who.email });
    expect(asked.statusCode).toBe(202);
    return resetTokenOf(await waitForMail(t.dataDir, who.email, /reset-password\?token=/));
  }

  async function changeEmail(t: TestApp, who: SignedInUser, email: string) {
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/me/email",
      remoteAddress: randomIp(),
      headers: who.auth,
      payload: { email },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** Uses the old link; it must be refused as a dead link and change nothing. */
  async function useStaleLink(t: TestApp, token: string) {
    const used = await post(t, "/api/auth/reset-password", { token, password: newPassword });
    expect(used.statusCode, used.body).toBe(400);
    expect(errorOf(used.body).message).toBe(messages.resetLinkInvalid);
  }

  /** Signs in with the address and whichever password works: the account as the API shows it. */
  async function signInAs(t: TestApp, email: string) {
    for (const password of [testPassword, newPassword]) {
      const res = await postLogin(t, email, { password });
      if (res.statusCode === 200) {
        const body = res.json() as { token: string };
        const auth = { authorization: `Bearer ${body.token}` };
        const me = await t.app.inject({ method: "GET", url: "/api/me", headers: auth });
        return { auth, password, me: me.json() as { role: string; emailVerified: boolean } };
      }
    }
    throw new Error(`no password signs ${email} in`);
  }

  test("an admin's teacher invitation: an old link after an email change makes nobody a teacher", async ({
    t,
    people,
  }) => {
    const invited = uniqueEmail("new.teacher");
    const invitation = await post(
      t,
      "/api/admin/invitations",
      { email: invited, name: "New Teacher" },
      people.admin.auth,
    );
    expect(invitation.statusCode).toBe(201);

    const student = await signIn(t, "student");
    const token = await resetLinkFor(t, student);
    await changeEmail(t, student, invited);
    await useStaleLink(t, token);

    const after = await signInAs(t, invited);
    expect(after.password).toBe(testPassword);
    expect(after.me).toMatchObject({ role: "student", emailVerified: false });
    const created = await post(
      t,
      "/api/classes",
      { name: "Taken over", subject: "mat", year: "2026/27" },
      after.auth,
    );
    expect(created.statusCode).toBe(403);
    // The invitation still waits for the person who holds that mailbox.
    const open = await t.database.db
      .selectFrom("teacher_invitations")
      .select("email")
      .where("email", "=", invited)
      .execute();
    expect(open).toHaveLength(1);
  });

  test("a class roster invitation: an old link after an email change enrols nobody in the pupil's place", async ({
    t,
    people,
  }) => {
    const klass = await c.createClass(people.teacher, { name: "Roster 26" });
    const pupil = uniqueEmail("pupil");
    const imported = await c.roster(
      people.teacher,
      klass.id,
      ["name,email", `Pia Pupil,${pupil}`, ""].join("\r\n"),
      false,
    );
    expect(imported.statusCode, imported.body).toBe(200);

    const student = await signIn(t, "student");
    const token = await resetLinkFor(t, student);
    await changeEmail(t, student, pupil);
    await useStaleLink(t, token);

    const after = await signInAs(t, pupil);
    expect(after.me).toMatchObject({ role: "student", emailVerified: false });
    const mine = await t.app.inject({ method: "GET", url: "/api/classes", headers: after.auth });
    expect(JSON.stringify(mine.json())).not.toContain(klass.id);
    const members = await c.call("GET", `/api/classes/${klass.id}/members`, people.teacher);
    const body = members.json() as {
      students: { email: string }[];
      invitations: { email: string }[];
    };
    expect(body.students).toEqual([]);
    expect(body.invitations.map((i) => i.email)).toEqual([pupil]);
  });

  test("whoever holds the old mailbox cannot take the account back with a link sent before the change", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    const token = await resetLinkFor(t, owner);
    const moved = uniqueEmail("moved");
    await changeEmail(t, owner, moved);
    await useStaleLink(t, token);
    // The owner's password still signs in at the new address; the link's would-be one does not.
    expect((await postLogin(t, moved, { password: testPassword })).statusCode).toBe(200);
    expect((await postLogin(t, moved, { password: newPassword })).statusCode).toBe(401);
  });

  test("a link for the old address stored as the change was made (a race) does nothing either", async ({
    t,
  }) => {
    const owner = await signIn(t, "student");
    const moved = uniqueEmail("moved");
    await changeEmail(t, owner, moved);
    // What a forgot-password request for the old address, worked through a moment after the
    // change committed, would leave: a live link mailed to the old mailbox.
    const token = randomBytes(32).toString("base64url");
    await t.database.db
      .insertInto("password_resets")
      .values({
        user_id: owner.user.uid,
        email: owner.email,
        token_hash: sha256(token),
        expires_at: new Date(Date.now() + 30 * 60_000),
      })
      .execute();
    await useStaleLink(t, token);
    expect((await postLogin(t, moved, { password: testPassword })).statusCode).toBe(200);
  });

  test("a verification code sent to the old address does not verify the new one", async ({
    t,
    people,
  }) => {
    const student = await signIn(t, "student", { verified: false });
    const oldCode = codeOf(await waitForMail(t.dataDir, student.email, /code is \d{6}/));
    const invited = uniqueEmail("new.teacher");
    expect(
      (
        await post(
          t,
          "/api/admin/invitations",
          { email: invited, name: "New Teacher" },
          people.admin.auth,
        )
      ).statusCode,
    ).toBe(201);
    await changeEmail(t, student, invited);
    const verify = await post(t, "/api/verify", { code: oldCode }, student.auth);
    expect(verify.statusCode).toBe(400);
    const after = await signInAs(t, invited);
    expect(after.me).toMatchObject({ role: "student", emailVerified: false });
  });

  test("a link used after the change by its own address still resets: the new address's link verifies it", async ({
    t,
  }) => {
    const student = await signIn(t, "student", { verified: false });
    const moved = uniqueEmail("moved");
    await changeEmail(t, student, moved);
    const asked = await post(t, "/api/auth/forgot-password", { email: moved });
    expect(asked.statusCode).toBe(202);
    const token = resetTokenOf(await waitForMail(t.dataDir, moved, /reset-password\?token=/));
    const used = await post(t, "/api/auth/reset-password", { token, password: newPassword });
    expect(used.statusCode, used.body).toBe(200);
    const after = await signInAs(t, moved);
    expect(after.password).toBe(newPassword);
    expect(after.me.emailVerified).toBe(true);
  });
});
