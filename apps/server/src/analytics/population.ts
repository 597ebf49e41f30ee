import { type RawBuilder, sql } from "kysely";

// Who the analytics report counts (issue 17). Students: accounts with a verified email, not
// disabled, enrolled in at least one class; self-registered or unverified accounts ("puppets")
// count nowhere, so they cannot fill a small group up to the threshold and open it. Reports: an
// admin's view takes every report in the school; a teacher's takes the reports they may read
// (their own and their classes', reports/queries.ts), or one class's.

export type Population =
  | { kind: "school" }
  | { kind: "teacher"; teacherId: string }
  | { kind: "class"; classId: string };

/** A condition on a users row `u`: the student counts in this population. */
export function countedStudent(p: Population): RawBuilder<unknown> {
  const enrolled =
    p.kind === "school"
      ? sql`exists (select 1 from enrolments e where e.student_id = u.id)`
      : p.kind === "class"
        ? sql`exists (select 1 from enrolments e where e.student_id = u.id and e.class_id = ${p.classId}::uuid)`
        : sql`exists (select 1 from enrolments e join class_teachers ct on ct.class_id = e.class_id
            where e.student_id = u.id and ct.teacher_id = ${p.teacherId}::uuid)`;
  return sql`(u.role = 'student' and u.email_verified and not u.disabled and ${enrolled})`;
}

/** A condition on a student_reports row `r` for a scoped view; the school's takes every row. */
export function countedReport(p: Exclude<Population, { kind: "school" }>): RawBuilder<unknown> {
  return p.kind === "class"
    ? sql`r.class_id = ${p.classId}::uuid`
    : sql`(r.author_id = ${p.teacherId}::uuid or r.class_id = any(array(
        select ct.class_id from class_teachers ct where ct.teacher_id = ${p.teacherId}::uuid)))`;
}
