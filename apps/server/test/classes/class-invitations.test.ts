import { type ClassRisk, classRiskSchema, sharingSchema } from "@gradecast/contract/class-risk";
import {
  type ClassView,
  classMessages,
  myClassInvitationsSchema,
} from "@gradecast/contract/classes";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { up as markConsent } from "../../src/db/migrations/0020-class-invitation-consent.ts";
import { up as shareWithTeachers } from "../../src/db/migrations/0021-explanation-share-teachers.ts";
import {
  type SignedInUser,
  signIn,
  uniqueEmail,
  verifyByMail,
  waitForMail,
} from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type People, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf } from "../support/helpers.ts";

// Issue 26: a roster line for an existing account is an invitation its owner accepts or
// declines; until then the class sees nothing of them (not in the class, not on its risk list).
// A student may leave a class. Sharing the full explanation applies to the teachers it was
// shared with: a class joined later, or a co-teacher added later, sees it only once the student
// shares again. Each call for each relationship: the class's teacher, its co-teacher, another
// teacher, the invited student, another student, an admin, an unverified student, a pending
// teacher (a student account waiting for approval).
const cast = {
  teacher: ["teacher", { name: "Class Teacher" }],
  coTeacher: ["teacher", { name: "Co Teacher" }],
  otherTeacher: ["teacher", { name: "Other Teacher" }],
  admin: "admin",
  otherStudent: ["student", { name: "Other Student" }],
  unverified: ["student", { verified: false }],
  pending: ["teacher", { pending: true }],
} satisfies Record<string, Person>;
const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("class invitations and leaving (%s)", (dialect) => {
  const test = tests[dialect];
  let c: ReturnType<typeof api>;
  test.beforeAll(({ t }) => {
    c = api(t);
  });

  /** A class of the teacher's with the co-teacher added, through the API. */
  async function newClass(people: People<typeof cast>, name: string): Promise<ClassView> {
    const klass = await c.createClass(people.teacher, { name });
    const added = await c.call("POST", `/api/classes/${klass.id}/teachers`, people.teacher, {
      email: people.coTeacher.email,
    });
    expect(added.statusCode, added.body).toBe(200);
    return klass;
  }
  const invite = async (people: People<typeof cast>, klass: ClassView, ...who: SignedInUser[]) => {
    const file = `name,email\n${who.map((w, i) => `Pupil ${i},${w.email}`).join("\n")}\n`;
    const res = await c.roster(people.teacher, klass.id, file, false);
    expect(res.statusCode, res.body).toBe(200);
  };
  const risk = async (who: SignedInUser, klass: ClassView): Promise<ClassRisk> => {
    const res = await c.call("GET", `/api/classes/${klass.id}/risk`, who);
    expect(res.statusCode, res.body).toBe(200);
    return classRiskSchema.parse(res.json());
  };
  const itemOf = (r: ClassRisk, who: SignedInUser) =>
    r.items.find((i) => i.studentId === who.user.uid);
  const studentIds = async (people: People<typeof cast>, klass: ClassView) => {
    const res = await c.call("GET", `/api/classes/${klass.id}/members`, people.teacher);
    return (res.json() as { students: { id: string }[] }).students.map((s) => s.id);
  };
  const invitedEmails = async (people: People<typeof cast>, klass: ClassView) => {
    const res = await c.call("GET", `/api/classes/${klass.id}/members`, people.teacher);
    return (res.json() as { invitations: { email: string }[] }).invitations.map((i) => i.email);
  };
  const myClasses = async (who: SignedInUser) =>
    ((await c.call("GET", "/api/classes", who)).json().items as ClassView[]).map((k) => k.id);
  const myInvitations = async (who: SignedInUser) => {
    const res = await c.call("GET", "/api/me/class-invitations", who);
    expect(res.statusCode, res.body).toBe(200);
    return myClassInvitationsSchema.parse(res.json()).items;
  };
  const accept = (who: SignedInUser | undefined, klass: ClassView) =>
    c.call("POST", `/api/classes/${klass.id}/invitation`, who);
  const decline = (who: SignedInUser | undefined, klass: ClassView) =>
    c.call("DELETE", `/api/classes/${klass.id}/invitation`, who);
  const leave = (who: SignedInUser | undefined, klass: ClassView) =>
    c.call("DELETE", `/api/classes/${klass.id}/enrolment`, who);
  const share = async (who: SignedInUser, on: boolean) => {
    const res = await c.call("PATCH", "/api/me/sharing", who, { shareExplanation: on });
    expect(res.statusCode, res.body).toBe(200);
    return sharingSchema.parse(res.json());
  };

  test("does not enrol a verified student from a roster: the class sees nothing of them until they accept", async ({
    t,
    people,
  }) => {
    const klass = await newClass(people, "Consent class");
    const student = await signIn(t, "student", { name: "Sara Private" });
    // Her prediction and her choice to share, made before any class.
    await c.predict(student);
    await share(student, true);

    await invite(people, klass, student);
    // Not in the class, not on its risk list, for anybody who reads it.
    expect(await studentIds(people, klass)).toEqual([]);
    expect(await invitedEmails(people, klass)).toEqual([student.email]);
    for (const who of [people.teacher, people.coTeacher, people.admin]) {
      const list = await risk(who, klass);
      expect(list.items).toEqual([]);
      expect(JSON.stringify(list)).not.toContain(student.user.uid);
    }
    expect(await myClasses(student)).toEqual([]);

    // She is told, by email and in the app.
    const mail = await waitForMail(t.dataDir, student.email, /Consent class/);
    expect(mail.text).toContain('Class: "Consent class"');
    const waiting = await myInvitations(student);
    expect(waiting).toEqual([
      {
        classId: klass.id,
        name: "Consent class",
        subject: "mat",
        year: "2026/27",
        teachers: [{ name: "Class Teacher" }, { name: "Co Teacher" }],
        invitedAt: expect.any(String),
      },
    ]);

    const accepted = await accept(student, klass);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      class: { id: klass.id, name: "Consent class" },
      message: classMessages.invitationAccepted,
    });
    expect(accepted.json().class.joinCode).toBeUndefined();
    expect(await myClasses(student)).toEqual([klass.id]);
    expect(await myInvitations(student)).toEqual([]);
    expect(await studentIds(people, klass)).toEqual([student.user.uid]);
    expect(await invitedEmails(people, klass)).toEqual([]);
    expect(await auditOf(t, "class.invitation_accepted", klass.id)).toHaveLength(1);

    // Now on the list, with her prediction; her earlier sharing was with nobody in this class.
    for (const who of [people.teacher, people.coTeacher, people.admin]) {
      const item = itemOf(await risk(who, klass), student);
      expect(item).toMatchObject({ answered: true, shared: false, explanation: null });
    }
    const sharing = await c.call("GET", "/api/me/sharing", student);
    expect(sharingSchema.parse(sharing.json())).toMatchObject({
      shareExplanation: true,
      sharedWith: [],
      notSharedWith: [
        { id: people.coTeacher.user.uid, name: "Co Teacher" },
        { id: people.teacher.user.uid, name: "Class Teacher" },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    });

    // Her prediction predates the class: the list asked for one made for the class (a job).
    await t.app.jobs.idle();
    // She shares again: the class's teachers see it, an admin (no teacher of hers) does not.
    const again = await share(student, true);
    expect(again.notSharedWith).toEqual([]);
    expect(again.sharedWith.map((p) => p.name)).toEqual(["Class Teacher", "Co Teacher"]);
    for (const who of [people.teacher, people.coTeacher]) {
      const item = itemOf(await risk(who, klass), student);
      expect(item?.shared).toBe(true);
      expect(item?.explanation?.length).toBeGreaterThan(3);
    }
    expect(itemOf(await risk(people.admin, klass), student)).toMatchObject({
      shared: false,
      explanation: null,
    });
  });

  test("answers accept and decline for each relationship", async ({ t, people }) => {
    const klass = await newClass(people, "Answer class");
    const invited = await signIn(t, "student");
    await invite(people, klass, invited, people.pending, people.unverified);

    // Nobody but the invited account answers its invitation.
    for (const who of [people.teacher, people.coTeacher, people.otherTeacher, people.admin]) {
      expect((await accept(who, klass)).statusCode).toBe(403);
      expect((await decline(who, klass)).statusCode).toBe(403);
    }
    for (const call of [accept, decline]) {
      const stranger = await call(people.otherStudent, klass);
      expect(stranger.statusCode).toBe(404);
      expect(errorOf(stranger.body).message).toBe(classMessages.myInvitationNotFound);
      const unverified = await call(people.unverified, klass);
      expect(unverified.statusCode).toBe(403);
      expect(errorOf(unverified.body).code).toBe("email_not_verified");
      expect((await call(undefined, klass)).statusCode).toBe(401);
      expect((await call(invited, { ...klass, id: "not-a-uuid" })).statusCode).toBe(404);
    }
    expect(await myInvitations(people.otherStudent)).toEqual([]);
    expect((await c.call("GET", "/api/me/class-invitations", people.teacher)).statusCode).toBe(403);
    expect(await studentIds(people, klass)).toEqual([]);
    expect((await invitedEmails(people, klass)).sort()).toEqual(
      [invited.email, people.pending.email, people.unverified.email].sort(),
    );

    // The invited student declines: gone from the class's list, never in the class.
    const declined = await decline(invited, klass);
    expect(declined.statusCode).toBe(204);
    expect(await invitedEmails(people, klass)).not.toContain(invited.email);
    expect(await myInvitations(invited)).toEqual([]);
    expect((await accept(invited, klass)).statusCode).toBe(404);
    expect(await studentIds(people, klass)).toEqual([]);
    expect(await auditOf(t, "class.invitation_declined", klass.id)).toHaveLength(1);

    // Joining by the class's code answers the invitation too.
    const coded = await signIn(t, "student");
    await invite(people, klass, coded);
    const code = (await c.call("GET", `/api/classes/${klass.id}`, people.teacher)).json().class
      .joinCode as string;
    expect((await c.join(coded, code)).statusCode).toBe(201);
    expect(await myInvitations(coded)).toEqual([]);
    expect(await invitedEmails(people, klass)).not.toContain(coded.email);
    expect((await leave(coded, klass)).statusCode).toBe(204);

    // A pending teacher is a student until approved: they may accept like one.
    expect((await myInvitations(people.pending)).map((i) => i.classId)).toEqual([klass.id]);
    expect((await accept(people.pending, klass)).statusCode).toBe(200);
    expect(await studentIds(people, klass)).toEqual([people.pending.user.uid]);
  });

  test("keeps an invitation to an unverified account waiting for its answer once the address is verified", async ({
    t,
    people,
  }) => {
    const klass = await newClass(people, "Unverified class");
    const later = await signIn(t, "student", { verified: false });
    await invite(people, klass, later);
    expect((await verifyByMail(t, later.email, later.auth)).statusCode).toBe(200);
    // Verifying proves the address, not a wish to join: the invitation waits.
    expect(await studentIds(people, klass)).toEqual([]);
    expect((await myInvitations(later)).map((i) => i.classId)).toEqual([klass.id]);
    expect((await accept(later, klass)).statusCode).toBe(200);
    expect(await studentIds(people, klass)).toEqual([later.user.uid]);
  });

  test("lets a student leave a class, and nobody else leave for them", async ({ t, people }) => {
    const klass = await newClass(people, "Leaving class");
    const student = await signIn(t, "student");
    await c.predict(student);
    await invite(people, klass, student);
    expect((await accept(student, klass)).statusCode).toBe(200);
    expect(itemOf(await risk(people.teacher, klass), student)).toBeDefined();

    for (const who of [people.teacher, people.coTeacher, people.otherTeacher, people.admin]) {
      expect((await leave(who, klass)).statusCode).toBe(403);
    }
    const stranger = await leave(people.otherStudent, klass);
    expect(stranger.statusCode).toBe(404);
    expect(errorOf(stranger.body).message).toBe(classMessages.notInClass);
    expect(errorOf((await leave(people.unverified, klass)).body).code).toBe("email_not_verified");
    expect((await leave(undefined, klass)).statusCode).toBe(401);
    expect(await studentIds(people, klass)).toEqual([student.user.uid]);

    const left = await leave(student, klass);
    expect(left.statusCode).toBe(204);
    expect(await studentIds(people, klass)).toEqual([]);
    expect(await myClasses(student)).toEqual([]);
    expect(itemOf(await risk(people.teacher, klass), student)).toBeUndefined();
    expect((await leave(student, klass)).statusCode).toBe(404);
    expect(await auditOf(t, "class.student_left", klass.id)).toHaveLength(1);
  });

  test("keeps sharing to the teachers it was given to: a later class or co-teacher asks again", async ({
    t,
    people,
  }) => {
    const first = await c.createClass(people.teacher, { name: "First class" });
    const student = await signIn(t, "student");
    await c.predict(student);
    await invite(people, first, student);
    expect((await accept(student, first)).statusCode).toBe(200);
    await share(student, true);
    expect(itemOf(await risk(people.teacher, first), student)?.shared).toBe(true);

    // A co-teacher added afterwards does not see it; nor the teacher of a class joined later.
    await c.call("POST", `/api/classes/${first.id}/teachers`, people.teacher, {
      email: people.coTeacher.email,
    });
    const second = await c.createClass(people.otherTeacher, { name: "Second class" });
    const res = await c.roster(
      people.otherTeacher,
      second.id,
      `name,email\nPupil,${student.email}\n`,
      false,
    );
    expect(res.statusCode).toBe(200);
    expect((await accept(student, second)).statusCode).toBe(200);
    expect(itemOf(await risk(people.coTeacher, first), student)?.shared).toBe(false);
    expect(itemOf(await risk(people.otherTeacher, second), student)?.shared).toBe(false);
    expect(itemOf(await risk(people.teacher, first), student)?.shared).toBe(true);

    // Leaving the second class ends the sharing with its teacher: joining again asks again.
    await share(student, true);
    expect(itemOf(await risk(people.otherTeacher, second), student)?.shared).toBe(true);
    expect((await leave(student, second)).statusCode).toBe(204);
    await c.roster(people.otherTeacher, second.id, `name,email\nPupil,${student.email}\n`, false);
    expect((await accept(student, second)).statusCode).toBe(200);
    expect(itemOf(await risk(people.otherTeacher, second), student)?.shared).toBe(false);

    // Turning sharing off ends it with everybody.
    const off = await share(student, false);
    expect(off.sharedWith).toEqual([]);
    expect(itemOf(await risk(people.teacher, first), student)?.shared).toBe(false);
  });

  test("migrates: open invitations to an existing account need its answer; sharing goes to the teachers of that moment", async ({
    t,
    people,
  }) => {
    const db = t.database.db;
    // Generated timestamp columns take a value here as any migration-era row had one.
    const at = (iso: string) => new Date(iso) as never;
    const student = await signIn(t, "student");
    // Class A: the student was in it, taught by the teacher, before turning sharing on. Class B:
    // enrolled afterwards (a roster, without her say): its teacher must not inherit the choice.
    const classA = await makeClass(t, { teachers: [], name: "Migrated A" });
    const classB = await makeClass(t, { teachers: [], name: "Migrated B" });
    await db
      .insertInto("class_teachers")
      .values([
        { class_id: classA, teacher_id: people.teacher.user.uid, added_at: at("2026-01-01") },
        { class_id: classB, teacher_id: people.otherTeacher.user.uid, added_at: at("2026-01-01") },
      ])
      .execute();
    await db
      .insertInto("enrolments")
      .values([
        { class_id: classA, student_id: student.user.uid, enrolled_at: at("2026-02-01") },
        { class_id: classB, student_id: student.user.uid, enrolled_at: at("2026-04-01") },
      ])
      .execute();
    await db
      .insertInto("explanation_shares")
      .values({ student_id: student.user.uid, shared: true, changed_at: at("2026-03-01") })
      .onConflict((oc) =>
        oc.column("student_id").doUpdateSet({ shared: true, changed_at: at("2026-03-01") }),
      )
      .execute();
    await sql`drop table explanation_share_teachers`.execute(db);
    await shareWithTeachers(db as never);
    const shares = await db
      .selectFrom("explanation_share_teachers")
      .select("teacher_id")
      .where("student_id", "=", student.user.uid)
      .execute();
    expect(shares.map((r) => r.teacher_id)).toEqual([people.teacher.user.uid]);

    // An invitation to an address whose account existed first needs its owner's answer; one to a
    // new address keeps working as before (in the class on verification).
    const fresh = uniqueEmail("fresh");
    await db
      .insertInto("class_invitations")
      .values([
        { class_id: classA, email: student.email, name: "Existing", created_at: at("2099-01-01") },
        { class_id: classA, email: fresh, name: "New", created_at: at("2099-01-01") },
      ])
      .execute();
    await sql`alter table class_invitations drop column needs_consent`.execute(db);
    await markConsent(db as never);
    const marked = await db
      .selectFrom("class_invitations")
      .select(["email", "needs_consent"])
      .where("class_id", "=", classA)
      .orderBy("name")
      .execute();
    expect(marked).toEqual([
      { email: student.email, needs_consent: true },
      { email: fresh, needs_consent: false },
    ]);
  });
});
