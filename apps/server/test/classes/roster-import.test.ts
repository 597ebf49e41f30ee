import type { User } from "@gradecast/contract/auth";
import type { RosterResult } from "@gradecast/contract/classes";
import { type ClassView, classMessages, rosterLimits } from "@gradecast/contract/classes";
import { describe, expect } from "vitest";
import {
  logIn,
  randomIp,
  readOutbox,
  register,
  signIn,
  uniqueEmail,
  verifyByMail,
  waitForMail,
} from "../support/accounts.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type People, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Roster import: a CSV of name,email (or name;email) previewed, then imported in one
// transaction; every address not in the class invited by email, alike whether it has an account
// (its owner accepts in the app, class-invitations.test.ts) or not (in the class once it
// registers and verifies); a file with any bad line refused whole with each line, reason and
// the text refused; a repeat adds nothing.
const cast = {
  teacher: ["teacher", { name: "Ana Teacher" }],
  otherTeacher: "teacher",
  admin: "admin",
} satisfies Record<string, Person>;
const tests = apiTests({
  env: { RATE_LIMITS: "off", INVITATION_EMAILS_PER_DAY: "100000" },
  people: cast,
});

/** A newcomer registers (no role given) and logs in from one address: its id and bearer header. */
async function registerAndLogIn(t: TestApp, name: string, email: string) {
  const address = randomIp();
  const registered = await register(t, { name, email }, address);
  expect(registered.statusCode).toBe(201);
  const uid = (registered.json() as { user: User }).user.uid;
  return { uid, auth: await logIn(t, email, address) };
}

describe.each(dialects)("roster import (%s)", (dialect) => {
  const test = tests[dialect];
  // The daily cap of invitation emails is the subject of roster-limits.test.ts: high here, as
  // the file's tests together invite more than one teacher's day.
  let c: ReturnType<typeof api>;

  test.beforeAll(async ({ t }) => {
    c = api(t);
  });

  const members = async (people: People<typeof cast>, classId: string) => {
    const res = await c.call("GET", `/api/classes/${classId}/members`, people.teacher);
    expect(res.statusCode).toBe(200);
    return res.json() as {
      students: { id: string; email: string }[];
      invitations: { email: string; name: string }[];
    };
  };
  const emailsOf = (rows: { email: string }[]) => rows.map((r) => r.email).sort();
  const mailsTo = async (t: TestApp, email: string) =>
    (await readOutbox(t.dataDir)).filter((m) => m.to.toLowerCase().includes(email));

  test("previews, imports once, invites every address not in the class, and enrols a new address after register and verify", async ({
    t,
    people,
  }) => {
    const klass = await c.createClass(people.teacher, { name: "Roster class" });
    const verified = await signIn(t, "student", { name: "Vera Verified" });
    const already = await signIn(t, "student", { name: "Al Ready" });
    await c.join(already, klass.joinCode);
    const unverified = await signIn(t, "student", { verified: false, name: "Una Verified" });
    const newcomer = uniqueEmail("newcomer");
    const file = [
      "name,email",
      `Vera Verified,${verified.email.toUpperCase()}`,
      `"Newcomer, Nia",${newcomer}`,
      `Al Ready,${already.email}`,
      `Una Verified,${unverified.email}`,
      "",
    ].join("\r\n");

    const preview = await c.roster(people.teacher, klass.id, file, true);
    expect(preview.statusCode).toBe(200);
    const planned = preview.json() as RosterResult;
    expect(planned.dryRun).toBe(true);
    // An existing verified student is invited like anybody else, never enrolled (issue 26).
    expect(Object.keys(planned).sort()).toEqual([
      "alreadyEnrolled",
      "alreadyInvited",
      "dryRun",
      "invited",
    ]);
    expect(emailsOf(planned.invited)).toEqual([newcomer, unverified.email, verified.email].sort());
    expect(planned.alreadyEnrolled).toEqual([{ line: 4, name: "Al Ready", email: already.email }]);
    expect(planned.invited.find((r) => r.email === newcomer)).toEqual({
      line: 3,
      name: "Newcomer, Nia",
      email: newcomer,
    });
    // The preview changed nothing and sent nothing.
    expect(emailsOf((await members(people, klass.id)).students)).toEqual([already.email]);
    expect((await members(people, klass.id)).invitations).toEqual([]);
    expect(await mailsTo(t, newcomer)).toEqual([]);
    expect(await auditOf(t, "class.roster_imported", klass.id)).toEqual([]);

    const done = await c.roster(people.teacher, klass.id, file, false);
    expect(done.statusCode).toBe(200);
    expect({ ...(done.json() as RosterResult), dryRun: true }).toEqual(planned);
    const after = await members(people, klass.id);
    expect(emailsOf(after.students)).toEqual([already.email]);
    expect(emailsOf(after.invitations)).toEqual(
      [newcomer, unverified.email, verified.email].sort(),
    );
    // The school's text: the class's name quoted as data, nothing else the teacher typed (not the
    // roster line's name, nor the teacher's own).
    const invitation = await waitForMail(t.dataDir, newcomer, /Roster class/);
    expect(invitation.subject).toBe("A class invitation on Gradecast");
    expect(invitation.text).toContain('Class: "Roster class"');
    expect(invitation.text).not.toContain("Nia");
    expect(invitation.text).not.toContain("Ana Teacher");
    expect(invitation.text).toContain("/register");
    // An account's owner is told to accept or decline in the app.
    const asked = await waitForMail(t.dataDir, verified.email, /Roster class/);
    expect(asked.text).toContain("/login");
    expect(asked.text).toContain("Accept and Decline");
    const [entry] = await auditOf(t, "class.roster_imported", klass.id);
    expect(entry?.details).toEqual({
      rows: 4,
      invited: 3,
      alreadyEnrolled: 1,
      alreadyInvited: 0,
    });

    // The same file again: nothing is added twice, nobody is emailed twice.
    const repeat = await c.roster(people.teacher, klass.id, file, false);
    const second = repeat.json() as RosterResult;
    expect(second.invited).toEqual([]);
    expect(emailsOf(second.alreadyEnrolled)).toEqual([already.email]);
    expect(emailsOf(second.alreadyInvited)).toEqual(
      [newcomer, unverified.email, verified.email].sort(),
    );
    expect(await mailsTo(t, newcomer)).toHaveLength(1);
    expect((await members(people, klass.id)).students).toHaveLength(1);

    // The newcomer registers with the invited address and verifies it: now in the class.
    const { uid, auth } = await registerAndLogIn(t, "Nia Newcomer", newcomer);
    const before = await t.app.inject({ method: "GET", url: "/api/classes", headers: auth });
    expect(before.statusCode).toBe(403);
    expect((await members(people, klass.id)).students).toHaveLength(1);
    expect((await verifyByMail(t, newcomer, auth)).statusCode).toBe(200);
    const mine = await t.app.inject({ method: "GET", url: "/api/classes", headers: auth });
    expect((mine.json().items as ClassView[]).map((i) => i.id)).toEqual([klass.id]);
    const final = await members(people, klass.id);
    expect(emailsOf(final.students)).toContain(newcomer);
    expect(emailsOf(final.invitations)).toEqual([unverified.email, verified.email].sort());
    const accepted = await auditOf(t, "class.invitation_accepted", klass.id);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.actor_id).toBe(uid);
  });

  test("enrols a newcomer invited by two classes in both at once, each in the audit log", async ({
    t,
    people,
  }) => {
    const classes = [
      await c.createClass(people.teacher, { name: "Roster A" }),
      await c.createClass(people.teacher, { name: "Roster B" }),
    ];
    const twice = uniqueEmail("twice");
    for (const klass of classes) {
      const done = await c.roster(
        people.teacher,
        klass.id,
        `name,email\nTwo Classes,${twice}\n`,
        false,
      );
      expect(done.statusCode).toBe(200);
    }
    const { uid, auth } = await registerAndLogIn(t, "Two Classes", twice);
    expect((await verifyByMail(t, twice, auth)).statusCode).toBe(200);
    const mine = await t.app.inject({ method: "GET", url: "/api/classes", headers: auth });
    expect((mine.json().items as ClassView[]).map((i) => i.id).sort()).toEqual(
      classes.map((k) => k.id).sort(),
    );
    for (const klass of classes) {
      expect(emailsOf((await members(people, klass.id)).students)).toEqual([twice]);
      const accepted = await auditOf(t, "class.invitation_accepted", klass.id);
      expect(accepted.map((e) => e.actor_id)).toEqual([uid]);
    }
  });

  test("refuses a file with any bad line whole, naming each line and reason", async ({
    t,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const good = await signIn(t, "student");
    const fresh = uniqueEmail("fresh");
    const file = [
      "name,email",
      `Good Student,${good.email}`,
      "Bad Email,not-an-email",
      `,${uniqueEmail("noname")}`,
      `"Two`,
      `Lines",${uniqueEmail("twolines")}`,
      `Fresh One,${fresh}`,
      `Fresh Again,${fresh.toUpperCase()}`,
      `Three,Columns,here@example.com`,
    ].join("\n");
    for (const preview of [true, false]) {
      const res = await c.roster(people.teacher, klass.id, file, preview);
      expect(res.statusCode).toBe(400);
      const error = errorOf(res.body);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toBe(classMessages.rosterRejected);
      // Each line names the text it refused (issue 28).
      expect(error.fields).toEqual({
        "line 3": `${classMessages.rosterEmailInvalid} ("not-an-email")`,
        "line 4": `${classMessages.rosterNameRequired} (",${file.split("\n")[3]?.slice(1)}")`,
        "line 5": `${classMessages.rosterNameMultiline} ("Two\\nLines")`,
        "line 8": `${classMessages.rosterDuplicate(7)} ("${fresh}")`,
        "line 9": `${classMessages.rosterColumns} ("Three,Columns,here@example.com")`,
      });
    }
    const after = await members(people, klass.id);
    expect(after.students).toEqual([]);
    expect(after.invitations).toEqual([]);
    expect(await mailsTo(t, fresh)).toEqual([]);
    expect(await auditOf(t, "class.roster_imported", klass.id)).toEqual([]);
  });

  test("refuses a wrong header, an empty file, too many rows, bytes that are not UTF-8, and JSON", async ({
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const cases: [string | Buffer, Record<string, string>][] = [
      [
        "email,name\nA,a@example.com\n",
        { "line 1": `${classMessages.rosterHeader} ("email,name")` },
      ],
      [
        "name\temail\nA\ta@example.com\n",
        { "line 1": `${classMessages.rosterHeader} ("name\\temail")` },
      ],
      // 512 KB of line breaks: no rows, found without holding the server (roster-event-loop.test.ts).
      [`name,email${"\n".repeat(rosterLimits.bytes - 20)}`, { file: classMessages.rosterEmpty }],
      [`name,email\n${",\n".repeat(rosterLimits.rows * 3)}`, { file: classMessages.rosterTooMany }],
      ["name,email\n", { file: classMessages.rosterEmpty }],
      [
        `name,email\n${Array.from({ length: rosterLimits.rows + 1 }, (_, i) => `S ${i},s${i}@example.com`).join("\n")}`,
        { file: classMessages.rosterTooMany },
      ],
      [
        Buffer.from("name,email\nJos\xe9,jose@example.com\n", "latin1"),
        { file: classMessages.rosterNotUtf8 },
      ],
      ['name,email\n"Unclosed,u@example.com\n', { "line 2": classMessages.rosterNotCsv }],
    ];
    for (const [file, fields] of cases) {
      const res = await c.roster(people.teacher, klass.id, file, false);
      expect(res.statusCode, String(file).slice(0, 40)).toBe(400);
      expect(errorOf(res.body).fields).toEqual(fields);
    }
    const json = await c.call("POST", `/api/classes/${klass.id}/roster`, people.teacher, {
      csv: "name,email",
    });
    expect(json.statusCode).toBe(400);
    expect((await members(people, klass.id)).invitations).toEqual([]);
  });

  test("imports a file of exactly 1,000 rows, and refuses the 1,001st row with the whole file", async ({
    t,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    // Three of the rows are students with verified accounts: invited like the others.
    const known = await Promise.all(Array.from({ length: 3 }, () => signIn(t, "student")));
    const tag = klass.id.slice(0, 8);
    const lines = Array.from({ length: rosterLimits.rows }, (_, i) =>
      i < known.length ? `Known ${i},${known[i]!.email}` : `S ${i},full${i}-${tag}@example.com`,
    );
    const extra = `One Too Many,extra-${tag}@example.com`;
    // With a byte order mark, as spreadsheets save it.
    const file = (rows: string[]) => `\uFEFFname,email\n${rows.join("\n")}\n`;

    const tooMany = await c.roster(people.teacher, klass.id, file([...lines, extra]), false);
    expect(tooMany.statusCode).toBe(400);
    expect(errorOf(tooMany.body).fields).toEqual({ file: classMessages.rosterTooMany });
    expect(await members(people, klass.id)).toEqual({ students: [], invitations: [] });
    expect(await auditOf(t, "class.roster_imported", klass.id)).toEqual([]);

    const res = await c.roster(people.teacher, klass.id, file(lines), false);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const done = res.json() as RosterResult;
    expect(done.dryRun).toBe(false);
    expect(done.invited).toHaveLength(rosterLimits.rows);
    expect(done.invited.at(-1)).toEqual({
      line: rosterLimits.rows + 1,
      name: `S ${rosterLimits.rows - 1}`,
      email: `full${rosterLimits.rows - 1}-${tag}@example.com`,
    });
    const after = await members(people, klass.id);
    expect(after.students).toEqual([]);
    expect(after.invitations).toHaveLength(rosterLimits.rows);
    const [entry] = await auditOf(t, "class.roster_imported", klass.id);
    expect(entry?.details).toEqual({
      rows: rosterLimits.rows,
      invited: rosterLimits.rows,
      alreadyEnrolled: 0,
      alreadyInvited: 0,
    });
    // Every invited address got its invitation, the last row's too.
    const invitedTo = new Set(
      (await readOutbox(t.dataDir))
        .filter((m) => m.to.includes(`-${tag}@example.com`))
        .map((m) => m.to.toLowerCase()),
    );
    expect(invitedTo.size).toBe(rosterLimits.rows - known.length);
    expect([...invitedTo].some((to) => to.includes(`full${rosterLimits.rows - 1}-${tag}`))).toBe(
      true,
    );

    // The same file with one row more is refused whole again: nothing of it is imported.
    const again = await c.roster(people.teacher, klass.id, file([...lines, extra]), false);
    expect(again.statusCode).toBe(400);
    expect((await members(people, klass.id)).invitations).toHaveLength(rosterLimits.rows);
    expect((await mailsTo(t, `extra-${tag}@example.com`)).length).toBe(0);
  }, 180_000);

  test("reads a semicolon-separated file with a byte order mark, as a spreadsheet saves it (issue 28)", async ({
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const one = uniqueEmail("semi");
    const two = uniqueEmail("semi");
    // Names with commas stay whole: the header says the separator is the semicolon.
    const file = `\uFEFFName;Email\r\nSilva, Ana;${one}\r\n"Costa; Rui";${two}\r\n;\r\n`;
    const res = await c.roster(people.teacher, klass.id, Buffer.from(file, "utf8"), false);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as RosterResult).invited).toEqual([
      { line: 2, name: "Silva, Ana", email: one },
      { line: 3, name: "Costa; Rui", email: two },
    ]);
    // A bad line of such a file is named with its text, in the file's own separator.
    const bad = await c.roster(
      people.teacher,
      klass.id,
      `name;email\nGood;${uniqueEmail("semi")}\n\nBad Row;bad@@example\nToo;many;cells\n`,
      true,
    );
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).fields).toEqual({
      "line 4": `${classMessages.rosterEmailInvalid} ("bad@@example")`,
      "line 5": `${classMessages.rosterColumns} ("Too;many;cells")`,
    });
  });

  test("says only 'invited' for any address not in the class: staff, pending, verified, unverified or unknown", async ({
    t,
    people,
  }) => {
    const klass = await c.createClass(people.teacher);
    const pending = await signIn(t, "teacher", { pending: true });
    const verified = await signIn(t, "student");
    const unverified = await signIn(t, "student", { verified: false });
    const addresses = [
      people.otherTeacher.email,
      people.admin.email,
      pending.email,
      verified.email,
      unverified.email,
      uniqueEmail("nobody"),
    ];
    const file = `name,email\n${addresses.map((a, i) => `Person ${i},${a}`).join("\n")}\n`;
    for (const preview of [true, false]) {
      const res = await c.roster(people.teacher, klass.id, file, preview);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        invited: addresses.map((email, i) => ({ line: i + 2, name: `Person ${i}`, email })),
        alreadyEnrolled: [],
        alreadyInvited: [],
        dryRun: preview,
      });
    }
    // Nobody is in the class; each address is an open invitation, listed alike.
    const after = await members(people, klass.id);
    expect(after.students).toEqual([]);
    expect(emailsOf(after.invitations)).toEqual([...addresses].sort());
    expect(
      after.invitations.every((i) => Object.keys(i).sort().join() === "email,invitedAt,name"),
    ).toBe(true);
  });

  test("lets only the class's teachers and admins import", async ({ t, people }) => {
    const klass = await c.createClass(people.teacher);
    const student = await signIn(t, "student");
    const file = `name,email\nSomeone,${uniqueEmail("someone")}\n`;
    expect((await c.roster(people.otherTeacher, klass.id, file, false)).statusCode).toBe(404);
    expect((await c.roster(people.otherTeacher, klass.id, file, true)).statusCode).toBe(404);
    expect((await c.roster(student, klass.id, file, false)).statusCode).toBe(403);
    expect((await c.roster(undefined, klass.id, file, false)).statusCode).toBe(401);
    expect((await members(people, klass.id)).invitations).toEqual([]);
    const byAdmin = await c.roster(people.admin, klass.id, file, false);
    expect(byAdmin.statusCode).toBe(200);
    expect((await members(people, klass.id)).invitations).toHaveLength(1);
  });
});
