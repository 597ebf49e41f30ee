import {
  analyticsMessages,
  type StaffReport,
  type StudentReport,
} from "@gradecast/contract/analytics";
import { describe, expect } from "vitest";
import { addPrediction, addUser, embedSigner } from "../support/analytics-fixtures.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";

// Analytics with a real population (issue 17): only verified students enrolled in a class count,
// so unverified, un-enrolled and disabled accounts ("puppets") cannot fill a small group up to
// the threshold of 5 and open it; a teacher's view is their classes (or one), an admin's the
// school, and at-risk names reach only that student's teachers and admins.

const tests = apiTests();

describe.each(dialects)("analytics population on %s", (dialect) => {
  const test = tests[dialect];
  let sign: (userId: string, scope: "staff" | "student") => Promise<string>;
  const ids = {} as Record<string, string>;
  let classA: string;
  let classB: string;

  test.beforeAll(async ({ t }) => {
    const db = t.database.db;
    sign = await embedSigner(t);
    ids.teacherA = await addUser(db, "Teacher A", "teacher");
    ids.teacherB = await addUser(db, "Teacher B", "teacher");
    ids.admin = await addUser(db, "Admin", "admin");
    // Class A: the viewer and three other real students, each with a prediction (at risk: Rita).
    ids.viewer = await addUser(db, "Viewer Val", "student");
    ids.rita = await addUser(db, "Rita Risk", "student");
    ids.sol = await addUser(db, "Sol Steady", "student");
    ids.tom = await addUser(db, "Tom Top", "student");
    // Class B: one student at risk, Bea.
    ids.bea = await addUser(db, "Bea Bclass", "student");
    classA = await makeClass(t, {
      teachers: [ids.teacherA],
      students: [ids.viewer, ids.rita, ids.sol, ids.tom],
    });
    classB = await makeClass(t, { teachers: [ids.teacherB], students: [ids.bea] });
    await addPrediction(db, ids.viewer, 12);
    await addPrediction(db, ids.rita, 4.5);
    await addPrediction(db, ids.sol, 12.5);
    await addPrediction(db, ids.tom, 18);
    await addPrediction(db, ids.bea, 5.5);
    // Puppets, each with a prediction in the 12-13 bin: unverified but enrolled, verified but not
    // enrolled, enrolled but disabled, and one more unverified enrolled account.
    const puppets = [
      await addUser(db, "Puppet Unverified", "student", { verified: false }),
      await addUser(db, "Puppet Loose", "student"),
      await addUser(db, "Puppet Disabled", "student", { disabled: true }),
      await addUser(db, "Puppet Again", "student", { verified: false }),
    ];
    await makeClass(t, { teachers: [], students: [puppets[0]!, puppets[2]!, puppets[3]!] });
    for (const id of puppets) await addPrediction(db, id, 12.25);
  });

  const report = async <T>(t: TestApp, token: string, classId?: string) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/analytics/report?token=${encodeURIComponent(token)}${classId ? `&classId=${classId}` : ""}`,
    });
    return { status: res.statusCode, body: res.json() as T, text: res.body };
  };

  test("keeps a small group closed although puppets would bring it to 5 or more", async ({ t }) => {
    // Others of the viewer's school: Rita, Sol, Tom, Bea (4 real), plus 4 puppets: 8 in all
    // would show; counted, 4 is under 5, so nothing is shown at all.
    const { status, body, text } = await report<StudentReport>(
      t,
      await sign(ids.viewer!, "student"),
    );
    expect(status).toBe(200);
    expect(body.cohort.prediction).toEqual({ bins: null, note: analyticsMessages.smallCohort });
    expect(text).not.toContain("Puppet");
  });

  test("opens the group once a fifth real student counts, puppets still left out of every bin", async ({
    t,
  }) => {
    const db = t.database.db;
    const fifth = await addUser(db, "Fifth Real", "student");
    await makeClass(t, { teachers: [], students: [fifth] });
    await addPrediction(db, fifth, 12.75);
    const { body } = await report<StudentReport>(t, await sign(ids.viewer!, "student"));
    const bins = body.cohort.prediction.bins!;
    expect(bins).not.toBeNull();
    // 12-13: Sol 12.5 and Fifth 12.75 (2, withheld); the four puppets' 12.25 are not there.
    expect(bins[6]).toEqual({ from: 12, to: 14, count: null });
    expect(bins.reduce((n, b) => n + (b.count ?? 0), 0)).toBe(0);
    expect(body.cohort.prediction.note).toBe(analyticsMessages.smallGroup);
    await db.deleteFrom("users").where("id", "=", fifth).execute();
  });

  test("scopes a teacher to their classes: their students' names only, counted students only", async ({
    t,
  }) => {
    const a = await report<StaffReport>(t, await sign(ids.teacherA!, "staff"));
    expect(a.status).toBe(200);
    expect(a.body.atRisk.students.map((s) => s.name)).toEqual(["Rita Risk"]);
    expect(a.body.totals.predictions).toBe(4);
    expect(a.text).not.toContain("Bea");
    expect(a.text).not.toContain("Puppet");

    const b = await report<StaffReport>(t, await sign(ids.teacherB!, "staff"));
    expect(b.body.atRisk.students.map((s) => s.name)).toEqual(["Bea Bclass"]);
    expect(b.body.totals.predictions).toBe(1);
    expect(b.text).not.toContain("Rita");
  });

  test("gives one class when asked, and a class the teacher does not teach is not found", async ({
    t,
  }) => {
    const one = await report<StaffReport>(t, await sign(ids.teacherA!, "staff"), classA);
    expect(one.status).toBe(200);
    expect(one.body.atRisk.students.map((s) => s.name)).toEqual(["Rita Risk"]);
    const foreign = await report<StaffReport>(t, await sign(ids.teacherA!, "staff"), classB);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain("Bea");
    const student = await report<StaffReport>(t, await sign(ids.viewer!, "student"), classA);
    expect(student.status).toBe(403);
  });

  test("gives an admin the school: every counted student, no puppet", async ({ t }) => {
    const { body, text } = await report<StaffReport>(t, await sign(ids.admin!, "staff"));
    expect(body.atRisk.students.map((s) => s.name).sort()).toEqual(["Bea Bclass", "Rita Risk"]);
    expect(body.totals.predictions).toBe(5);
    expect(body.bands.reduce((n, b) => n + b.count, 0)).toBe(5);
    expect(text).not.toContain("Puppet");
    const one = await report<StaffReport>(t, await sign(ids.admin!, "staff"), classB);
    expect(one.body.atRisk.students.map((s) => s.name)).toEqual(["Bea Bclass"]);
  });
});
