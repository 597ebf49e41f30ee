import { forgetRecordContext } from "../../src/db/record-context.ts";
import type { SignedInUser } from "./accounts.ts";
import type { Person } from "./fixtures.ts";
import type { TestApp } from "./helpers.ts";

// Classes for tests of what depends on them (reports, analytics): rows written directly, as the
// classes routes would, so these tests do not depend on how a class is created or joined.
let classCounter = 0;

/**
 * The staff around one class, for a test that checks a call for every relationship: the class's
 * teacher and co-teacher, a teacher of another class, an unverified teacher, a pending teacher
 * (a student account waiting for approval) and an admin. A file spreads it into its `people`.
 */
export const classStaff = {
  teacher: ["teacher", { name: "Class Teacher" }],
  coTeacher: ["teacher", { name: "Co Teacher" }],
  otherTeacher: ["teacher", { name: "Other Teacher" }],
  unverifiedTeacher: ["teacher", { verified: false }],
  pendingTeacher: ["teacher", { pending: true }],
  admin: "admin",
} satisfies Record<string, Person>;

export async function makeClass(
  t: TestApp,
  opts: {
    teachers: string[];
    students?: string[];
    name?: string;
    subject?: "mat" | "por";
    joinCode?: string;
  },
): Promise<string> {
  classCounter += 1;
  const db = t.database.db;
  const row = await db
    .insertInto("classes")
    .values({
      name: opts.name ?? `Class ${classCounter}`,
      subject: opts.subject ?? "mat",
      year: "2026-27",
      created_by: opts.teachers[0] ?? null,
      join_code: opts.joinCode ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const teacherId of opts.teachers) {
    await db
      .insertInto("class_teachers")
      .values({ class_id: row.id, teacher_id: teacherId })
      .execute();
  }
  for (const studentId of opts.students ?? []) await enrol(t, row.id, studentId);
  return row.id;
}

export async function enrol(t: TestApp, classId: string, studentId: string): Promise<void> {
  await t.database.db
    .insertInto("enrolments")
    .values({ class_id: classId, student_id: studentId })
    .execute();
  // As the classes routes do: the server forgets what it kept of the student's classes.
  forgetRecordContext(studentId);
}

/**
 * The class of `classStaff` (its teacher, co-teacher and unverified teacher) with these students,
 * then another class: the other teacher's, with the other student. For the tests of who sees what.
 */
export async function staffClasses(
  t: TestApp,
  people: Record<
    "teacher" | "coTeacher" | "unverifiedTeacher" | "otherTeacher" | "otherStudent",
    SignedInUser
  >,
  students: SignedInUser[],
  name: string,
): Promise<{ classId: string; otherClassId: string }> {
  const classId = await makeClass(t, {
    teachers: [people.teacher, people.coTeacher, people.unverifiedTeacher].map((p) => p.user.uid),
    students: students.map((s) => s.user.uid),
    name,
  });
  const otherClassId = await makeClass(t, {
    teachers: [people.otherTeacher.user.uid],
    students: [people.otherStudent.user.uid],
  });
  return { classId, otherClassId };
}
