import { sql } from "kysely";
import { describe, expect } from "vitest";
import { forgetReaderShares, readsMostReports } from "../../src/reports/reader-share.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects } from "../support/helpers.ts";
import { listedIds } from "../support/report-pages.ts";
import { exportedIds } from "../support/reports-csv-parser.ts";

// A teacher who may read most of the school's reports takes one filtered walk of the school's
// sort index instead of two walks (reports/reader-share.ts). Their list, search, paging and
// export must hold exactly what they may read, each report once, in the admin's order.

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    teacher: ["teacher", { name: "Wide Reader" }],
    other: ["teacher", { name: "Other Teacher" }],
    admin: "admin",
  },
});

describe.each(dialects)("a teacher who reads most reports, on %s", (dialect) => {
  const test = tests[dialect];
  let visible: Set<string>;

  test.beforeAll(async ({ t, people }) => {
    const shared = await makeClass(t, {
      teachers: [people.teacher.user.uid, people.other.user.uid],
    });
    const foreign = await makeClass(t, { teachers: [people.other.user.uid] });
    const db = t.database.db;
    const insert = (author: string, name: string, classId: string | null, n: number) =>
      sql`insert into student_reports (author_id, student_name, course, marks, attendance,
          assignments, behavior, feedback, class_id, created_at, updated_at)
        select ${author}::uuid, ${name} || ' ' || (i % 97), 'Maths', i % 101, 90, 3, 'Good', 'Fine.',
          ${classId}::uuid, timestamptz '2026-01-01 00:00:00+00' + (i % 500) * interval '1 hour',
          now()
        from generate_series(1, ${n}::int) as i`.execute(db);
    await insert(people.teacher.user.uid, "Bulk Pupil", null, 6000);
    await insert(people.other.user.uid, "Shared Pupil", shared, 150);
    await insert(people.other.user.uid, "Foreign Pupil", foreign, 150);
    await insert(people.other.user.uid, "Free Pupil", null, 150);
    await sql`analyze student_reports`.execute(db);
    const rows = await db
      .selectFrom("student_reports")
      .select("id")
      .where((eb) =>
        eb.or([eb("author_id", "=", people.teacher.user.uid), eb("class_id", "=", shared)]),
      )
      .execute();
    visible = new Set(rows.map((r) => r.id));
    forgetReaderShares();
  });

  test("counts the teacher as reading most reports, and the other teacher not", async ({
    t,
    people,
  }) => {
    expect(await readsMostReports(t.database.db, people.teacher.user.uid)).toBe(true);
    expect(await readsMostReports(t.database.db, people.other.user.uid)).toBe(false);
  });

  for (const sort of ["date", "name", "marks"]) {
    for (const search of ["pupil 1", "shared", "foreign"]) {
      test(`pages sort=${sort} search=${search}: what they may read, once each, in order`, async ({
        t,
        people,
      }) => {
        const query = `&sort=${sort}&search=${encodeURIComponent(search)}`;
        const expected = (await listedIds(t, people.admin, query, 100, 100_000)).filter((id) =>
          visible.has(id),
        );
        const listed = await listedIds(t, people.teacher, query, 25, 100_000);
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed).toEqual(expected);
        if (search === "foreign") expect(listed).toEqual([]);
      });
    }
    test(`gives the first pages of sort=${sort} without a search as the admin's, filtered`, async ({
      t,
      people,
    }) => {
      const expected = (await listedIds(t, people.admin, `&sort=${sort}`, 100, 300)).filter((id) =>
        visible.has(id),
      );
      const listed = await listedIds(t, people.teacher, `&sort=${sort}`, 20, 100);
      expect(listed).toEqual(expected.slice(0, listed.length));
      expect(listed.length).toBeGreaterThanOrEqual(100);
    });
  }

  test("exports what the list holds", async ({ t, people }) => {
    const ids = await exportedIds(t, people.teacher, "?sort=name&search=shared");
    expect(ids).toHaveLength(150);
    expect(ids).toEqual(
      await listedIds(t, people.teacher, "&sort=name&search=shared", 100, 100_000),
    );
  });
});
