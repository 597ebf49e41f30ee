import type {
  MyReport,
  MyReportsPage,
  myReportsQuerySchema,
} from "@gradecast/contract/report-students";
import { CompiledQuery } from "kysely";
import type { z } from "zod";
import { pageOf } from "../cursor-keys.ts";
import type { Services } from "../services.ts";
import { decodeListCursor, encodeListCursor } from "./service.ts";

// GET /api/me/reports (issue 17): what teachers wrote about the signed-in student, newest first,
// in pages like the teacher's list (same cursor). Read-only; the author's name and the class
// are shown, nothing about other students.

const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const pageSql = (after: boolean) => `
  select r.id, r.student_name as "studentName", r.course, r.marks, r.attendance, r.assignments,
    r.behavior, r.feedback, u.name as "teacherName", c.name as "className",
    ${iso("r.created_at")} as "createdAt", ${iso("r.updated_at")} as "updatedAt",
    r.created_at::text as "sortKey"
  from student_reports r
  join users u on u.id = r.author_id
  left join classes c on c.id = r.class_id
  where r.student_id = $1::uuid
    ${after ? "and (r.created_at, r.id) < ($2::timestamptz, $3::uuid)" : ""}
  order by r.created_at desc, r.id desc
  limit ${after ? "$4" : "$2"}`;

const first = pageSql(false);
const later = pageSql(true);

export async function myReportsPage(
  services: Services,
  studentId: string,
  { limit, cursor }: z.output<typeof myReportsQuerySchema>,
): Promise<MyReportsPage> {
  const after = cursor ? decodeListCursor("date", cursor) : undefined;
  const { rows } = await services.db.executeQuery<MyReport & { sortKey: string }>(
    after
      ? CompiledQuery.raw(later, [studentId, after.key, after.id, limit + 1])
      : CompiledQuery.raw(first, [studentId, limit + 1]),
  );
  return pageOf(
    rows,
    limit,
    ({ sortKey: _, ...report }) => report,
    (last) => encodeListCursor("date", { key: last.sortKey, id: last.id }),
  );
}
