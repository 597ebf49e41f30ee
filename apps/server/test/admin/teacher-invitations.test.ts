import { messages } from "@gradecast/contract/messages";
import { teacherInvitationMessages } from "@gradecast/contract/teacher-invitations";
import { describe, expect } from "vitest";
import { updateUser } from "../../src/db/users.ts";
import {
  logIn,
  randomIp,
  readOutbox,
  register,
  type SignedInUser,
  signIn,
  uniqueEmail,
  verifyByMail,
  waitForMail,
} from "../support/accounts.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// TEACHER_SIGNUP=closed: teacher accounts come only from an admin. An admin invites an address
// by email; the person registers with it and becomes a teacher once the address is verified.
const cast = { admin: ["admin", { name: "Ada Admin" }] } satisfies Record<string, Person>;
const tests = apiTests({ env: { TEACHER_SIGNUP: "closed", RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("teacher invitations (%s)", (dialect) => {
  const test = tests[dialect];

  const invite = (t: TestApp, who: SignedInUser | undefined, payload: object) =>
    t.app.inject({
      method: "POST",
      url: "/api/admin/invitations",
      remoteAddress: randomIp(),
      headers: who ? who.auth : {},
      payload,
    });
  const registerAs = (t: TestApp, email: string, role: "teacher" | "student") =>
    register(t, { name: "Tia Teacher", email, role });
  const createClass = (t: TestApp, auth: { authorization: string }, name: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/classes",
      headers: auth,
      payload: { name, subject: "mat", year: "2026" },
    });
  const invitations = async (t: TestApp) =>
    t.database.db.selectFrom("teacher_invitations").select(["email", "name"]).execute();

  test("an invited address registers as a teacher and becomes one when verified", async ({
    t,
    people,
  }) => {
    const email = uniqueEmail("invited");
    const refused = await registerAs(t, uniqueEmail("uninvited"), "teacher");
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused.body).message).toBe(messages.teacherSignupClosed);

    const res = await invite(t, people.admin, { email: email.toUpperCase(), name: "Tia Teacher" });
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toMatchObject({ email, name: "Tia Teacher" });
    const mail = await waitForMail(t.dataDir, email, /invited you to Gradecast as a teacher/);
    expect(mail.text).toContain("Ada Admin");
    expect(mail.text).toContain("/register");
    const [entry] = await t.database.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "admin.teacher_invited")
      .execute();
    expect(entry?.actor_id).toBe(people.admin.user.uid);
    const listed = await t.app.inject({
      method: "GET",
      url: "/api/admin/invitations",
      headers: people.admin.auth,
    });
    expect(listed.json().items.map((i: { email: string }) => i.email)).toContain(email);

    const registered = await registerAs(t, email, "teacher");
    expect(registered.statusCode).toBe(201);
    // Not a teacher before the address is proven.
    expect(registered.json().user).toMatchObject({ role: "student", pendingRole: "teacher" });
    const address = randomIp();
    const auth = await logIn(t, email, address);
    const early = await createClass(t, auth, "Early");
    expect(early.statusCode).toBe(403);

    expect((await verifyByMail(t, email, auth)).statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/me", headers: auth });
    expect(me.json()).toMatchObject({ role: "teacher", pendingRole: null, emailVerified: true });
    const created = await createClass(t, auth, "Now a teacher");
    expect(created.statusCode).toBe(201);
    expect((await invitations(t)).map((i) => i.email)).not.toContain(email);
    const accepted = await auditOf(t, "auth.teacher_invitation_accepted", me.json().uid);
    expect(accepted).toHaveLength(1);
  });

  test("refuses non-admins, bad input and addresses that already have an account", async ({
    t,
    people,
  }) => {
    // Under closed no teacher signs up: one made by hand (the access check reads the role anew).
    const teacher = await signIn(t, "student");
    await updateUser(t.database.db, teacher.user.uid, { role: "teacher" }, new Date());
    const student = await signIn(t, "student");
    const before = await invitations(t);
    const email = uniqueEmail("nope");
    expect((await invite(t, undefined, { email, name: "X" })).statusCode).toBe(401);
    expect((await invite(t, teacher, { email, name: "X" })).statusCode).toBe(403);
    expect((await invite(t, student, { email, name: "X" })).statusCode).toBe(403);
    const bad = await invite(t, people.admin, { email: "not-an-email", name: " " });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {}).sort()).toEqual(["email", "name"]);
    const taken = await invite(t, people.admin, { email: student.email, name: "Student" });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken.body).message).toBe(teacherInvitationMessages.accountExists);
    expect(await invitations(t)).toEqual(before);
    expect((await readOutbox(t.dataDir)).filter((m) => m.to.includes(email))).toEqual([]);
  });
});
