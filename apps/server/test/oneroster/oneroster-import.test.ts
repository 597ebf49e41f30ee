import type { OneRosterResult } from "@gradecast/contract/oneroster";
import { describe, expect } from "vitest";
import { randomIp, signIn, uniqueEmail } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { classesNamed, classNamed, classPeople, postBundle } from "../support/oneroster-api.ts";
import {
  classLine,
  courseLine,
  csv,
  enrolLine,
  headers,
  schoolYearFiles,
  userLine,
  zipBundle,
} from "../support/oneroster-bundle.ts";

// OneRoster 1.2 CSV import (issue 34): a sample bundle previewed then applied; a repeat changes
// nothing; bulk mode ends what the new bundle no longer lists; delta applies only what it lists;
// a bad bundle is refused whole with file, line and reason; only admins may import.
const tests = apiTests({ env: { RATE_LIMITS: "off", ONEROSTER_SUBJECTS: "MAT101=mat,POR12=por" } });

/** A class's invitations (address, and whether consent is needed), by address. */
const invitationsTo = (t: TestApp, classId: string) =>
  t.database.db
    .selectFrom("class_invitations")
    .select(["email", "needs_consent"])
    .where("class_id", "=", classId)
    .orderBy("email")
    .execute();

describe.each(dialects)("OneRoster import (%s)", (dialect) => {
  const test = tests[dialect];

  /** A school of one maths class, one unmapped class, a teacher and two students. */
  function school(teacher: string, student: string, newcomer: string, prefix: string) {
    return schoolYearFiles({
      courses: [
        courseLine(`${prefix}c1`, "Maths", "MAT101"),
        courseLine(`${prefix}c2`, "Art", "ART1"),
      ],
      classes: [
        classLine(`${prefix}k1`, `Maths 10A ${prefix}`, `${prefix}c1`),
        classLine(`${prefix}k2`, `Art ${prefix}`, `${prefix}c2`),
      ],
      users: [
        userLine(`${prefix}t1`, "Tess", "Teacher", teacher),
        userLine(`${prefix}s1`, "Sam", "Student", student),
        userLine(`${prefix}s2`, "Nia", "New", newcomer),
      ],
      enrollments: [
        enrolLine(`${prefix}e1`, `${prefix}k1`, `${prefix}t1`, "teacher"),
        enrolLine(`${prefix}e2`, `${prefix}k1`, `${prefix}s1`, "student"),
        enrolLine(`${prefix}e3`, `${prefix}k1`, `${prefix}s2`, "student"),
        enrolLine(`${prefix}e4`, `${prefix}k2`, `${prefix}s1`, "student"),
      ],
    });
  }

  test("previews, applies once, and a repeated import changes nothing", async ({ t, admin }) => {
    const futureTeacher = await signIn(t, "student", { name: "Tess Teacher" });
    const student = await signIn(t, "student", { name: "Sam Student" });
    const newcomer = uniqueEmail("nia");
    const zip = zipBundle(school(futureTeacher.email, student.email, newcomer, "a-"));

    const preview = await postBundle(t, admin, zip, "dryRun=true");
    expect(preview.statusCode).toBe(200);
    const planned = preview.json() as OneRosterResult;
    expect(planned.dryRun).toBe(true);
    expect(planned.changes.classesCreated.count).toBe(1);
    expect(planned.changes.unmappedClasses.items).toEqual(["Art a- (ART1)"]);
    expect(planned.changes.teachersApproved.count).toBe(1);
    expect(planned.changes.studentsInvited.count).toBe(2);
    const none = await classesNamed(t, "Maths 10A a-");
    expect(none).toEqual([]);

    const applied = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
    expect(applied.dryRun).toBe(false);
    expect(applied.changes.teachersAdded.count).toBe(1);
    const klass = await t.database.db
      .selectFrom("classes")
      .select(["id", "subject", "year"])
      .where("name", "=", "Maths 10A a-")
      .executeTakeFirstOrThrow();
    expect(klass).toMatchObject({ subject: "mat", year: "2027" });
    const teacher = await t.database.db
      .selectFrom("users")
      .select("role")
      .where("email", "=", futureTeacher.email)
      .executeTakeFirstOrThrow();
    expect(teacher.role).toBe("teacher");
    const invitations = await invitationsTo(t, klass.id);
    // Consent still applies (decision 0014): an account is invited, never enrolled.
    expect(invitations).toEqual(
      [
        { email: student.email, needs_consent: true },
        { email: newcomer, needs_consent: false },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );

    const again = (await postBundle(t, admin, zip, "dryRun=false")).json() as OneRosterResult;
    for (const [kind, change] of Object.entries(again.changes)) {
      if (kind !== "unmappedClasses")
        expect({ kind, count: change.count }).toEqual({ kind, count: 0 });
    }
    const classes = await classesNamed(t, "Maths 10A a-");
    expect(classes).toHaveLength(1);
  });

  test("bulk mode ends enrolments missing from the new bundle; delta applies only what it lists", async ({
    t,
    admin,
  }) => {
    const teacher = uniqueEmail("tess");
    const student = await signIn(t, "student");
    const other = uniqueEmail("other");
    const files = school(teacher, student.email, other, "b-");
    expect((await postBundle(t, admin, zipBundle(files), "dryRun=false")).statusCode).toBe(200);
    const klass = await classNamed(t, "Maths 10A b-");
    // The student accepts: enrolled now.
    const accepted = await t.app.inject({
      method: "POST",
      url: `/api/classes/${klass.id}/invitation`,
      headers: student.auth,
      remoteAddress: randomIp(),
    });
    expect(accepted.statusCode).toBe(200);

    const without = {
      ...files,
      enrollments: csv(headers.enrollments, [
        enrolLine("b-e1", "b-k1", "b-t1", "teacher"),
        enrolLine("b-e3", "b-k1", "b-s2", "student"),
      ]),
    };
    const bulk = (
      await postBundle(t, admin, zipBundle(without), "dryRun=false")
    ).json() as OneRosterResult;
    expect(bulk.changes.enrolmentsEnded.count).toBe(1);
    expect((await classPeople(t, klass.id)).students).toEqual([]);

    const delta = zipBundle(
      {
        users: csv(headers.users, [userLine("b-s1", "Sam", "Student", student.email)]),
        enrollments: csv(headers.enrollments, [
          enrolLine("b-e2", "b-k1", "b-s1", "student"),
          enrolLine("b-e3", "", "", "", "tobedeleted"),
        ]),
      },
      "delta",
    );
    const res = await postBundle(t, admin, delta, "dryRun=false&mode=delta");
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json() as OneRosterResult;
    expect(applied.changes.studentsInvited.count).toBe(1);
    expect(applied.changes.enrolmentsEnded.count).toBe(1);
    const invited = await invitationsTo(t, klass.id);
    expect(invited.map((r) => r.email)).toEqual([student.email]);
  });

  test("refuses a bad bundle whole, naming file, line and reason", async ({ t, admin }) => {
    const ok = school(uniqueEmail("t"), uniqueEmail("s"), uniqueEmail("n"), "c-");
    const refused = async (zip: Buffer, mode = "bulk") => {
      const res = await postBundle(t, admin, zip, `dryRun=false&mode=${mode}`);
      expect(res.statusCode, res.body).toBe(400);
      return errorOf(res.body).fields ?? {};
    };
    expect(await refused(zipBundle({ ...ok, manifest: undefined }))).toHaveProperty("bundle");
    expect(await refused(Buffer.from("not a zip"))).toHaveProperty("bundle");
    const { enrollments: _e, ...noEnrolments } = ok;
    expect(Object.values(await refused(zipBundle(noEnrolments))).join()).toMatch(
      /enrollments\.csv/,
    );
    expect(
      await refused(zipBundle({ ...ok, users: ok.users.replace("givenName", "nickName") })),
    ).toHaveProperty(["users.csv line 1"]);
    expect(
      await refused(
        zipBundle({
          ...ok,
          users: `${ok.users}${userLine("c-t1", "A", "B", uniqueEmail("d"))}\r\n`,
        }),
      ),
    ).toHaveProperty(["users.csv line 5"]);
    const badRefs = csv(headers.enrollments, [
      enrolLine("x1", "nope", "c-s1", "student"),
      enrolLine("x2", "c-k1", "ghost", "student"),
      enrolLine("x3", "c-k1", "c-s1", "janitor"),
      enrolLine("x4", "c-k1", "c-s1", "student", "gone"),
    ]);
    const fields = await refused(zipBundle({ ...ok, enrollments: badRefs }));
    expect(Object.keys(fields).sort()).toEqual([
      "enrollments.csv line 2",
      "enrollments.csv line 3",
      "enrollments.csv line 4",
      "enrollments.csv line 5",
    ]);
    expect(fields["enrollments.csv line 4"]).toMatch(/role/);
    expect(fields["enrollments.csv line 5"]).toMatch(/status/);
    // Nothing of it was stored.
    const stored = await classesNamed(t, "Maths 10A c-");
    expect(stored).toEqual([]);
  });

  test("only admins import", async ({ t, signedIn }) => {
    const zip = zipBundle(school(uniqueEmail("t"), uniqueEmail("s"), uniqueEmail("n"), "d-"));
    for (const role of ["student", "teacher"] as const) {
      const res = await postBundle(t, await signedIn(role), zip, "dryRun=true");
      expect(res.statusCode).toBe(403);
    }
    const pending = await signIn(t, "teacher", { pending: true });
    expect((await postBundle(t, pending, zip, "dryRun=true")).statusCode).toBe(403);
    expect((await postBundle(t, undefined, zip, "dryRun=true")).statusCode).toBe(401);
  });
});
