import { isId } from "@gradecast/contract/ids";
import type { PolicyCaller } from "../auth/actor.ts";
import { forbidden, notFound } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import { findReport, type ReportRecord } from "./queries.ts";
import { teaches } from "./rosters.ts";

// Who may do what with one report, as a domain rule that knows nothing of HTTP. Which roles may
// call a route at all is the access table's; this decides, for a caller it let through, what the
// report is to them (docs/decisions/0005): an admin reads and changes every report; its author
// reads and changes it; a teacher of the class it was filed through (co-teachers included) reads
// it. Anybody else is answered as if it did not exist (404); a caller who may read the report but
// not change it gets 403 for a change.

/** What a caller is to a report. */
export type ReportRelation = "admin" | "author" | "classTeacher";

/** What a caller does with a report. */
export type ReportVerb = "read" | "change";

/** The verbs each relationship may use. */
export const reportVerbs: Readonly<Record<ReportRelation, readonly ReportVerb[]>> = {
  admin: ["read", "change"],
  author: ["read", "change"],
  classTeacher: ["read"],
};

/** The caller's relationship to the report, undefined when they have none. */
export async function reportRelation(
  services: Pick<Services, "db">,
  caller: PolicyCaller,
  row: ReportRecord,
): Promise<ReportRelation | undefined> {
  const { id, role } = caller.user;
  if (role === "admin") return "admin";
  if (row.authorId === id) return "author";
  if (row.classId !== null && (await teaches(services.db, id, row.classId))) return "classTeacher";
  return undefined;
}

/**
 * The report when the caller may `verb` it, with their relationship to it: 404 when it is
 * unknown or they have none, 403 when they may read it but `verb` is more.
 */
export async function reportAccess(
  services: Pick<Services, "db">,
  caller: PolicyCaller,
  reportId: string,
  verb: ReportVerb,
): Promise<{ record: ReportRecord; relation: ReportRelation }> {
  const record = isId(reportId) ? await findReport(services.db, reportId) : undefined;
  const relation = record && (await reportRelation(services, caller, record));
  if (!record || !relation) throw notFound();
  if (!reportVerbs[relation].includes(verb)) throw forbidden();
  return { record, relation };
}
