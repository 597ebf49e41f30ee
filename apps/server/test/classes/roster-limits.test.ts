import { classMessages } from "@gradecast/contract/classes";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { readOutbox, signIn, uniqueEmail } from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Issue 26 (low): roster imports could email 1,000 addresses a file, 20 files a minute, and
// class creation had no limit. Invitation emails are capped per sender and UTC day
// (INVITATION_EMAILS_PER_DAY, 3 here): a file that would pass the cap is refused whole, before
// anything is stored or sent, with how many are left. Class creation is rate limited per account.
const tests = apiTests({
  env: { INVITATION_EMAILS_PER_DAY: "3" },
  people: { teacher: "teacher", otherTeacher: "teacher", admin: "admin" },
});

describe.each(dialects)("roster and class limits (%s)", (dialect) => {
  const test = tests[dialect];

  const fileOf = (...emails: string[]) =>
    `name,email\n${emails.map((e, i) => `Pupil ${i},${e}`).join("\n")}\n`;
  const sentTo = async (t: TestApp, emails: string[]) =>
    (await readOutbox(t.dataDir)).filter((m) => emails.some((e) => m.to.includes(e))).length;

  test("refuses a file that would pass the sender's daily cap of invitation emails, before anything is sent", async ({
    t,
    people,
  }) => {
    const c = api(t);
    const klass = await c.createClass(people.teacher);
    const first = [uniqueEmail("cap"), uniqueEmail("cap")];
    const ok = await c.roster(people.teacher, klass.id, fileOf(...first), false);
    expect(ok.statusCode, ok.body).toBe(200);

    // Two more would make four: refused whole, by the preview and the import alike.
    const more = [uniqueEmail("cap"), uniqueEmail("cap")];
    const refusal = classMessages.rosterEmailCap(3, 1, 2);
    for (const preview of [true, false]) {
      const res = await c.roster(people.teacher, klass.id, fileOf(...first, ...more), preview);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res.body)).toMatchObject({ message: refusal, fields: { file: refusal } });
    }
    const members = await c.call("GET", `/api/classes/${klass.id}/members`, people.teacher);
    expect(
      members
        .json()
        .invitations.map((i: { email: string }) => i.email)
        .sort(),
    ).toEqual([...first].sort());
    expect(await sentTo(t, more)).toBe(0);
    expect(await auditOf(t, "class.roster_imported", klass.id)).toHaveLength(1);

    // Addresses already invited cost nothing; one new one fits.
    const one = await c.roster(people.teacher, klass.id, fileOf(...first, more[0]!), false);
    expect(one.statusCode, one.body).toBe(200);
    expect(await sentTo(t, [more[0]!])).toBe(1);

    // The cap is the sender's: another teacher (or an admin) has a day of their own.
    const other = await c.createClass(people.otherTeacher);
    const theirs = await c.roster(people.otherTeacher, other.id, fileOf(more[1]!), false);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const byAdmin = await c.roster(people.admin, klass.id, fileOf(uniqueEmail("cap")), false);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);

    // The next UTC day the teacher may send again: today's emails become yesterday's.
    const full = await c.roster(people.teacher, klass.id, fileOf(uniqueEmail("cap")), false);
    expect(full.statusCode).toBe(400);
    await sql`update roster_email_counts set day = day - 1
      where sender_id = ${people.teacher.user.uid}`.execute(t.database.db);
    const tomorrow = await c.roster(people.teacher, klass.id, fileOf(uniqueEmail("cap")), false);
    expect(tomorrow.statusCode, tomorrow.body).toBe(200);
  });

  test("refuses a file larger than the cap at all, with the cap named", async ({ t }) => {
    const c = api(t);
    const teacher = await signIn(t, "teacher");
    const klass = await c.createClass(teacher);
    const emails = Array.from({ length: 4 }, () => uniqueEmail("big"));
    const res = await c.roster(teacher, klass.id, fileOf(...emails), false);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).message).toBe(classMessages.rosterEmailCap(3, 3, 4));
    expect(await sentTo(t, emails)).toBe(0);
  });

  test("limits class creation per account: the 31st class in an hour is refused, another teacher is not", async ({
    t,
  }) => {
    const c = api(t);
    const teacher = await signIn(t, "teacher");
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await c.call("POST", "/api/classes", teacher, {
        name: `Class ${i}`,
        subject: "mat",
        year: "2026/27",
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(errorOf(res.body).code).toBe("rate_limited");
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const mine = await c.call("GET", "/api/classes", teacher);
    expect(mine.json().items).toHaveLength(30);
    const other = await signIn(t, "teacher");
    expect((await c.createClass(other)).id).toEqual(expect.any(String));
  });
});
