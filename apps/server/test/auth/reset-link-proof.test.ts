import { randomBytes } from "node:crypto";
import { messages } from "@gradecast/contract/messages";
import { beforeAll, describe, expect, it } from "vitest";
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
import { dialects, errorOf } from "../support/helpers.ts";
import { signedInFor, testAppFor } from "../support/shared-app.ts";

// Issue 26, the account takeover: a reset link (or a verification code) mailed to the address an
// account had proves that address only. An email change ends every emailed proof of the
// account, so a link sent before it neither verifies the new, unproven address (which would
// accept the teacher or class invitations waiting for it) nor lets the old mailbox take the
// account back.

const newPassword = "a brand new passphrase 26";

describe.each(dialects)("a reset link proves only its own address (%s)", (dialect) => {
  const t = testAppFor(dialect, { env: { RATE_LIMITS: "off" } });
  const people = signedInFor(t, { admin: "admin", teacher: "teacher" });
  let c: ReturnType<typeof api>;
  beforeAll(() => {
    c = api(t);
  });

  const post = (url: string, payload: object, auth?: { authorization: string }) =>
    t.app.inject({
      method: "POST",
      url,
      remoteAddress: randomIp(),
      ...(auth ? { headers: auth } : {}),
      payload,
    });

  /** A reset link mailed to the student's own (proven) address. */
  async function resetLinkFor(who: SignedInUser): Promise<string> {
    const asked = await post("/api/auth/forgot-password", { email: who.email });
    expect(asked.statusCode).toBe(202);
    return resetTokenOf(await waitForMail(t.dataDir, who.email, /reset-password\?token=/));
  }

  async function changeEmail(who: SignedInUser, email: string) {
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
  async function useStaleLink(token: string) {
    const used = await post("/api/auth/reset-password", { token, password: newPassword });
    expect(used.statusCode, used.body).toBe(400);
    expect(errorOf(used.body).message).toBe(messages.resetLinkInvalid);
  }

  /** Signs in with the address and whichever password works: the account as the API shows it. */
  async function signInAs(email: string) {
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

  it("an admin's teacher invitation: an old link after an email change makes nobody a teacher", async () => {
    const invited = uniqueEmail("new.teacher");
    const invitation = await post(
      "/api/admin/invitations",
      { email: invited, name: "New Teacher" },
      people.admin.auth,
    );
    expect(invitation.statusCode).toBe(201);

    const student = await signIn(t, "student");
    const token = await resetLinkFor(student);
    await changeEmail(student, invited);
    await useStaleLink(token);

    const after = await signInAs(invited);
    expect(after.password).toBe(testPassword);
    expect(after.me).toMatchObject({ role: "student", emailVerified: false });
    const created = await post(
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

  it("a class roster invitation: an old link after an email change enrols nobody in the pupil's place", async () => {
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
    const token = await resetLinkFor(student);
    await changeEmail(student, pupil);
    await useStaleLink(token);

    const after = await signInAs(pupil);
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

  it("whoever holds the old mailbox cannot take the account back with a link sent before the change", async () => {
    const owner = await signIn(t, "student");
    const token = await resetLinkFor(owner);
    const moved = uniqueEmail("moved");
    await changeEmail(owner, moved);
    await useStaleLink(token);
    // The owner's password still signs in at the new address; the link's would-be one does not.
    expect((await postLogin(t, moved, { password: testPassword })).statusCode).toBe(200);
    expect((await postLogin(t, moved, { password: newPassword })).statusCode).toBe(401);
  });

  it("a link for the old address stored as the change was made (a race) does nothing either", async () => {
    const owner = await signIn(t, "student");
    const moved = uniqueEmail("moved");
    await changeEmail(owner, moved);
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
    await useStaleLink(token);
    expect((await postLogin(t, moved, { password: testPassword })).statusCode).toBe(200);
  });

  it("a verification code sent to the old address does not verify the new one", async () => {
    const student = await signIn(t, "student", { verified: false });
    const oldCode = codeOf(await waitForMail(t.dataDir, student.email, /code is \d{6}/));
    const invited = uniqueEmail("new.teacher");
    expect(
      (
        await post(
          "/api/admin/invitations",
          { email: invited, name: "New Teacher" },
          people.admin.auth,
        )
      ).statusCode,
    ).toBe(201);
    await changeEmail(student, invited);
    const verify = await post("/api/verify", { code: oldCode }, student.auth);
    expect(verify.statusCode).toBe(400);
    const after = await signInAs(invited);
    expect(after.me).toMatchObject({ role: "student", emailVerified: false });
  });

  it("a link used after the change by its own address still resets: the new address's link verifies it", async () => {
    const student = await signIn(t, "student", { verified: false });
    const moved = uniqueEmail("moved");
    await changeEmail(student, moved);
    const asked = await post("/api/auth/forgot-password", { email: moved });
    expect(asked.statusCode).toBe(202);
    const token = resetTokenOf(await waitForMail(t.dataDir, moved, /reset-password\?token=/));
    const used = await post("/api/auth/reset-password", { token, password: newPassword });
    expect(used.statusCode, used.body).toBe(200);
    const after = await signInAs(moved);
    expect(after.password).toBe(newPassword);
    expect(after.me.emailVerified).toBe(true);
  });
});
