import {
  type Report,
  type ReportListQuery,
  type ReportSort,
  reportInputSchema,
  reportListQuerySchema,
  reportPatchSchema,
} from "@gradecast/contract/reports";
import { audit } from "../audit/audit.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import { scopeOf } from "../auth/access-hook.ts";
import { isTextKey, isTimestampText } from "../http/cursor-keys.ts";
import { badRequest, forbidden, notFound, parse } from "../http/errors.ts";
import type { Services } from "../services.ts";
import { csvRow } from "./csv.ts";
import {
  deleteReport,
  findReport,
  insertReport,
  type ListPosition,
  listReports,
  positionOf,
  type ReportRecord,
  updateReport,
} from "./queries.ts";

// The rules of student reports: validation with the contract's schema, who may change which
// report, opaque cursors, and the CSV export.

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Actor {
  user: AuthUser;
  ip: string | null;
}

export function toReport(row: ReportRecord): Report {
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
  };
}

// Cursor: base64url of JSON [sort, key, id]; its sort must match the request's.
export function encodeCursor(sort: ReportSort, position: ListPosition): string {
  return Buffer.from(JSON.stringify([sort, position.key, position.id])).toString("base64url");
}

const validKey: Record<ReportSort, (key: string) => boolean> = {
  date: isTimestampText,
  name: (key) => isTextKey(key, 400),
  marks: (key) => /^\d{1,3}$/.test(key),
};

export function decodeCursor(sort: ReportSort, cursor: string): ListPosition {
  const bad = () => badRequest("The cursor is not valid.", { cursor: "The cursor is not valid." });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(value) || value.length !== 3) throw bad();
  const [s, key, id] = value as unknown[];
  if (s !== sort || typeof key !== "string" || typeof id !== "string") throw bad();
  if (!uuid.test(id) || !validKey[sort](key)) throw bad();
  return { key, id };
}

export function parseListQuery(query: unknown): ReportListQuery {
  const parsed = parse(reportListQuerySchema, query);
  return { ...parsed, search: parsed.search.trim() };
}

export async function listPage(services: Services, query: ReportListQuery) {
  const after = query.cursor ? decodeCursor(query.sort, query.cursor) : undefined;
  const rows = await listReports(services.db, {
    search: query.search,
    sort: query.sort,
    limit: query.limit + 1,
    after,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toReport),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(query.sort, positionOf(last)) : null,
  };
}

export async function createReport(services: Services, actor: Actor, body: unknown) {
  const input = parse(reportInputSchema, body);
  const id = await insertReport(services.db, actor.user.id, input);
  const row = await findReport(services.db, id);
  if (!row) throw notFound();
  return toReport(row);
}

export async function getReport(services: Services, id: string): Promise<Report> {
  if (!uuid.test(id)) throw notFound();
  const row = await findReport(services.db, id);
  if (!row) throw notFound();
  return toReport(row);
}

/** The report when the actor may change it: 404 if unknown, 403 if another teacher's. */
async function changeable(
  services: Services,
  actor: Actor,
  id: string,
  access: "PATCH /api/reports/:id" | "DELETE /api/reports/:id",
): Promise<ReportRecord> {
  if (!uuid.test(id)) throw notFound();
  const row = await findReport(services.db, id);
  if (!row) throw notFound();
  const scope = scopeOf(access, actor.user.role);
  if (scope === "none" || (scope === "own" && row.authorId !== actor.user.id)) throw forbidden();
  return row;
}

export async function editReport(
  services: Services,
  actor: Actor,
  id: string,
  body: unknown,
): Promise<Report> {
  const before = await changeable(services, actor, id, "PATCH /api/reports/:id");
  const patch = parse(reportPatchSchema, body);
  const changed = (Object.keys(patch) as (keyof typeof patch)[]).filter(
    (k) => patch[k] !== undefined && patch[k] !== before[k],
  );
  if (changed.length === 0) return toReport(before);
  await updateReport(services.db, id, patch);
  const after = await findReport(services.db, id);
  if (!after) throw notFound();
  await audit(services.db, {
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "report.update",
    target: id,
    details: {
      fields: changed,
      before: Object.fromEntries(changed.map((k) => [k, before[k]])),
      after: Object.fromEntries(changed.map((k) => [k, after[k]])),
    },
    ip: actor.ip,
  });
  return toReport(after);
}

export async function removeReport(services: Services, actor: Actor, id: string): Promise<void> {
  const row = await changeable(services, actor, id, "DELETE /api/reports/:id");
  if (!(await deleteReport(services.db, id))) throw notFound();
  await audit(services.db, {
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: "report.delete",
    target: id,
    details: { studentName: row.studentName, course: row.course, authorId: row.authorId },
    ip: actor.ip,
  });
}

export const csvHeader = [
  "id",
  "studentName",
  "course",
  "marks",
  "attendance",
  "assignments",
  "behavior",
  "feedback",
  "authorName",
  "createdAt",
  "updatedAt",
] as const;

/**
 * The whole current search as CSV lines, read page by page with the same keyset as the list so
 * memory stays flat whatever the number of reports.
 */
export async function* exportCsv(
  services: Services,
  query: { search: string; sort: ReportSort },
  batch = 2000,
): AsyncGenerator<string> {
  // A byte order mark so spreadsheet programs read the file as UTF-8.
  yield `\uFEFF${csvRow(csvHeader)}`;
  let after: ListPosition | undefined;
  for (;;) {
    const rows = await listReports(services.db, { ...query, limit: batch, after });
    if (rows.length === 0) return;
    let chunk = "";
    for (const row of rows) {
      const r = toReport(row);
      chunk += csvRow(csvHeader.map((k) => r[k]));
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
