import { formatDayTime } from "@gradecast/contract/dates";
import { isId } from "@gradecast/contract/ids";
import {
  type LinkedReport,
  type reportCreateSchema,
  reportStudentMessages,
  type reportUpdateSchema,
} from "@gradecast/contract/report-students";
import {
  type Report,
  type ReportListQuery,
  type ReportSort,
  reportCsvColumns,
} from "@gradecast/contract/reports";
import type { z } from "zod";
import { insertNotifications } from "../alerts/evaluate.ts";
import { audit, who } from "../audit/audit.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import type { Actor } from "../auth/actor.ts";
import { bom, type CsvFormat, csvHeaderRow, csvRow, englishCsv } from "../csv/csv.ts";
import { decodeCursor, encodeCursor, isTextKey, isTimestampText, pageOf } from "../cursor-keys.ts";
import { forbidden, invalid, notFound } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import { reportAccess } from "./policy.ts";
import {
  deleteReport,
  findReport,
  insertReport,
  type ListPosition,
  listReports,
  positionOf,
  type ReportLink,
  type ReportRecord,
  updateReport,
} from "./queries.ts";
import { readsMostReports } from "./reader-share.ts";
import { rosterEntry } from "./rosters.ts";

// The rules of student reports: validation with the contract's schema, who may read and change
// which report (policy.ts), opaque cursors, and the CSV export. Who reads what (docs/decisions/0005): an
// admin every report; a teacher the reports they wrote and those filed through a class they
// teach (co-teachers included), anything else is answered as if it did not exist (404). Only the
// author or an admin changes or deletes a report.

export type { Actor };

export function toReport(row: ReportRecord): LinkedReport {
  return {
    id: row.id,
    studentName: row.studentName,
    course: row.course,
    marks: row.marks,
    attendance: row.attendance,
    assignments: row.assignments,
    behavior: row.behavior as Report["behavior"],
    feedback: row.feedback,
    authorId: row.authorId,
    authorName: row.authorName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    studentId: row.studentId,
    classId: row.classId,
  };
}

/** Whose lists a caller reads: a teacher's own id (scoped), or undefined for an admin. */
export const viewerOf = (user: AuthUser) => (user.role === "admin" ? undefined : user.id);

/**
 * The enrolment a report names: a teacher only through one of their classes (403 otherwise,
 * whether or not the account exists), an admin through any class the student is in.
 */
async function linkFor(
  services: Services,
  user: AuthUser,
  studentId: string,
  classId: string | undefined,
): Promise<ReportLink & { name: string }> {
  const teacherId = user.role === "admin" ? null : user.id;
  const entry = await rosterEntry(services.db, { teacherId, studentId, classId });
  if (entry) return { studentId: entry.studentId, classId: entry.classId, name: entry.name };
  if (teacherId !== null && !(await rosterEntry(services.db, { teacherId, studentId }))) {
    throw forbidden(reportStudentMessages.notYourStudent);
  }
  const message = reportStudentMessages.notEnrolled;
  throw invalid(message, classId ? { classId: message } : { studentId: message });
}

// Cursor: [sort, key, id]; its sort must match the request's.
export function encodeListCursor(sort: ReportSort, position: ListPosition): string {
  return encodeCursor([sort, position.key, position.id]);
}

const validKey: Record<ReportSort, (key: string) => boolean> = {
  date: isTimestampText,
  name: (key) => isTextKey(key, 400),
  marks: (key) => /^\d{1,3}$/.test(key),
};

export function decodeListCursor(sort: ReportSort, cursor: string): ListPosition {
  const [, key = "", id = ""] = decodeCursor(cursor, [(s) => s === sort, validKey[sort], isId]);
  return { key, id };
}

/** The list's query as the route schema gave it, the search without its outer spaces. */
export function listQuery(query: ReportListQuery): ReportListQuery {
  return { ...query, search: query.search.trim() };
}

/** How a teacher's list is read (reader-share.ts); nothing for an admin. */
export async function listScopeOf(services: Services, viewerId: string | undefined) {
  if (viewerId === undefined) return undefined;
  return (await readsMostReports(services.db, viewerId)) ? ("wide" as const) : ("walks" as const);
}

export async function listPage(services: Services, user: AuthUser, query: ReportListQuery) {
  const after = query.cursor ? decodeListCursor(query.sort, query.cursor) : undefined;
  const viewerId = viewerOf(user);
  const rows = await listReports(services.db, {
    viewerId,
    scope: await listScopeOf(services, viewerId),
    search: query.search,
    sort: query.sort,
    limit: query.limit + 1,
    after,
  });
  return pageOf(rows, query.limit, toReport, (last) =>
    encodeListCursor(query.sort, positionOf(last)),
  );
}

export async function createReport(
  services: Services,
  actor: Actor,
  { studentId, classId, ...input }: z.output<typeof reportCreateSchema>,
) {
  if (classId !== undefined && studentId === undefined) {
    throw invalid(reportStudentMessages.notEnrolled, {
      studentId: reportStudentMessages.notEnrolled,
    });
  }
  // An enrolled student's name is their account's, whatever the form sent.
  const link = studentId ? await linkFor(services, actor.user, studentId, classId) : undefined;
  const values = link ? { ...input, studentName: link.name } : input;
  const id = await insertReport(services.db, actor.user.id, values, link);
  // Issue 32: the student is told a report about them was written (not what it says).
  if (link && link.studentId !== actor.user.id) {
    await insertNotifications(services.db, [
      {
        recipientId: link.studentId,
        kind: "report_written",
        studentId: link.studentId,
        classId: link.classId ?? null,
        payload: {},
      },
    ]);
  }
  const row = await findReport(services.db, id);
  if (!row) throw notFound();
  return toReport(row);
}

export async function getReport(
  services: Services,
  user: AuthUser,
  id: string,
): Promise<LinkedReport> {
  return toReport((await reportAccess(services, { user }, id, "read")).record);
}

export async function editReport(
  services: Services,
  actor: Actor,
  id: string,
  { studentId, classId, ...fields }: z.output<typeof reportUpdateSchema>,
): Promise<LinkedReport> {
  const { record: before } = await reportAccess(services, actor, id, "change");
  // Linking (or moving) the report to an enrolled student: the author must teach them.
  const target = studentId ?? (classId !== undefined ? before.studentId : null);
  if (classId !== undefined && target === null) {
    throw invalid(reportStudentMessages.notEnrolled, {
      studentId: reportStudentMessages.notEnrolled,
    });
  }
  const link = target ? await linkFor(services, actor.user, target, classId) : undefined;
  const patch = link ? { ...fields, studentName: link.name } : fields;
  if (
    !link &&
    before.studentId !== null &&
    patch.studentName !== undefined &&
    patch.studentName !== before.studentName
  ) {
    const message = reportStudentMessages.nameFromAccount;
    throw invalid(message, { studentName: message });
  }
  const changed = (Object.keys(patch) as (keyof typeof patch)[]).filter(
    (k) => patch[k] !== undefined && patch[k] !== before[k],
  );
  const relinked =
    link !== undefined && (link.studentId !== before.studentId || link.classId !== before.classId);
  if (relinked) changed.push(...(["studentId", "classId"] as never[]));
  if (changed.length === 0) return toReport(before);
  await updateReport(services.db, id, patch, relinked ? link : undefined);
  const after = await findReport(services.db, id);
  if (!after) throw notFound();
  await audit(services.db, {
    ...who(actor, id),
    action: "report.update",
    details: {
      fields: changed,
      before: Object.fromEntries(changed.map((k) => [k, before[k as keyof ReportRecord]])),
      after: Object.fromEntries(changed.map((k) => [k, after[k as keyof ReportRecord]])),
    },
  });
  return toReport(after);
}

export async function removeReport(services: Services, actor: Actor, id: string): Promise<void> {
  const { record: row } = await reportAccess(services, actor, id, "change");
  if (!(await deleteReport(services.db, id))) throw notFound();
  await audit(services.db, {
    ...who(actor, id),
    action: "report.delete",
    details: { studentName: row.studentName, course: row.course, authorId: row.authorId },
  });
}

/** The export's columns: the id, the report's own fields in the form's order, who and when. */
export const csvHeader = reportCsvColumns;

/** A report's cells, in the order of `reportCsvColumns`. */
function csvCells(r: Report): (string | number)[] {
  return [
    r.studentName,
    r.course,
    r.marks,
    r.attendance,
    r.assignments,
    r.behavior,
    r.feedback,
    r.authorName,
    formatDayTime(r.createdAt, "UTC"),
    formatDayTime(r.updatedAt, "UTC"),
    r.id,
  ];
}

/**
 * The whole current search as CSV lines, read page by page with the same keyset as the list so
 * memory stays flat whatever the number of reports.
 */
export async function* exportCsv(
  services: Services,
  query: { search: string; sort: ReportSort; viewerId?: string | undefined },
  batch = 2000,
  format: CsvFormat = englishCsv,
): AsyncGenerator<string> {
  // A byte order mark so spreadsheet programs read the file as UTF-8.
  yield `${bom}${csvHeaderRow(csvHeader, format)}`;
  let after: ListPosition | undefined;
  const scope = await listScopeOf(services, query.viewerId);
  for (;;) {
    const rows = await listReports(services.db, { ...query, scope, limit: batch, after });
    if (rows.length === 0) return;
    let chunk = "";
    for (const row of rows) {
      const r = toReport(row);
      chunk += csvRow(csvCells(r), format);
    }
    yield chunk;
    // A turn of the event loop between batches, so other calls are served meanwhile (on PGlite
    // each batch's query runs in this process).
    await new Promise((resolve) => setImmediate(resolve));
    if (rows.length < batch) return;
    const last = rows.at(-1);
    after = last ? positionOf(last) : undefined;
  }
}
