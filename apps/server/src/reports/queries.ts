import type { ReportFields, ReportSort } from "@gradecast/contract/reports";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../db/schema.ts";
import { Memo } from "../memo.ts";

// The student_reports table. Lists use keyset pagination on the sort key plus the id, each
// order backed by its index of migration 0001; the name search is a LIKE on student_name_folded
// (migration 0005) so the trigram index serves it. Writes go through Kysely's builder.
// A teacher's lists are scoped (issue 17): their own reports and those filed through a class
// they teach; an admin's are not.

export interface ReportRecord extends ReportFields {
  id: string;
  authorId: string;
  authorName: string;
  /** ISO 8601, UTC, milliseconds. */
  createdAt: string;
  updatedAt: string;
  studentId: string | null;
  classId: string | null;
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

/** What a teacher writes in a report. */
export type ReportValues = ReportFields;

/** The enrolled student a report is about, and the class it was filed through. */
export interface ReportLink {
  studentId: string;
  classId: string;
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
  r.feedback, ${iso("r.created_at")} as "createdAt", ${iso("r.updated_at")} as "updatedAt",
  r.student_id as "studentId", r.class_id as "classId"`;

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

// What a teacher may read: what they wrote, and what was filed through the classes they teach.
// As one filter, `author_id = $1 or class_id = any(…)`, the planner can walk no index in the
// list's order for a teacher who sees few reports: a class teacher seeing 1 % of 100,000 read
// the whole school through the sort's index, or matched the name search against all of it
// through the trigram index, 2 to 5 ms a page on PostgreSQL against 0.2 to 0.7 for an admin.
// So the list is two walks in the list's order, each stopped at the page's size, and their
// union (which keeps a report both written by the teacher and filed through their class once)
// sorted again: the author's rows through (author_id, sort key) and each class's through
// (class_id, sort key) (migrations 0009, 0011, 0015), a class at a time by a lateral join over
// class_teachers, so no list of classes is read first. The author walk lets the planner use
// the trigram index (a teacher may have written most of the school's reports, and a rare
// name is then found there). A class walk finds the name with strpos() on the rows it reads in
// order, stopping at the page's size: a class holds a few thousand reports at most. With the
// LIKE there, the planner, which cannot know the class's size in a lateral join and reckons
// a name rare, took the trigram index for a common name (four times the cost of reading the
// class) or read and sorted the whole class; strpos() is neither indexed nor reckoned rare.

interface ListShape {
  sort: ReportSort;
  search: boolean;
  after: boolean;
  scope: ListScope;
}

/**
 * Whose rows a list holds: every report (an admin), a teacher's by two walks, or a teacher's by
 * one filtered walk of the school's sort index when they read most of it (reader-share.ts).
 */
export type ListScope = "all" | "walks" | "wide";

/** One SQL text per shape of list, built once (and prepared by name when it may be). */
const listSql = new Memo<string, string>((key) => {
  const { sort, search, after, scope } = JSON.parse(key) as ListShape;
  const scoped = scope === "walks";
  const o = orders[sort];
  let n = scope === "all" ? 0 : 1;
  const s = search ? `$${++n}` : "";
  // A scoped search also takes the words as they were typed, for strpos() (no LIKE escapes).
  const typed = search && scoped ? `$${++n}` : "";
  const k = after ? [`$${++n}`, `$${++n}`] : [];
  const limit = `$${++n}`;
  const where = (scope: string[], match: "like" | "strpos") => {
    const all = [...scope];
    if (search && match === "like") {
      all.push(`r.student_name_folded like '%' || fold_for_search(${s}) || '%' escape '\\'`);
    }
    if (search && match === "strpos")
      all.push(`strpos(r.student_name_folded, fold_for_search(${typed})) > 0`);
    if (after) all.push(o.after.replace("$K", k[0]!).replace("$I", k[1]!));
    return all.length > 0 ? `where ${all.join(" and ")}` : "";
  };
  const walk = (scope: string, match: "like" | "strpos") =>
    `select r.* from student_reports r ${where([scope], match)} order by ${o.order} limit ${limit}`;
  const source = scoped
    ? `(
      (${walk("r.author_id = $1::uuid", "like")})
      union
      (select r.* from class_teachers ct cross join lateral (
        ${walk("r.class_id = ct.class_id", "strpos")}) r
       where ct.teacher_id = $1::uuid)
    ) r`
    : "student_reports r";
  const wide = `(r.author_id = $1::uuid or r.class_id in (
    select ct.class_id from class_teachers ct where ct.teacher_id = $1::uuid))`;
  const text = `select ${columns}, ${o.key} as "sortKey"
    from ${source} join users u on u.id = r.author_id
    ${scoped ? "" : where(scope === "wide" ? [wide] : [], "like")}
    order by ${o.order} limit ${limit}`;
  // A search is planned for its own words (db/prepared.ts says why); the rest is prepared.
  if (!search) prepared(text);
  return text;
});

function listStatement(sort: ReportSort, search: boolean, after: boolean, scope: ListScope) {
  return listSql.get(JSON.stringify({ sort, search, after, scope } satisfies ListShape));
}

export async function listReports(
  db: Kysely<DB>,
  options: {
    search: string;
    sort: ReportSort;
    limit: number;
    after?: ListPosition | undefined;
    /** A teacher's id: only what they may read. Undefined: every report (an admin). */
    viewerId?: string | undefined;
    /** For a teacher: "wide" when they read most reports (reader-share.ts); else two walks. */
    scope?: "walks" | "wide" | undefined;
  },
): Promise<ListedReport[]> {
  const { search, sort, limit, after, viewerId } = options;
  const scope: ListScope = viewerId === undefined ? "all" : (options.scope ?? "walks");
  const parameters: unknown[] = [];
  if (viewerId !== undefined) parameters.push(viewerId);
  if (search !== "") parameters.push(likeEscape(search));
  if (search !== "" && scope === "walks") parameters.push(search);
  if (after) parameters.push(after.key, after.id);
  parameters.push(limit);
  const { rows } = await db.executeQuery<ListedReport>(
    CompiledQuery.raw(listStatement(sort, search !== "", after !== undefined, scope), parameters),
  );
  return rows as ListedReport[];
}

const findSql = prepared(`select ${columns} ${from} where r.id = $1`);

export async function findReport(db: Kysely<DB>, id: string): Promise<ReportRecord | undefined> {
  const { rows } = await db.executeQuery<ReportRecord>(CompiledQuery.raw(findSql, [id]));
  return rows[0];
}

/** A report's values as its columns; on an update, those left undefined stay as they are. */
function reportColumns<V extends Partial<ReportValues>>(values: V) {
  // Each value keeps V's type: all of them defined on an insert, some undefined on an update.
  return {
    student_name: values.studentName as V["studentName"],
    course: values.course as V["course"],
    marks: values.marks as V["marks"],
    attendance: values.attendance as V["attendance"],
    assignments: values.assignments as V["assignments"],
    behavior: values.behavior as V["behavior"],
    feedback: values.feedback as V["feedback"],
  };
}

export async function insertReport(
  db: Kysely<DB>,
  authorId: string,
  values: ReportValues,
  link?: ReportLink,
): Promise<string> {
  const row = await db
    .insertInto("student_reports")
    .values({
      author_id: authorId,
      ...reportColumns(values),
      student_id: link?.studentId ?? null,
      class_id: link?.classId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateReport(
  db: Kysely<DB>,
  id: string,
  values: Partial<ReportValues>,
  link?: ReportLink,
): Promise<boolean> {
  const result = await db
    .updateTable("student_reports")
    .set({
      // Kysely leaves out the columns whose value is undefined: only what changes is set.
      ...reportColumns(values),
      ...(link ? { student_id: link.studentId, class_id: link.classId } : {}),
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
