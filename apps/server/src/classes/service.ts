import { randomInt } from "node:crypto";
import {
  type addTeacherSchema,
  type ClassCreate,
  type ClassMembers,
  type ClassPatch,
  type ClassView,
  classInvitationParamsSchema,
  classMessages,
  type joinClassSchema,
  joinCodeAlphabet,
  joinCodeLength,
  type RosterResult,
} from "@gradecast/contract/classes";
import { isId } from "@gradecast/contract/ids";
import type { z } from "zod";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { forgetRecordContext } from "../db/record-context.ts";
import { hasSqlState, sqlStates } from "../db/sql-errors.ts";
import { findUserByEmail } from "../db/users.ts";
import { conflict, DomainError, hasCode, invalid, notFound } from "../domain-errors.ts";
import { localizedClassInvitationEmail } from "../i18n/emails.ts";
import { appUrl, sendMail } from "../mail/send.ts";
import type { Services } from "../services.ts";
import { type ClassAccess, classAccess } from "./policy.ts";
import * as q from "./queries.ts";
import { parseRosterFile } from "./roster-file.ts";

// The rules of classes: who reaches which class (policy.ts: its teachers, admins, and for
// reading its enrolled students; anybody else gets 404, the same answer as for a class that does
// not exist), join codes, co-teachers, enrolment and roster imports. Every change is audited in the
// transaction that makes it, so no change stands without its entry nor an entry without it.

export type { Actor };

const classNotFound = () => notFound(classMessages.classNotFound);

export function newJoinCode(): string {
  let code = "";
  for (let i = 0; i < joinCodeLength; i++)
    code += joinCodeAlphabet[randomInt(joinCodeAlphabet.length)];
  return code;
}

const isUniqueViolation = (error: unknown) => hasSqlState(error, sqlStates.uniqueViolation);

/** Runs `write` with fresh codes until one is not taken (a clash is about 1 in 10^11). */
async function withFreshCode<T>(write: (code: string) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(newJoinCode());
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4) throw error;
    }
  }
}

async function toViews(
  services: Services,
  records: q.ClassRecord[],
  showCode: boolean,
): Promise<ClassView[]> {
  const teachers = await q.teachersOf(
    services.db,
    records.map((r) => r.id),
  );
  return records.map((r) => ({
    id: r.id,
    name: r.name,
    subject: r.subject,
    year: r.year,
    teachers: teachers.get(r.id) ?? [],
    studentCount: r.studentCount,
    ...(showCode ? { joinCode: r.joinCode } : {}),
    createdAt: r.createdAt,
  }));
}

/** The class as its caller sees it now; the join code only when they teach it or are an admin. */
async function viewOf(services: Services, id: string, showCode: boolean): Promise<ClassView> {
  const record = await q.findClass(services.db, id);
  const [view] = record ? await toViews(services, [record], showCode) : [];
  if (!view) throw classNotFound();
  return view;
}

/** The view after a change by a caller who manages the class (a teacher of it or an admin). */
const managedView = (services: Services, access: ClassAccess<"manage">) =>
  viewOf(services, access.record.id, true);

export async function createClass(services: Services, actor: Actor, input: ClassCreate) {
  const id = await withFreshCode((joinCode) =>
    services.db.transaction().execute(async (tx) => {
      const classId = await q.insertClass(tx, { ...input, joinCode, createdBy: actor.user.id });
      // An admin who creates a class is not its teacher: co-teachers are added by email.
      if (actor.user.role === "teacher") await q.addTeacher(tx, classId, actor.user.id);
      await audit(tx, { ...who(actor, classId), action: "class.create", details: { ...input } });
      return classId;
    }),
  );
  // Its creator teaches it, or is an admin: either way they manage it and see its code.
  return viewOf(services, id, true);
}

export async function listClasses(services: Services, actor: Actor): Promise<ClassView[]> {
  const { role, id } = actor.user;
  const records = await q.listClasses(
    services.db,
    role === "admin" ? { all: true } : role === "teacher" ? { teacherId: id } : { studentId: id },
  );
  return toViews(services, records, role !== "student");
}

export async function getClass(services: Services, actor: Actor, id: string): Promise<ClassView> {
  const { record, relation } = await classAccess(services, actor, id, "read");
  const [view] = await toViews(services, [record], relation !== "student");
  if (!view) throw classNotFound();
  return view;
}

/** Renames a class or changes its subject or year; `access` is the route's class check. */
export async function editClass(
  services: Services,
  actor: Actor,
  access: ClassAccess<"manage">,
  patch: ClassPatch,
) {
  const { record: before } = access;
  const id = before.id;
  const changed = (["name", "subject", "year"] as const).filter(
    (k) => patch[k] !== undefined && patch[k] !== before[k],
  );
  if (changed.length > 0) {
    await services.db.transaction().execute(async (tx) => {
      await q.updateClass(tx, id, patch, services.now());
      await audit(tx, {
        ...who(actor, id),
        action: "class.update",
        details: {
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, patch[k]])),
        },
      });
    });
    // The class's predictions are in its subject: its students' kept contexts are out of date.
    if (changed.includes("subject")) forgetRecordContext(id);
  }
  return managedView(services, access);
}

export async function removeClass(services: Services, actor: Actor, id: string): Promise<void> {
  const { record } = await classAccess(services, actor, id, "manage");
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.deleteClass(tx, id))) throw classNotFound();
    await q.pruneShares(tx, { all: true });
    await audit(tx, {
      ...who(actor, id),
      action: "class.delete",
      details: { name: record.name, subject: record.subject, year: record.year },
    });
  });
  forgetRecordContext(id);
}

export async function classMembers(
  services: Services,
  actor: Actor,
  id: string,
): Promise<ClassMembers> {
  await classAccess(services, actor, id, "manage");
  const [students, invitations] = await Promise.all([
    q.listStudents(services.db, id),
    q.listInvitations(services.db, id),
  ]);
  return { students, invitations };
}

/** Adds a co-teacher by email; `access` is the route's class check. */
export async function addCoTeacher(
  services: Services,
  actor: Actor,
  access: ClassAccess<"manage">,
  { email }: z.output<typeof addTeacherSchema>,
) {
  const id = access.record.id;
  const teacher = await findUserByEmail(services.db, email);
  // Approved teachers only: a pending sign-up is still a student account.
  if (teacher?.role !== "teacher" || teacher.disabled) {
    throw invalid(classMessages.notATeacher, { email: classMessages.notATeacher });
  }
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.addTeacher(tx, id, teacher.id))) throw conflict(classMessages.alreadyTeacher);
    await audit(tx, {
      ...who(actor, id),
      action: "class.teacher_added",
      details: { teacherId: teacher.id, email: teacher.email },
    });
  });
  return managedView(services, access);
}

export async function removeCoTeacher(
  services: Services,
  actor: Actor,
  id: string,
  teacherId: string,
) {
  await classAccess(services, actor, id, "manage");
  if (!isId(teacherId)) throw notFound();
  await services.db.transaction().execute(async (tx) => {
    const outcome = await q.removeTeacher(tx, id, teacherId);
    if (outcome === "absent") throw notFound();
    if (outcome === "last") throw conflict(classMessages.lastTeacher);
    await q.pruneShares(tx, { all: true });
    await audit(tx, { ...who(actor, id), action: "class.teacher_removed", details: { teacherId } });
  });
}

export async function removeStudent(
  services: Services,
  actor: Actor,
  id: string,
  studentId: string,
): Promise<void> {
  await classAccess(services, actor, id, "manage");
  if (!isId(studentId)) throw notFound(classMessages.notEnrolled);
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.unenrol(tx, id, studentId))) throw notFound(classMessages.notEnrolled);
    await q.pruneShares(tx, { studentId });
    await audit(tx, { ...who(actor, id), action: "class.student_removed", details: { studentId } });
  });
  forgetRecordContext(studentId);
}

/**
 * Takes back a roster invitation not yet used: the address is no longer enrolled when it
 * registers. 404 when the class has no open invitation to it.
 */
export async function cancelInvitation(
  services: Services,
  actor: Actor,
  id: string,
  email: unknown,
): Promise<void> {
  await classAccess(services, actor, id, "manage");
  const parsed = classInvitationParamsSchema.safeParse({ id, email });
  if (!parsed.success) throw notFound(classMessages.invitationNotFound);
  await services.db.transaction().execute(async (tx) => {
    const name = await q.deleteInvitation(tx, id, parsed.data.email);
    if (name === undefined) throw notFound(classMessages.invitationNotFound);
    await audit(tx, {
      ...who(actor, id),
      action: "class.invitation_cancelled",
      details: { email: parsed.data.email, name },
    });
  });
}

/** A new join code (also switches joining back on); the old one stops working at once. */
export async function rotateJoinCode(services: Services, actor: Actor, id: string) {
  const access = await classAccess(services, actor, id, "manage");
  // A clash ends its transaction, so each new code is tried in a transaction of its own.
  await withFreshCode((joinCode) =>
    services.db.transaction().execute(async (tx) => {
      await q.updateClass(tx, id, { joinCode }, services.now());
      await audit(tx, { ...who(actor, id), action: "class.code_rotated" });
    }),
  );
  return managedView(services, access);
}

export async function disableJoinCode(services: Services, actor: Actor, id: string) {
  const access = await classAccess(services, actor, id, "manage");
  await services.db.transaction().execute(async (tx) => {
    await q.updateClass(tx, id, { joinCode: null }, services.now());
    await audit(tx, { ...who(actor, id), action: "class.code_disabled" });
  });
  return managedView(services, access);
}

/** A code no class has (wrong, rotated away or switched off): the one answer that counts as a guess. */
export const unknownJoinCode = () =>
  new DomainError("invalid", "invalid_code", classMessages.joinCodeUnknown, {
    fields: {
      code: classMessages.joinCodeUnknown,
    },
  });
export const isUnknownJoinCode = (error: unknown) => hasCode(error, "invalid_code");

export async function joinClass(
  services: Services,
  actor: Actor,
  { code }: z.output<typeof joinClassSchema>,
): Promise<{ class: ClassView; joined: boolean }> {
  const classId = await q.findClassByCode(services.db, code);
  if (!classId) throw unknownJoinCode();
  const joined = await services.db.transaction().execute(async (tx) => {
    // Joining by code answers an open invitation to the same class too (issue 26).
    await q.takeInvitation(tx, classId, actor.user.email);
    if (!(await q.enrol(tx, classId, actor.user.id))) return false;
    await audit(tx, {
      ...who(actor, classId),
      action: "class.student_joined",
      details: { studentId: actor.user.id, via: "join_code" },
    });
    return true;
  });
  if (joined) forgetRecordContext(actor.user.id);
  // The caller is enrolled in it now: they see it as a student does (without its code).
  return { class: await viewOf(services, classId, actor.user.role !== "student"), joined };
}

/** Today's date in UTC (YYYY-MM-DD): the day invitation emails are counted on. */
const utcDay = (services: Services) => services.now().toISOString().slice(0, 10);

/**
 * A roster import: the preview (`dryRun`) says what would change; the real call does it in one
 * transaction and then emails the new invitations. A file with any bad line changes nothing.
 * Nobody is enrolled by an import (issue 26): every address not in the class yet is invited, and
 * the answer is the same whether an address has an account, of whichever kind. An account's
 * owner accepts or declines in the app; a new address is in the class once it registers and
 * verifies. Invitation emails count against the sender's daily cap, checked before anything is
 * written or sent.
 */
export async function importRoster(
  services: Services,
  actor: Actor,
  id: string,
  file: unknown,
  dryRun: boolean,
): Promise<RosterResult> {
  const { record } = await classAccess(services, actor, id, "manage");
  if (!Buffer.isBuffer(file)) {
    throw invalid(classMessages.rosterNotCsv, { file: classMessages.rosterNotCsv });
  }
  const { rows, errors } = await parseRosterFile(file);
  if (Object.keys(errors).length > 0) throw invalid(classMessages.rosterRejected, errors);
  const accounts = new Map(
    (
      await q.accountsByEmail(
        services.db,
        rows.map((r) => r.email),
      )
    ).map((a) => [a.email, a]),
  );

  const cap = services.config.invitationEmailsPerDay;
  const day = utcDay(services);
  const overCap = (sent: number, wanted: number) => {
    const message = classMessages.rosterEmailCap(cap, Math.max(0, cap - sent), wanted);
    return invalid(message, { file: message });
  };
  const plan = async (db: typeof services.db) => {
    const [enrolled, invited] = await Promise.all([q.enrolledIds(db, id), q.invitedEmails(db, id)]);
    const result: RosterResult = { invited: [], alreadyEnrolled: [], alreadyInvited: [], dryRun };
    for (const row of rows) {
      const account = accounts.get(row.email);
      if (account && enrolled.has(account.id)) result.alreadyEnrolled.push(row);
      else if (invited.has(row.email)) result.alreadyInvited.push(row);
      else result.invited.push(row);
    }
    return result;
  };
  if (dryRun) {
    const planned = await plan(services.db);
    const sent = await q.emailsSentOn(services.db, actor.user.id, day);
    if (sent + planned.invited.length > cap) throw overCap(sent, planned.invited.length);
    return planned;
  }

  const result = await services.db.transaction().execute(async (tx) => {
    const planned = await plan(tx);
    const newlyInvited = new Set(
      await q.insertInvitations(
        tx,
        id,
        actor.user.id,
        planned.invited.map((r) => ({ ...r, needsConsent: accounts.has(r.email) })),
      ),
    );
    // A parallel import of the same rows may have got there first: those count as "already".
    const done: RosterResult = {
      invited: planned.invited.filter((r) => newlyInvited.has(r.email)),
      alreadyEnrolled: planned.alreadyEnrolled,
      alreadyInvited: [
        ...planned.alreadyInvited,
        ...planned.invited.filter((r) => !newlyInvited.has(r.email)),
      ],
      dryRun: false,
    };
    if (!(await q.reserveEmails(tx, actor.user.id, day, done.invited.length, cap))) {
      // Thrown inside the transaction: the invitations above are not kept either.
      throw overCap(await q.emailsSentOn(tx, actor.user.id, day), done.invited.length);
    }
    await audit(tx, {
      ...who(actor, id),
      action: "class.roster_imported",
      details: {
        rows: rows.length,
        invited: done.invited.length,
        alreadyEnrolled: done.alreadyEnrolled.length,
        alreadyInvited: done.alreadyInvited.length,
      },
    });
    return done;
  });
  // A few at a time: a file of 1,000 new addresses took 8.4 s one by one, 4.8 s eight at a time
  // (outbox files, PGlite, measured). Staff accounts get no email: they cannot join a class as a
  // student (their invitation shows in the class as any other does, so the teacher learns
  // nothing from it).
  const queue = result.invited.filter((row) => {
    const account = accounts.get(row.email);
    return !account || account.role === "student";
  });
  const sender = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      await sendInvitation(services, record, row.email, accounts.get(row.email));
    }
  };
  await Promise.all(Array.from({ length: 8 }, sender));
  return result;
}

async function sendInvitation(
  services: Services,
  record: q.ClassRecord,
  to: string,
  account: q.RosterAccount | undefined,
): Promise<void> {
  // An account's own language; an address with no account gets the school's (DEFAULT_LOCALE).
  await sendMail(
    services,
    to,
    localizedClassInvitationEmail(account?.locale ?? services.config.defaultLocale, {
      className: record.name,
      subject: record.subject,
      year: record.year,
      appUrl: appUrl(services),
      schoolName: services.config.schoolName,
      hasAccount: account !== undefined,
    }),
  );
}

/** The class invitations waiting for the signed-in student's answer (issue 26). */
export async function myInvitations(services: Services, actor: Actor) {
  return { items: await q.invitationsTo(services.db, actor.user.email) };
}

const noInvitation = () => notFound(classMessages.myInvitationNotFound);

/** The student accepts a class's invitation: they are in the class from now on. */
export async function acceptInvitation(
  services: Services,
  actor: Actor,
  classId: string,
): Promise<{ class: ClassView; message: string }> {
  if (!isId(classId)) throw noInvitation();
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.takeInvitation(tx, classId, actor.user.email))) throw noInvitation();
    await q.enrol(tx, classId, actor.user.id);
    await audit(tx, {
      ...who(actor, classId),
      action: "class.invitation_accepted",
      details: { studentId: actor.user.id },
    });
  });
  forgetRecordContext(actor.user.id);
  return {
    // Enrolled now: the class as a student sees it (without its code).
    class: await viewOf(services, classId, false),
    message: classMessages.invitationAccepted,
  };
}

/** The student declines a class's invitation: it is gone, and the class learns only that. */
export async function declineInvitation(
  services: Services,
  actor: Actor,
  classId: string,
): Promise<void> {
  if (!isId(classId)) throw noInvitation();
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.takeInvitation(tx, classId, actor.user.email))) throw noInvitation();
    await audit(tx, {
      ...who(actor, classId),
      action: "class.invitation_declined",
      details: { studentId: actor.user.id },
    });
  });
}

/** The student leaves a class; its teachers no longer see them (nor share in their sharing). */
export async function leaveClass(services: Services, actor: Actor, classId: string) {
  if (!isId(classId)) throw notFound(classMessages.notInClass);
  await services.db.transaction().execute(async (tx) => {
    if (!(await q.unenrol(tx, classId, actor.user.id))) throw notFound(classMessages.notInClass);
    await q.pruneShares(tx, { studentId: actor.user.id });
    await audit(tx, {
      ...who(actor, classId),
      action: "class.student_left",
      details: { studentId: actor.user.id },
    });
  });
  forgetRecordContext(actor.user.id);
}
