import { randomIp, type SignedInUser } from "./accounts.ts";
import type { TestApp } from "./helpers.ts";

// The OneRoster import through the API, for the tests that post bundles (oneroster-bundle.ts)
// and look for the classes they made.

/** POST /api/admin/oneroster?`query` with the ZIP, as `who` (or nobody). */
export const postBundle = (t: TestApp, who: SignedInUser | undefined, zip: Buffer, query: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/oneroster?${query}`,
    remoteAddress: randomIp(),
    headers: { ...(who ? who.auth : {}), "content-type": "application/zip" },
    payload: zip,
  });

/** The ids of the classes of that name. */
export const classesNamed = (t: TestApp, name: string) =>
  t.database.db.selectFrom("classes").select("id").where("name", "=", name).execute();

/** The id of the one class of that name (throws when there is none). */
export const classNamed = (t: TestApp, name: string) =>
  t.database.db
    .selectFrom("classes")
    .select("id")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();

/** Who a class holds after an import: the ids of its students and of its teachers, sorted. */
export async function classPeople(t: TestApp, classId: string) {
  const db = t.database.db;
  const [students, teachers] = await Promise.all([
    db.selectFrom("enrolments").select("student_id").where("class_id", "=", classId).execute(),
    db.selectFrom("class_teachers").select("teacher_id").where("class_id", "=", classId).execute(),
  ]);
  return {
    students: students.map((r) => r.student_id).sort(),
    teachers: teachers.map((r) => r.teacher_id).sort(),
  };
}
