import type { ReportSort } from "@gradecast/contract/reports";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../db/schema.ts";

// The student_reports table. Lists use keyset pagination on the sort key plus the id, each
// order backed by its index of migration 0001; the name search is a LIKE on student_name_lower
// (migration 0005) so the trigram index serves it. Writes go through Kysely's builder.

export interface ReportRecord {
  id: string;
  authorId: string;
  authorName: string;
  studentName: string;
  course: string;
  marks: number;
  attendance: number;
  assignments: number;
  behavior: string;
  feedback: string;
  /** ISO 8601, UTC, milliseconds. */
  createdAt: string;
  updatedAt: string;
}

/** Where a page ends: the sort key of its last row (exact, as text) and its id. */
export interface ListPosition {
  key: string;
  id: string;
}

/** A listed row carries its sort key (exact, as text) for the next page's cursor. */
export interface ListedReport extends ReportRecord {
  sortKey: string;
}

export function positionOf(row: ListedReport): ListPosition {
  return { key: row.sortKey, id: row.id };
}

export interface ReportValues {
  studentName: string;
  course: string;
  marks: number;
  attendance: number;
  assignments: number;
  behavior: string;
  feedback: string;
}

// The list is the hot path (every dashboard view, every page): its SQL is written once per
// shape (sort, with or without a search, first or later page) and sent as that fixed text with
// parameters, so no query is built per request; without a search it is also prepared on
// PostgreSQL (db/prepared.ts says why a search is not). Timestamps leave PostgreSQL as ISO 8601
// text in UTC, which is what the API answers, so no date is parsed and formatted again per row.
const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const columns = `r.id, r.author_id as "authorId", u.name as "authorName",
  r.student_name as "studentName", r.course, r.marks, r.attendance, r.assignments, r.behavior,
  r.feedback, ${iso("r.created_at")} as "createdAt", ${iso("r.updated_at")} as "updatedAt"`;

const from = "from student_reports r join users u on u.id = r.author_id";

/** `%`, `_` and `\` of a search are matched literally (escape character `\`). */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const orders: Record<ReportSort, { key: string; after: string; order: string }> = {
  // created_at as text keeps its microseconds, so the cursor loses nothing.
  date: {
    key: "r.created_at::text",
    after: "(r.created_at, r.id) < ($K::timestamptz, $I::uuid)",
    order: "r.created_at desc, r.id desc",
  },
  name: {
    key: "lower(r.student_name)",
    after: "(lower(r.student_name), r.id) > ($K, $I::uuid)",
    order: "lower(r.student_name), r.id",
  },
  marks: {
    key: "r.marks::text",
    after: "(r.marks, r.id) < ($K::integer, $I::uuid)",
    order: "r.marks desc, r.id desc",
  },
};

const listSql = new Map<string, string>();

function listStatement(sort: ReportSort, search: boolean, after: boolean): string {
  const shape = `${sort}:${search}:${after}`;
  let text = listSql.get(shape);
  if (text) return text;
  const o = orders[sort];
  const where: string[] = [];
  let n = 0;
  if (search) where.push(`r.student_name_lower like '%' || lower($${++n}) || '%' escape '\\'`);
  if (after) where.push(o.after.replace("$K", `$${++n}`).replace("$I", `$${++n}`));
  text = `select ${columns}, ${o.key} as "sortKey" ${from}
    ${where.length > 0 ? `where ${where.join(" and ")}` : ""}
    order by ${o.order} limit $${++n}`;
  if (!search) prepared(text);
  listSql.set(shape, text);
  return text;
}

export async function listReports(
  db: Kysely<DB>,
  options: { search: string; sort: ReportSort; limit: number; after?: ListPosition | undefined },
): Promise<ListedReport[]> {
  const { search, sort, limit, after } = options;
  const parameters: unknown[] = [];
  if (search !== "") parameters.push(likeEscape(search));
  if (after) parameters.push(after.key, after.id);
  parameters.push(limit);
  const { rows } = await db.executeQuery<ListedReport>(
    CompiledQuery.raw(listStatement(sort, search !== "", after !== undefined), parameters),
  );
  return rows as ListedReport[];
}

const findSql = prepared(`select ${columns} ${from} where r.id = $1`);

export async function findReport(db: Kysely<DB>, id: string): Promise<ReportRecord | undefined> {
  const { rows } = await db.executeQuery<ReportRecord>(CompiledQuery.raw(findSql, [id]));
  return rows[0];
}

export async function insertReport(
  db: Kysely<DB>,
  authorId: string,
  values: ReportValues,
): Promise<string> {
  const row = await db
    .insertInto("student_reports")
    .values({
      author_id: authorId,
      student_name: values.studentName,
      course: values.course,
      marks: values.marks,
      attendance: values.attendance,
      assignments: values.assignments,
      behavior: values.behavior,
      feedback: values.feedback,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateReport(
  db: Kysely<DB>,
  id: string,
  values: Partial<ReportValues>,
): Promise<boolean> {
  const result = await db
    .updateTable("student_reports")
    .set({
      ...(values.studentName !== undefined ? { student_name: values.studentName } : {}),
      ...(values.course !== undefined ? { course: values.course } : {}),
      ...(values.marks !== undefined ? { marks: values.marks } : {}),
      ...(values.attendance !== undefined ? { attendance: values.attendance } : {}),
      ...(values.assignments !== undefined ? { assignments: values.assignments } : {}),
      ...(values.behavior !== undefined ? { behavior: values.behavior } : {}),
      ...(values.feedback !== undefined ? { feedback: values.feedback } : {}),
      updated_at: sql`now()`,
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteReport(db: Kysely<DB>, id: string): Promise<boolean> {
  const result = await db.deleteFrom("student_reports").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
