import { type ClassView, classMessages } from "@gradecast/contract/classes";
import { messages } from "@gradecast/contract/messages";
import { teacherInvitationMessages } from "@gradecast/contract/teacher-invitations";
import { describe, expect } from "vitest";
import { createOrPromoteAdmin } from "../../src/users/admin.ts";
import {
  logIn,
  randomIp,
  register,
  type SignedInUser,
  testPassword,
  uniqueEmail,
  verifyByMail,
} from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Invitations are taken back by who sent them (issue 17): an admin cancels a teacher
// invitation, a class's teachers (or an admin) a roster invitation of the class. A cancelled
// invitation is gone from its list, is audited, and no longer makes the address a teacher or
// enrols it; nobody else can cancel one, and nothing else changes when they try.
const cast = {
  admin: ["admin", { name: "Ada Admin" }],
  student: ["student", { name: "Stu Dent" }],
} satisfies Record<string, Person>;
const tests = apiTests({ env: { TEACHER_SIGNUP: "closed", RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("cancelling invitations (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;
  // Teachers cannot sign up here, so the file's two are made as an admin would make them.
  let teacher: SignedInUser;
  let otherTeacher: SignedInUser;

  test.beforeAll(async ({ t }) => {
    c = api(t);
    teacher = await closedTeacher(t, "Ana Teacher");
    otherTeacher = await closedTeacher(t, "Otto Other");
  });

  /** Under TEACHER_SIGNUP=closed a teacher comes from `admin:create --role teacher`. */
  async function closedTeacher(t: TestApp, name: string): Promise<SignedInUser> {
    const email = uniqueEmail("teacher");
    await createOrPromoteAdmin(t.database.db, {
      email,
      name,
      password: testPassword,
      role: "teacher",
    });
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      remoteAddress: randomIp(),
      payload: { email, password: testPassword },
    });
    const body = res.json() as { token: string; user: SignedInUser["user"] };
    const auth = { authorization: `Bearer ${body.token}` };
    return {
      token: body.token,
      user: body.user,
      auth,
      refreshToken: "",
      email,
      password: testPassword,
    };
  }

  const registerAs = (t: TestApp, email: string, role: "teacher" | "student") =>
    register(t, { name: "Nia Newcomer", email, role });

  test("an admin cancels a teacher invitation: gone, audited, and the address is not let in as a teacher", async ({
    t,
    people,
  }) => {
    const email = uniqueEmail("cancelled-teacher");
    const invited = await c.call("POST", "/api/admin/invitations", people.admin, {
      email,
      name: "Tia Teacher",
    });
    expect(invited.statusCode).toBe(201);
    const url = `/api/admin/invitations/${encodeURIComponent(email.toUpperCase())}`;

    // Nobody but an admin; a teacher's try changes nothing.
    for (const who of [teacher, people.student, undefined]) {
      const refused = await c.call("DELETE", url, who);
      expect(refused.statusCode).toBe(who ? 403 : 401);
    }
    const cancelled = await c.call("DELETE", url, people.admin);
    expect(cancelled.statusCode).toBe(204);
    const list = await c.call("GET", "/api/admin/invitations", people.admin);
    expect((list.json().items as { email: string }[]).map((i) => i.email)).not.toContain(email);
    const entries = await t.database.db
      .selectFrom("audit_log")
      .select(["actor_id", "details"])
      .where("action", "=", "admin.teacher_invitation_cancelled")
      .execute();
    const details = entries.map((e) =>
      typeof e.details === "string" ? JSON.parse(e.details) : e.details,
    );
    expect(details).toContainEqual(expect.objectContaining({ email, name: "Tia Teacher" }));
    expect(entries.every((e) => e.actor_id === people.admin.user.uid)).toBe(true);

    // Under TEACHER_SIGNUP=closed the address can no longer register as a teacher.
    const refused = await registerAs(t, email, "teacher");
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused.body).message).toBe(messages.teacherSignupClosed);

    const again = await c.call("DELETE", url, people.admin);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again.body).message).toBe(teacherInvitationMessages.notFound);
    const bad = await c.call("DELETE", "/api/admin/invitations/not-an-email", people.admin);
    expect(bad.statusCode).toBe(404);
  });

  test("a class teacher cancels a roster invitation: gone, audited, and the address is not enrolled", async ({
    t,
    people,
  }) => {
    const klass: ClassView = await c.createClass(teacher, { name: "Cancel class" });
    const kept = uniqueEmail("kept");
    const dropped = uniqueEmail("dropped");
    const imported = await c.roster(
      teacher,
      klass.id,
      `name,email\nKeep Me,${kept}\nDrop Me,${dropped}\n`,
      false,
    );
    expect(imported.statusCode).toBe(200);
    const url = `/api/classes/${klass.id}/invitations/${encodeURIComponent(dropped)}`;
    const invitations = async () => {
      const res = await c.call("GET", `/api/classes/${klass.id}/members`, teacher);
      return (res.json().invitations as { email: string }[]).map((i) => i.email).sort();
    };

    // A teacher of another class does not find the class; a student may not call at all.
    const other = await c.call("DELETE", url, otherTeacher);
    expect(other.statusCode).toBe(404);
    expect(errorOf(other.body).message).toBe(classMessages.classNotFound);
    expect((await c.call("DELETE", url, people.student)).statusCode).toBe(403);
    expect(await invitations()).toEqual([kept, dropped].sort());

    const cancelled = await c.call("DELETE", url, teacher);
    expect(cancelled.statusCode).toBe(204);
    expect(await invitations()).toEqual([kept]);
    const [entry] = await auditOf(t, "class.invitation_cancelled", klass.id);
    expect(entry?.actor_id).toBe(teacher.user.uid);
    expect(entry?.details).toMatchObject({ email: dropped, name: "Drop Me" });
    const again = await c.call("DELETE", url, teacher);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again.body).message).toBe(classMessages.invitationNotFound);

    // The address registers and verifies: not in the class.
    expect((await registerAs(t, dropped, "student")).statusCode).toBe(201);
    const auth = await logIn(t, dropped);
    expect((await verifyByMail(t, dropped, auth)).statusCode).toBe(200);
    const mine = await t.app.inject({ method: "GET", url: "/api/classes", headers: auth });
    expect(mine.json().items).toEqual([]);

    // An admin may cancel the class's other invitation.
    const byAdmin = await c.call(
      "DELETE",
      `/api/classes/${klass.id}/invitations/${encodeURIComponent(kept)}`,
      people.admin,
    );
    expect(byAdmin.statusCode).toBe(204);
    expect(await invitations()).toEqual([]);
  });
});
