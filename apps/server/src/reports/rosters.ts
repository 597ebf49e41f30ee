import type { EnrolledStudent } from "@gradecast/contract/report-students";
import { type Kysely, sql } from "kysely";
import { hasRow } from "../db/rows.ts";
import type { DB } from "../db/schema.ts";
import { likeEscape } from "./queries.ts";

// What reports need to know about classes: which enrolled students a teacher may write about
// (through which class), and whether a teacher teaches a class. Rosters are read, never written,
// here; the classes domain owns them.

export interface RosterEntry {
  studentId: string;
  name: string;
  classId: string;
}

/**
 * The enrolment through which `teacherId` may write about `studentId` (a verified or not,
 * enabled student account), in the named class or, when none is named, the class the student
 * joined first among the teacher's (oldest enrolment, then class id: deterministic). With no
 * teacher (an admin), any class the student is enrolled in.
 */
export async function rosterEntry(
  db: Kysely<DB>,
  opts: { teacherId: string | null; studentId: string; classId?: string | undefined },
): Promise<RosterEntry | undefined> {
  const { rows } = await sql<RosterEntry>`
    select e.student_id as "studentId", u.name, e.class_id as "classId"
    from enrolments e
    join users u on u.id = e.student_id and u.role = 'student'
    ${
      opts.teacherId === null
        ? sql``
        : sql`join class_teachers ct on ct.class_id = e.class_id and ct.teacher_id = ${opts.teacherId}::uuid`
    }
    where e.student_id = ${opts.studentId}::uuid
      ${opts.classId ? sql`and e.class_id = ${opts.classId}::uuid` : sql``}
    order by e.enrolled_at, e.class_id
    limit 1`.execute(db);
  return rows[0];
}

export function teaches(db: Kysely<DB>, teacherId: string, classId: string): Promise<boolean> {
  return hasRow(db, "class_teachers", { teacher_id: teacherId, class_id: classId });
}

/**
 * The report form's picker: enrolled students of the teacher's classes (every class for an
 * admin) whose name contains the search, one row per class they are in, by name.
 */
export async function enrolledStudents(
  db: Kysely<DB>,
  opts: { teacherId: string | null; search: string; limit: number },
): Promise<EnrolledStudent[]> {
  const { rows } = await sql<EnrolledStudent>`
    select e.student_id as "studentId", u.name, e.class_id as "classId", c.name as "className"
    from enrolments e
    join users u on u.id = e.student_id and u.role = 'student' and not u.disabled
    join classes c on c.id = e.class_id
    ${
      opts.teacherId === null
        ? sql``
        : sql`join class_teachers ct on ct.class_id = e.class_id and ct.teacher_id = ${opts.teacherId}::uuid`
    }
    ${
      opts.search === ""
        ? sql``
        : sql`where fold_for_search(u.name) like '%' || fold_for_search(${likeEscape(opts.search)}) || '%' escape '\\'`
    }
    order by lower(u.name), u.id, lower(c.name), c.id
    limit ${opts.limit}`.execute(db);
  return rows;
}
