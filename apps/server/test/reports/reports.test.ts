import { formatDayTime } from "@gradecast/contract/dates";
import { messages } from "@gradecast/contract/messages";
import type { Report } from "@gradecast/contract/reports";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { exportCsv } from "../../src/reports/service.ts";
import type { Services } from "../../src/services.ts";
import type { signIn } from "../support/accounts.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { parseCsv } from "../support/reports-csv-parser.ts";

// Student reports through the real API (issue 4): validation boundaries with the contract's exact messages,
// search, keyset pagination, who may change what, role checks, and the CSV export.

type Session = Awaited<ReturnType<typeof signIn>>;

const valid = {
  studentName: "Valid Student",
  course: "Mathematics",
  marks: 75,
  attendance: 90,
  assignments: 4,
  behavior: "Good",
  feedback: "Steady progress.",
};

const cast = {
  teacher: ["teacher", { name: "Tess Teacher" }],
  otherTeacher: ["teacher", { name: "Otto Other" }],
  admin: ["admin", { name: "Ada Admin" }],
  student: ["student", { name: "Sam Student" }],
} satisfies Record<string, Person>;
const tests = apiTests({ people: cast });

/** The reports API as each caller uses it, and the count of reports stored. */
function reportsApi(t: TestApp) {
  const post = (who: Session, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/api/reports",
      headers: who.auth,
      payload: payload as object,
    });
  return {
    post,
    get: (who: Session | null, url: string) =>
      t.app.inject({ method: "GET", url, headers: who?.auth ?? {} }),
    patch: (who: Session, id: string, payload: unknown) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/reports/${id}`,
        headers: who.auth,
        payload: payload as object,
      }),
    del: (who: Session, id: string) =>
      t.app.inject({ method: "DELETE", url: `/api/reports/${id}`, headers: who.auth }),
    count: async () =>
      Number(
        (
          await sql<{ n: number }>`select count(*)::int as n from student_reports`.execute(
            t.database.db,
          )
        ).rows[0]?.n,
      ),
    /** A report filed by `who` (the valid one with the changes given), which must succeed. */
    create: async (who: Session, overrides: Partial<Record<keyof typeof valid, unknown>>) => {
      const res = await post(who, { ...valid, ...overrides });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { report: Report }).report;
    },
  };
}

describe.each(dialects)("reports on %s", (dialect) => {
  const test = tests[dialect];

  test("files a report: 201, numbers stored as numbers, text trimmed, author and time recorded", async ({
    t,
    people,
  }) => {
    const { post, get } = reportsApi(t);
    const before = Date.now();
    const res = await post(people.teacher, {
      ...valid,
      studentName: "  Nora Numbers  ",
      marks: "88",
      attendance: " 100 ",
      assignments: "0",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { report } = res.json() as { report: Report };
    expect(report).toMatchObject({
      studentName: "Nora Numbers",
      course: "Mathematics",
      marks: 88,
      attendance: 100,
      assignments: 0,
      behavior: "Good",
      feedback: "Steady progress.",
      authorId: people.teacher.user.uid,
      authorName: "Tess Teacher",
    });
    expect(Date.parse(report.createdAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(report.updatedAt).toBe(report.createdAt);
    const row = await t.database.db
      .selectFrom("student_reports")
      .select(["marks", "attendance", "assignments", "author_id"])
      .select(sql<string>`pg_typeof(marks)::text`.as("type"))
      .where("id", "=", report.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      marks: 88,
      attendance: 100,
      assignments: 0,
      author_id: people.teacher.user.uid,
      type: "integer",
    });
    const again = await get(people.teacher, `/api/reports/${report.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ report });
  });

  describe("validation boundaries", () => {
    const ok: [string, unknown, number][] = [
      ["marks", 0, 0],
      ["marks", 100, 100],
      ["marks", "100", 100],
      ["marks", " 5 ", 5],
      // Pasted from a spreadsheet with a trailing space (issue 28).
      ["marks", "85 ", 85],
      // A JSON number written 1e2 is the number 100 once parsed: accepted as 100. Only the text
      // "1e2" can be seen as an exponent, and it is refused below.
      ["marks", 1e2, 100],
      ["attendance", 0, 0],
      ["attendance", 100, 100],
      ["assignments", 0, 0],
      ["assignments", 6, 6],
      ["assignments", "6", 6],
    ];
    test.for(ok)("accepts %s = %j and stores %d", async ([field, value, stored], { t, people }) => {
      const report = await reportsApi(t).create(people.teacher, { [field]: value });
      expect(report[field as "marks"]).toBe(stored);
    });

    const range = messages.reportRange;
    const required = messages.reportRequired;
    /** Each of these values of a field, refused with this message. */
    const refusedAs = (field: string, message: string, values: unknown[]) =>
      values.map((value): [string, unknown, string] => [field, value, message]);
    const refused = [
      ...refusedAs("marks", range, [101, -1, 50.5]),
      // What the old input mask silently turned into 5 and 100 (issue 28).
      ...refusedAs("marks", range, ["-5", "100.5", "50.5", "1e2", "+5", "-0", "0x10", "abc", true]),
      ...refusedAs("marks", required, ["", "   ", null, undefined]),
      ...refusedAs("attendance", range, [101, -1, 50.5, "1e2"]),
      ...refusedAs("attendance", required, ["", undefined]),
      ...refusedAs("assignments", range, [7, -1, 6.5, "1e0", "+5"]),
      ...refusedAs("assignments", required, ["", undefined]),
      ...refusedAs("studentName", required, ["", "   ", undefined]),
      ...refusedAs("studentName", "Use at most 100 characters.", ["x".repeat(101)]),
      ...refusedAs("course", required, ["", undefined]),
      ...refusedAs("course", "Use at most 100 characters.", ["x".repeat(101)]),
      ...refusedAs("behavior", required, ["", undefined]),
      ...refusedAs(
        "behavior",
        "Choose one of: Excellent, Good, Average, Needs Improvement, Poor.",
        ["Great"],
      ),
      ...refusedAs("feedback", required, [""]),
      ...refusedAs("feedback", "Use at most 2000 characters.", ["x".repeat(2001)]),
    ];
    test.for(refused)(
      "refuses %s = %j with its message, storing nothing",
      async ([field, value, message], { t, people }) => {
        const { post, count } = reportsApi(t);
        const before = await count();
        const payload: Record<string, unknown> = { ...valid, [field]: value };
        if (value === undefined) delete payload[field];
        const res = await post(people.teacher, payload);
        expect(res.statusCode).toBe(400);
        const error = errorOf(res.body);
        expect(error.code).toBe("validation_failed");
        expect(error.message).toBe(message);
        expect(error.fields).toEqual({ [field]: message });
        expect(await count()).toBe(before);
      },
    );

    test("accepts the longest allowed texts", async ({ t, people }) => {
      const { create } = reportsApi(t);
      const report = await create(people.teacher, {
        studentName: "n".repeat(100),
        course: "c".repeat(100),
        feedback: "f".repeat(2000),
      });
      expect(report.feedback).toHaveLength(2000);
    });

    test("keeps names and courses on one line; feedback may have lines but no control characters", async ({
      t,
      people,
    }) => {
      const { post, count, create } = reportsApi(t);
      for (const [field, value] of [
        ["studentName", "Ann\nSmith"],
        ["course", "Maths\u202E"],
        ["feedback", "Fine\u0007work"],
      ] as const) {
        const before = await count();
        const res = await post(people.teacher, { ...valid, [field]: value });
        expect(res.statusCode, field).toBe(400);
        expect(errorOf(res.body).fields?.[field]).toMatch(/one line|control characters/);
        expect(await count()).toBe(before);
      }
      const report = await create(people.teacher, { feedback: "Line one.\nLine two.\tIndented." });
      expect(report.feedback).toBe("Line one.\nLine two.\tIndented.");
    });

    test("names every missing field of an empty form", async ({ t, people }) => {
      const { post } = reportsApi(t);
      const res = await post(people.teacher, {});
      expect(res.statusCode).toBe(400);
      const error = errorOf(res.body);
      expect(error.message).toBe(required);
      expect(Object.keys(error.fields ?? {}).sort()).toEqual([
        "assignments",
        "attendance",
        "behavior",
        "course",
        "feedback",
        "marks",
        "studentName",
      ]);
    });

    test("validates an edit with the same rules, changing nothing on refusal", async ({
      t,
      people,
    }) => {
      const { get, patch, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Edit Bounds" });
      for (const [body, message] of [
        [{ marks: 101 }, range],
        [{ assignments: 7 }, range],
        [{ attendance: "1e2" }, range],
        [{ marks: "" }, required],
        [{ studentName: "  " }, required],
      ] as const) {
        const res = await patch(people.teacher, report.id, body);
        expect(res.statusCode).toBe(400);
        const error = errorOf(res.body);
        expect(error.message).toBe(message);
        expect(Object.keys(error.fields ?? {})).toEqual(Object.keys(body));
      }
      const after = await get(people.teacher, `/api/reports/${report.id}`);
      expect((after.json() as { report: Report }).report).toEqual(report);
    });
  });

  describe("search", () => {
    test.beforeAll(async ({ t, people }) => {
      for (const studentName of [
        "Searchy Alice Smith",
        "SEARCHY ALICE JONES",
        "Searchy Bob 100% Sure",
        "Searchy Under_score Kid",
        "Searchy Back\\slash",
        "Searchy Plain Person",
      ]) {
        await reportsApi(t).create(people.teacher, { studentName });
      }
    });
    const names = async (t: TestApp, teacher: Session, search: string) => {
      const res = await reportsApi(t).get(
        teacher,
        `/api/reports?search=${encodeURIComponent(search)}&limit=100`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: Report[] }).items.map((r) => r.studentName).sort();
    };

    test("matches a case-insensitive substring of the name", async ({ t, people }) => {
      expect(await names(t, people.teacher, "aLiCe")).toEqual([
        "SEARCHY ALICE JONES",
        "Searchy Alice Smith",
      ]);
      expect(await names(t, people.teacher, "ice jon")).toEqual(["SEARCHY ALICE JONES"]);
      expect(await names(t, people.teacher, "searchy")).toHaveLength(6);
      expect(await names(t, people.teacher, "nobody-by-that-name")).toEqual([]);
    });

    test("searches %, _ and \\ literally", async ({ t, people }) => {
      expect(await names(t, people.teacher, "%")).toEqual(["Searchy Bob 100% Sure"]);
      expect(await names(t, people.teacher, "0%")).toEqual(["Searchy Bob 100% Sure"]);
      expect(await names(t, people.teacher, "_")).toEqual(["Searchy Under_score Kid"]);
      expect(await names(t, people.teacher, "\\")).toEqual(["Searchy Back\\slash"]);
      // As wildcards these would match "Alice Smith" (e, any character, s).
      expect(await names(t, people.teacher, "e_s")).toEqual([]);
      expect(await names(t, people.teacher, "alice%smith")).toEqual([]);
    });

    test("finds an accented name however its letters were typed (composed or not)", async ({
      t,
      people,
    }) => {
      const { get, create } = reportsApi(t);
      // "José" typed as "e" plus a combining acute accent, as some keyboards and pastes send it.
      const decomposed = "Accenty Jose\u0301 Ramos";
      const report = await create(people.teacher, { studentName: decomposed });
      expect(report.studentName).toBe("Accenty Jos\u00e9 Ramos");
      expect(await names(t, people.teacher, "JOS\u00c9")).toEqual(["Accenty Jos\u00e9 Ramos"]);
      expect(await names(t, people.teacher, "jose\u0301")).toEqual(["Accenty Jos\u00e9 Ramos"]);
      const long = await get(people.teacher, `/api/reports?search=${"y".repeat(101)}`);
      expect(long.statusCode).toBe(400);
      expect(errorOf(long.body).fields?.search).toBe(
        "Search for at most 100 characters of a name.",
      );
    });

    test("keeps the search when paging and in the export", async ({ t, people }) => {
      const { get } = reportsApi(t);
      const first = await get(people.teacher, "/api/reports?search=searchy&limit=4&sort=name");
      const page1 = first.json() as { items: Report[]; nextCursor: string };
      expect(page1.items).toHaveLength(4);
      const second = await get(
        people.teacher,
        `/api/reports?search=searchy&limit=4&sort=name&cursor=${page1.nextCursor}`,
      );
      const page2 = second.json() as { items: Report[]; nextCursor: string | null };
      expect(page2.items).toHaveLength(2);
      expect(page2.nextCursor).toBeNull();
      const csv = await get(people.teacher, "/api/reports/export.csv?search=SEARCHY%20a");
      const rows = parseCsv(csv.body.replace(/^\uFEFF/, ""));
      const student = rows[0]?.indexOf("Student") ?? -1;
      expect(
        rows
          .slice(1)
          .map((r) => r[student])
          .sort(),
      ).toEqual(["SEARCHY ALICE JONES", "Searchy Alice Smith"]);
    });
  });

  describe("pagination", () => {
    test.beforeAll(async ({ t, people }) => {
      // Ties on every sort key: equal names in different cases, equal marks, equal creation times.
      const values = Array.from({ length: 45 }, (_, i) => ({
        author_id: people.teacher.user.uid,
        student_name: ["Tie Name", "tie name", "TIE NAME", `Pager ${i % 7}`][i % 4] as string,
        course: "Paging",
        marks: [0, 50, 100][i % 3] as number,
        attendance: 80,
        assignments: 3,
        behavior: "Average",
        feedback: "ok",
        created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i % 5)).toISOString() as never,
      }));
      await t.database.db.insertInto("student_reports").values(values).execute();
      // Microseconds that a millisecond cursor would lose.
      await sql`update student_reports set created_at = created_at + interval '0.000123 second'
        where course = 'Paging' and marks = 50`.execute(t.database.db);
    });

    const orderSql = {
      date: sql`created_at desc, id desc`,
      name: sql`lower(student_name), id`,
      marks: sql`marks desc, id desc`,
    };

    test.for(["date", "name", "marks"] as const)(
      "walks every report exactly once, in order, sorted by %s",
      async (sort, { t, people }) => {
        const { get } = reportsApi(t);
        // The teacher's own reports: other tests may have filed some of other authors' first.
        const expected = (
          await sql<{
            id: string;
          }>`select id from student_reports where author_id = ${people.teacher.user.uid}
            order by ${orderSql[sort]}`.execute(t.database.db)
        ).rows.map((r) => r.id);
        const seen: Report[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await get(
            people.teacher,
            `/api/reports?sort=${sort}&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          );
          expect(res.statusCode, res.body).toBe(200);
          const page = res.json() as { items: Report[]; nextCursor: string | null };
          expect(page.items.length).toBeLessThanOrEqual(7);
          seen.push(...page.items);
          cursor = page.nextCursor;
          pages++;
        } while (cursor && pages < 100);
        expect(seen.map((r) => r.id)).toEqual(expected);
        expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
        for (let i = 1; i < seen.length; i++) {
          const [a, b] = [seen[i - 1]!, seen[i]!];
          if (sort === "marks") expect(a.marks).toBeGreaterThanOrEqual(b.marks);
          if (sort === "date") expect(a.createdAt >= b.createdAt).toBe(true);
        }
      },
    );

    test("pages through the longest names in any script (the cursor carries the name)", async ({
      t,
      people,
    }) => {
      const { get, create } = reportsApi(t);
      const long = ["😀".repeat(50), "李".repeat(100), "İ".repeat(100), "ß".repeat(100)];
      const made = new Set<string>();
      for (const studentName of long) made.add((await create(people.teacher, { studentName })).id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(
          people.teacher,
          `/api/reports?sort=name&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { items: Report[]; nextCursor: string | null };
        seen.push(...page.items.map((r) => r.id));
        cursor = page.nextCursor;
      } while (cursor && seen.length < 1000);
      expect(seen.filter((id) => made.has(id)).length).toBe(long.length);
      expect(new Set(seen).size).toBe(seen.length);
    });

    test("answers at most 100 a page and refuses bad paging input", async ({ t, people }) => {
      const { get } = reportsApi(t);
      const res = await get(people.teacher, "/api/reports?limit=100");
      expect((res.json() as { items: Report[] }).items.length).toBeLessThanOrEqual(100);
      expect(res.statusCode).toBe(200);
      for (const url of [
        "/api/reports?limit=101",
        "/api/reports?limit=0",
        "/api/reports?sort=age",
        "/api/reports?cursor=not-a-cursor",
        `/api/reports?cursor=${Buffer.from('["date","x","y"]').toString("base64url")}`,
        // Shaped like real keys, but no value PostgreSQL would take: refused here, not by it.
        ...[
          ["date", "9999-99-99 99:99:99+99"],
          ["date", "2026-02-30 10:00:00+00"],
          ["date", "0000-01-01 00:00:00+00"],
          ["name", "a\u0000b"],
        ].map(
          ([sort, key]) =>
            `/api/reports?sort=${sort}&cursor=${Buffer.from(JSON.stringify([sort, key, "00000000-0000-0000-0000-000000000000"])).toString("base64url")}`,
        ),
      ]) {
        const bad = await get(people.teacher, url);
        expect(bad.statusCode, url).toBe(400);
        expect(errorOf(bad.body).code).toBe("validation_failed");
      }
      const first = (await get(people.teacher, "/api/reports?sort=name&limit=2")).json() as {
        nextCursor: string;
      };
      const mixed = await get(people.teacher, `/api/reports?sort=marks&cursor=${first.nextCursor}`);
      expect(mixed.statusCode).toBe(400);
      expect(errorOf(mixed.body).fields).toHaveProperty("cursor");
    });
  });

  describe("who may change a report", () => {
    // A free-text report is its author's and the admins' (docs/decisions/0005): another teacher
    // is told it does not exist.
    test("hides a free-text report from another teacher: 404 to read, edit and delete", async ({
      t,
      people,
    }) => {
      const { get, patch, del, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Owned Report" });
      const read = await get(people.otherTeacher, `/api/reports/${report.id}`);
      expect(read.statusCode).toBe(404);
      const edit = await patch(people.otherTeacher, report.id, { marks: 1 });
      expect(edit.statusCode).toBe(404);
      expect(errorOf(edit.body).message).toBe(messages.notFound);
      const remove = await del(people.otherTeacher, report.id);
      expect(remove.statusCode).toBe(404);
      const after = await get(people.teacher, `/api/reports/${report.id}`);
      expect((after.json() as { report: Report }).report).toEqual(report);
    });

    test("lets the author edit (partially) and records it in the audit log", async ({
      t,
      people,
    }) => {
      const { patch, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Author Edits", marks: 40 });
      const res = await patch(people.teacher, report.id, { marks: "41", feedback: "  Better.  " });
      expect(res.statusCode, res.body).toBe(200);
      const edited = (res.json() as { report: Report }).report;
      expect(edited).toMatchObject({
        ...report,
        marks: 41,
        feedback: "Better.",
        updatedAt: edited.updatedAt,
      });
      expect(edited.createdAt).toBe(report.createdAt);
      expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(report.updatedAt));
      const log = await t.database.db
        .selectFrom("audit_log")
        .selectAll()
        .where("target", "=", report.id)
        .execute();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ action: "report.update", actor_id: people.teacher.user.uid });
      expect((log[0]!.details as { fields: string[] }).fields.sort()).toEqual([
        "feedback",
        "marks",
      ]);
    });

    test("lets an admin edit and delete any report; a deleted report is gone", async ({
      t,
      people,
    }) => {
      const { get, patch, del, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Admin Target" });
      const edit = await patch(people.admin, report.id, { behavior: "Excellent" });
      expect(edit.statusCode).toBe(200);
      expect((edit.json() as { report: Report }).report.behavior).toBe("Excellent");
      const remove = await del(people.admin, report.id);
      expect(remove.statusCode).toBe(204);
      expect((await get(people.teacher, `/api/reports/${report.id}`)).statusCode).toBe(404);
      expect((await del(people.admin, report.id)).statusCode).toBe(404);
      const actions = await t.database.db
        .selectFrom("audit_log")
        .select(["action", "actor_id"])
        .where("target", "=", report.id)
        .orderBy("id")
        .execute();
      expect(actions).toEqual([
        { action: "report.update", actor_id: people.admin.user.uid },
        { action: "report.delete", actor_id: people.admin.user.uid },
      ]);
    });

    test("lets the author delete their own report", async ({ t, people }) => {
      const { get, del, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Author Deletes" });
      expect((await del(people.teacher, report.id)).statusCode).toBe(204);
      expect((await get(people.admin, `/api/reports/${report.id}`)).statusCode).toBe(404);
    });

    test("answers 404 for an unknown or malformed id", async ({ t, people }) => {
      const { get, patch, del } = reportsApi(t);
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1"]) {
        const read = await get(people.teacher, `/api/reports/${id}`);
        expect(read.statusCode, id).toBe(404);
        expect(errorOf(read.body).code).toBe("not_found");
        expect((await patch(people.admin, id, { marks: 1 })).statusCode).toBe(404);
        expect((await del(people.admin, id)).statusCode).toBe(404);
      }
    });
  });

  describe("roles", () => {
    const calls = (id: string) =>
      [
        ["GET", "/api/reports"],
        ["POST", "/api/reports"],
        ["GET", "/api/reports/export.csv"],
        ["GET", `/api/reports/${id}`],
        ["PATCH", `/api/reports/${id}`],
        ["DELETE", `/api/reports/${id}`],
      ] as const;

    test("refuses students with 403 and signed-out callers with 401, changing nothing", async ({
      t,
      people,
    }) => {
      const { get, count, create } = reportsApi(t);
      const report = await create(people.teacher, { studentName: "Role Check" });
      const before = await count();
      for (const [method, url] of calls(report.id)) {
        const asStudent = await t.app.inject({
          method,
          url,
          headers: people.student.auth,
          ...(method === "POST" || method === "PATCH" ? { payload: valid } : {}),
        });
        expect(asStudent.statusCode, `${method} ${url}`).toBe(403);
        expect(errorOf(asStudent.body).code).toBe("forbidden");
        const anonymous = await t.app.inject({
          method,
          url,
          ...(method === "POST" || method === "PATCH" ? { payload: valid } : {}),
        });
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(errorOf(anonymous.body).code).toBe("unauthorized");
      }
      expect(await count()).toBe(before);
      expect((await get(people.admin, `/api/reports/${report.id}`)).json()).toEqual({ report });
    });

    test("lets an admin file a report", async ({ t, people }) => {
      const { create } = reportsApi(t);
      const report = await create(people.admin, { studentName: "Filed By Admin" });
      expect(report.authorName).toBe("Ada Admin");
    });
  });

  describe("CSV export", () => {
    test("round-trips commas, quotes, line breaks and formula cells", async ({ t, people }) => {
      const { get, create } = reportsApi(t);
      const tricky = [
        { studentName: "Csv Smith, Ann", feedback: 'She said "great", then left.' },
        { studentName: "Csv Line Break", feedback: "one\r\ntwo\nthree" },
        { studentName: "=CSV(A1:A3)", feedback: "+1 for effort" },
        { studentName: "Csv Formula", course: "-2+3", feedback: "@SUM(1)" },
        { studentName: "Csv Ünïcødé 李", feedback: '=HYPERLINK("http://evil","x")' },
      ];
      const made: Report[] = [];
      for (const r of tricky) made.push(await create(people.teacher, r));
      const res = await get(people.teacher, "/api/reports/export.csv?search=csv&sort=name");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
      expect(res.body.startsWith("\uFEFF")).toBe(true);
      const rows = parseCsv(res.body.slice(1));
      // The screen's names for the columns, the dates as the screens write them (UTC), the id last.
      expect(rows[0]).toEqual([
        "Student",
        "Course",
        "Marks (out of 100)",
        "Attendance (out of 100)",
        "Assignments (out of 6)",
        "Behavior",
        "Feedback",
        "Author",
        "Created (UTC)",
        "Last changed (UTC)",
        "Report ID",
      ]);
      const byId = new Map(rows.slice(1).map((r) => [r[10], r]));
      expect(byId.size).toBe(made.length);
      const guard = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
      for (const r of made) {
        expect(byId.get(r.id)).toEqual([
          guard(r.studentName),
          guard(r.course),
          String(r.marks),
          String(r.attendance),
          String(r.assignments),
          r.behavior,
          guard(r.feedback),
          r.authorName,
          formatDayTime(r.createdAt, "UTC"),
          formatDayTime(r.updatedAt, "UTC"),
          r.id,
        ]);
        expect(byId.get(r.id)?.[8]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
      }
      expect(byId.get(made[2]!.id)?.[0]).toBe("'=CSV(A1:A3)");
      expect(byId.get(made[2]!.id)?.[6]).toBe("'+1 for effort");
      expect(byId.get(made[3]!.id)?.[1]).toBe("'-2+3");
      // Sorted by name, as asked.
      const listed = (await get(people.teacher, "/api/reports?search=csv&sort=name")).json() as {
        items: Report[];
      };
      expect(rows.slice(1).map((r) => r[10])).toEqual(listed.items.map((r) => r.id));
    });

    test("exports every report of the search across many internal pages", async ({ t, people }) => {
      const { get, count } = reportsApi(t);
      const total = await count();
      const lines: string[] = [];
      const services = { db: t.database.db } as unknown as Services;
      for await (const chunk of exportCsv(services, { search: "", sort: "date" }, 7)) {
        lines.push(chunk);
      }
      const rows = parseCsv(lines.join("").slice(1));
      expect(rows.length - 1).toBe(total);
      expect(new Set(rows.slice(1).map((r) => r.at(-1))).size).toBe(total);
      const res = await get(people.admin, "/api/reports/export.csv");
      expect(parseCsv(res.body.slice(1)).length - 1).toBe(total);
    });
  });
});
