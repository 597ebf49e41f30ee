import type { OneRosterResult } from "@gradecast/contract/oneroster";
import { describe, expect, it } from "vitest";
import { parseMail, signIn, uniqueEmail } from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { dialects, withTestApp } from "../support/helpers.ts";
import { classNamed, classPeople, postBundle } from "../support/oneroster-api.ts";
import {
  classLine,
  courseLine,
  enrolLine,
  schoolYearFiles,
  userLine,
  zipBundle,
} from "../support/oneroster-bundle.ts";
import { smtpInbox } from "../support/smtp-inbox.ts";

// OneRoster invitations by email (issue 34, decision 0025): an address the roster invites with
// no account yet gets one email listing every class it is invited to, written to the mail outbox
// by the "oneroster.invitation-mail" job after the import and delivered by the "mail.send" job to
// a real SMTP server (here one in this process); a repeated import sends nothing again, and a
// class added later brings one new email. A teacher taken off a roster class by hand is put back by the next
// import, and its preview says so.

const inbox = smtpInbox();
const { received } = inbox;
const mailTo = (email: string) => received.filter((m) => m.to.includes(email));

/** The last of the mails to an address, which must have had `count` of them. */
function lastMailTo(email: string, count: number) {
  const mails = mailTo(email);
  expect(mails).toHaveLength(count);
  return parseMail("smtp", mails[count - 1]?.raw ?? "");
}

function school(
  teacher: string,
  student: string,
  newcomers: string[],
  coTeacher?: string,
  extraClasses = 0,
) {
  const co = coTeacher ? [coTeacher] : [];
  const extra = Array.from({ length: extraClasses }, (_, k) => k + 2);
  return schoolYearFiles({
    courses: [courseLine("c1", "Maths", "MAT101")],
    classes: [
      classLine("k1", "Maths 10A", "c1"),
      ...extra.map((k) => classLine(`k${k}`, `Maths 10${"ABCDEFG"[k - 1]}`, "c1")),
    ],
    users: [
      userLine("t1", "Tess", "Teacher", teacher),
      userLine("s1", "Sam", "Student", student),
      ...co.map((e) => userLine("t2", "Cory", "Coteacher", e)),
      ...newcomers.map((e, i) => userLine(`n${i}`, "New", `Student${i}`, e)),
    ],
    enrollments: [
      enrolLine("e1", "k1", "t1", "teacher"),
      enrolLine("e2", "k1", "s1", "student"),
      ...co.map(() => enrolLine("e9", "k1", "t2", "teacher")),
      ...newcomers.map((_, i) => enrolLine(`en${i}`, "k1", `n${i}`, "student")),
      ...extra.flatMap((k) =>
        newcomers.map((_, i) => enrolLine(`en${i}k${k}`, `k${k}`, `n${i}`, "student")),
      ),
    ],
  });
}

const env = () => ({
  RATE_LIMITS: "off",
  ONEROSTER_SUBJECTS: "MAT101=mat",
  SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
  PUBLIC_URL: "https://grades.example.org",
});

describe.each(dialects)("OneRoster invitation emails and roster teachers (%s)", (dialect) => {
  it("emails each address with no account once, off the request, however often the bundle comes", async () => {
    await withTestApp(dialect, { env: env() }, async (t) => {
      const admin = await signIn(t, "admin");
      const teacher = await signIn(t, "teacher");
      const student = await signIn(t, "student");
      const newcomers = [uniqueEmail("nia"), uniqueEmail("noa")];
      const zip = zipBundle(school(teacher.email, student.email, newcomers));

      const preview = (await postBundle(t, admin, zip, "dryRun=true")).json() as OneRosterResult;
      expect(preview.emailsQueued).toBe(2);
      await t.app.jobs.idle();
      expect(newcomers.flatMap(mailTo)).toEqual([]);

      const applied = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
      expect(applied.emailsQueued).toBe(2);
      await t.app.jobs.idle();
      for (const email of newcomers) {
        const mail = lastMailTo(email, 1);
        expect(mail.subject).toBe("A class invitation on Gradecast");
        expect(mail.text).toContain('Class: "Maths 10A"');
        expect(mail.text).toContain("https://grades.example.org/register");
      }
      // The student with an account sees the invitation in the app: no email.
      expect(mailTo(student.email).filter((m) => /class invitation/i.test(m.raw))).toEqual([]);

      // The same bundle again, and the newcomers' enrolments ended then listed again: nothing
      // is sent twice (the second time the addresses go to the job, which finds them emailed
      // for the same class).
      const again = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
      expect(again.emailsQueued).toBe(0);
      const without = zipBundle(school(teacher.email, student.email, []));
      expect((await postBundle(t, admin, without, "dryRun=false")).statusCode).toBe(200);
      const back = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
      expect(back.changes.studentsInvited.count).toBe(2);
      await t.app.jobs.idle();
      for (const email of newcomers) expect(mailTo(email)).toHaveLength(1);
      const outbox = await t.database.db
        .selectFrom("mail_outbox")
        .select(["recipient", "state"])
        .where("kind", "=", "oneroster_class_invitation")
        .execute();
      expect(outbox.map((r) => r.state)).toEqual(["sent", "sent"]);
    });
  }, 180_000);

  it("writes one email per address listing all its classes, and one more when a class is added", async () => {
    await withTestApp(dialect, { env: env() }, async (t) => {
      const admin = await signIn(t, "admin");
      const teacher = await signIn(t, "teacher");
      const newcomers = [uniqueEmail("ada"), uniqueEmail("bea")];
      const other = uniqueEmail("cid"); // in Maths 10A only
      const two = zipBundle(school(teacher.email, other, newcomers, undefined, 1));

      const preview = (await postBundle(t, admin, two, "dryRun=true")).json() as OneRosterResult;
      expect(preview.changes.studentsInvited.count).toBe(5);
      expect(preview.emailsQueued).toBe(3);
      const applied = (await postBundle(t, admin, two, "dryRun=false")).json() as OneRosterResult;
      expect(applied.emailsQueued).toBe(3);
      await t.app.jobs.idle();
      const single = lastMailTo(other, 1);
      expect(single.subject).toBe("A class invitation on Gradecast");
      expect(single.text).not.toContain("Maths 10B");
      for (const email of newcomers) {
        const mail = lastMailTo(email, 1);
        expect(mail.subject).toBe("Class invitations on Gradecast");
        expect(mail.text).toContain('Class: "Maths 10A"');
        expect(mail.text).toContain('Class: "Maths 10B"');
        expect(mail.text).toContain("https://grades.example.org/register");
      }

      // A third class later: one new email each, listing the three classes.
      const three = zipBundle(school(teacher.email, other, newcomers, undefined, 2));
      const added = (await postBundle(t, admin, three, "dryRun=false")).json() as OneRosterResult;
      expect(added.changes.studentsInvited.count).toBe(2);
      await t.app.jobs.idle();
      for (const email of newcomers) {
        const mail = lastMailTo(email, 2);
        expect(mail.text).toContain('Class: "Maths 10C"');
        expect(mail.text).toContain('Class: "Maths 10A"');
      }
      // The same bundle again: nothing more.
      expect(
        ((await postBundle(t, admin, three, "dryRun=false")).json() as OneRosterResult)
          .emailsQueued,
      ).toBe(0);
      await t.app.jobs.idle();
      for (const email of newcomers) expect(mailTo(email)).toHaveLength(2);
      expect(mailTo(other)).toHaveLength(1);
    });
  }, 180_000);

  it("puts back a teacher taken off a roster class by hand, and the preview says so", async () => {
    await withTestApp(dialect, { env: env() }, async (t) => {
      const admin = await signIn(t, "admin");
      const teacher = await signIn(t, "teacher");
      const colleague = await signIn(t, "teacher");
      const zip = zipBundle(school(teacher.email, uniqueEmail("s"), [], colleague.email));
      expect((await postBundle(t, admin, zip, "dryRun=false")).statusCode).toBe(200);
      const klass = await classNamed(t, "Maths 10A");
      const removed = await api(t).takeOff(colleague, klass.id, "teachers", teacher);
      expect(removed.statusCode, removed.body).toBe(204);

      const preview = (await postBundle(t, admin, zip, "dryRun=true")).json() as OneRosterResult;
      expect(preview.changes.teachersRestored.items).toEqual([`${teacher.email} -> Maths 10A`]);
      expect(preview.changes.teachersAdded.count).toBe(0);
      const applied = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
      expect(applied.changes.teachersRestored.count).toBe(1);
      expect((await classPeople(t, klass.id)).teachers).toEqual(
        [teacher.user.uid, colleague.user.uid].sort(),
      );
    });
  }, 180_000);
});
