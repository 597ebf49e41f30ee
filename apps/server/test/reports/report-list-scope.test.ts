import type { LinkedReport } from "@gradecast/contract/report-students";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { type SignedInUser, signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";
import { listedIds } from "../support/report-pages.ts";
import { exportedIds } from "../support/reports-csv-parser.ts";

// A teacher's list, search and export read two walks (what they wrote, what their classes
// hold) and merge them (reports/queries.ts). Paged two at a time in every order, the list must
// hold exactly what the teacher may read, each report once (one both written by the teacher
// and filed through their class included), in the admin's order of the same reports, with ties
// of the sort key (same date, same name, same marks) split by id across pages.

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    teacher: ["teacher", { name: "Tess Teacher" }],
    coTeacher: ["teacher", { name: "Cole Coteacher" }],
    outsider: ["teacher", { name: "Olga Outsider" }],
    admin: ["admin", { name: "Ada Admin" }],
  },
});

describe.each(dialects)("a teacher's list of reports on %s", (dialect) => {
  const test = tests[dialect];
  const sees = new Set<string>();

  test.beforeAll(async ({ t, people }) => {
    const pupils = await Promise.all(
      ["Petra Smith", "Paul Smith", "Quinn Jones", "Zed_Under 100% Smith"].map((name) =>
        signIn(t, "student", { name }),
      ),
    );
    const [a, b, c, z] = pupils.map((p) => p.user.uid) as [string, string, string, string];
    await makeClass(t, {
      teachers: [people.teacher.user.uid, people.coTeacher.user.uid],
      students: [a, z],
    });
    await makeClass(t, { teachers: [people.teacher.user.uid], students: [b] });
    await makeClass(t, {
      teachers: [people.outsider.user.uid, people.coTeacher.user.uid],
      students: [c],
    });
    const file = async (who: SignedInUser, body: object, visible: boolean) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: who.auth,
        payload: { ...validReport, ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = (res.json() as { report: LinkedReport }).report;
      if (visible) sees.add(id);
    };
    for (let i = 0; i < 3; i++) {
      // Written by the teacher and filed through their class: once in their list.
      await file(people.teacher, { studentId: a, studentName: "x", marks: 70 }, true);
      // Written by the teacher about a free-text name.
      await file(
        people.teacher,
        { studentName: i % 2 ? "Sam Smith" : "Ann Baker", marks: 70 },
        true,
      );
      // Written by a co-teacher through the shared class, and through a class the teacher does
      // not teach, and about a free-text name.
      await file(people.coTeacher, { studentId: a, studentName: "x", marks: 55 + i }, true);
      await file(people.coTeacher, { studentId: z, studentName: "x", marks: 40 + i }, true);
      await file(people.coTeacher, { studentId: c, studentName: "x", marks: 70 }, false);
      await file(people.coTeacher, { studentName: "Sam Smith", marks: 70 }, false);
      // Filed by an admin through the teacher's second class; by the outsider through theirs.
      await file(people.admin, { studentId: b, studentName: "x", marks: 70 - i }, true);
      await file(people.outsider, { studentId: c, studentName: "x", marks: 70 }, false);
    }
    // Ties of the date order: every report at one of two instants.
    await sql`update student_reports set created_at = case when marks % 2 = 0
      then timestamptz '2026-09-01 08:00:00+00' else timestamptz '2026-09-02 08:00:00+00' end`.execute(
      t.database.db,
    );
  });

  /** The ids of who's list, two reports a page. */
  const pages = (t: TestApp, who: SignedInUser, query: string) => listedIds(t, who, query, 2);

  for (const sort of ["date", "name", "marks"]) {
    // `_` and `%` are matched as themselves, not as LIKE's wildcards.
    for (const search of ["", "smith", "SMI", "_", "0%", "\\"]) {
      test(`pages sort=${sort} search=${search || "(none)"} two at a time: each readable report once, in order`, async ({
        t,
        people,
      }) => {
        const query = `&sort=${sort}${search ? `&search=${encodeURIComponent(search)}` : ""}`;
        const everything = await pages(t, people.admin, query);
        const expected = everything.filter((id) => sees.has(id));
        const listed = await pages(t, people.teacher, query);
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed).toEqual(expected);
        if (search === "") expect(listed).toHaveLength(sees.size);
        if (search === "_" || search === "0%") expect(listed).toHaveLength(3);
        if (search === "\\") expect(listed).toEqual([]);
      });
    }
  }

  test("exports exactly what the list holds, each report once", async ({ t, people }) => {
    const ids = await exportedIds(t, people.teacher, "?sort=name");
    expect(ids).toEqual(await pages(t, people.teacher, "&sort=name"));
  });

  test("shows a teacher with no class and no report an empty list", async ({ t }) => {
    const fresh = await signIn(t, "teacher", { name: "Nina New" });
    expect(await pages(t, fresh, "&sort=date")).toEqual([]);
    expect(await pages(t, fresh, "&sort=name&search=smith")).toEqual([]);
  });
});
