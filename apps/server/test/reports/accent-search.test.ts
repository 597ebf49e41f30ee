import { describe, expect } from "vitest";
import { signIn } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";

// Issue 33: Portuguese names carry accents, and people type them without. Every search of people
// (the report list, a teacher's and an admin's; the report form's student picker; the admin's
// users) ignores accents as well as case: "Luis" and "LUIS" find "Luís Santos", "joao" finds
// "João", and an accented search finds the plain spelling too.

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    teacher: ["teacher", { name: "Tess Teacher" }],
    admin: ["admin", { name: "Ada Admin" }],
  },
});

const names = (rows: { studentName?: string; name?: string }[]) =>
  rows.map((r) => r.studentName ?? r.name).sort();

async function get<T>(t: TestApp, url: string, auth: Record<string, string>): Promise<T> {
  const res = await t.app.inject({ method: "GET", url, headers: auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

describe.each(dialects)("searches that ignore accents on %s", (dialect) => {
  const test = tests[dialect];

  test.beforeAll(async ({ t, people }) => {
    const pupils = await Promise.all(
      ["Luís Santos", "João Conceição", "Ines Sousa"].map((name) => signIn(t, "student", { name })),
    );
    await makeClass(t, {
      teachers: [people.teacher.user.uid],
      students: pupils.map((p) => p.user.uid),
    });
    // One report through the class for each pupil, one about a free-text name.
    const about = [
      ...pupils.map((pupil) => ({ studentId: pupil.user.uid, studentName: pupil.user.name })),
      { studentName: "Inês Conceição" },
    ];
    for (const student of about) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/reports",
        headers: people.teacher.auth,
        payload: { ...validReport, ...student },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  test("the report list finds a name typed without its accents, in any case", async ({
    t,
    people,
  }) => {
    for (const who of [people.teacher, people.admin]) {
      const list = async (search: string) =>
        names(
          (
            await get<{ items: { studentName: string }[] }>(
              t,
              `/api/reports?search=${encodeURIComponent(search)}`,
              who.auth,
            )
          ).items,
        );
      expect(await list("Luis")).toEqual(["Luís Santos"]);
      expect(await list("LUIS")).toEqual(["Luís Santos"]);
      expect(await list("joao")).toEqual(["João Conceição"]);
      expect(await list("conceicao")).toEqual(["Inês Conceição", "João Conceição"]);
      // Typed with an accent, the plain spelling is found too.
      expect(await list("Inês")).toEqual(["Ines Sousa", "Inês Conceição"]);
    }
  });

  test("the report form's student picker and the admin's users ignore accents", async ({
    t,
    people,
  }) => {
    const picker = await get<{ items: { name: string }[] }>(
      t,
      "/api/classes/students?search=luis",
      people.teacher.auth,
    );
    expect(names(picker.items)).toEqual(["Luís Santos"]);
    const users = await get<{ items: { name: string }[] }>(
      t,
      "/api/admin/users?search=CONCEICAO",
      people.admin.auth,
    );
    expect(names(users.items)).toEqual(["João Conceição"]);
  });
});
