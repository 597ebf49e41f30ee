import { setImmediate as nextTurn } from "node:timers/promises";
import type {
  ClassInvitation,
  ClassMember,
  ClassTeacher,
  MyClassInvitation,
  Subject,
} from "@gradecast/contract/classes";
import { isId } from "@gradecast/contract/ids";
import { type Kysely, sql } from "kysely";
import { columnSet, deleteRows, hasRow, insertNew } from "../db/rows.ts";
import type { DB } from "../db/schema.ts";

// Every SQL statement of classes: the classes, their teachers, enrolments and roster
// invitations (migration 0009). Each function takes the database or a transaction.
type Db = Kysely<DB>;

const iso = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface ClassRecord {
  id: string;
  name: string;
  subject: Subject;
  year: string;
  joinCode: string | null;
  createdAt: string;
  studentCount: number;
}

function classColumns(db: Db) {
  return db
    .selectFrom("classes as c")
    .select([
      "c.id",
      "c.name",
      "c.subject",
      "c.year",
      "c.join_code as joinCode",
      iso("c.created_at").as("createdAt"),
      sql<number>`(select count(*)::int from enrolments e where e.class_id = c.id)`.as(
        "studentCount",
      ),
    ]);
}

export function findClass(db: Db, id: string): Promise<ClassRecord | undefined> {
  if (!isId(id)) return Promise.resolve(undefined);
  return classColumns(db).where("c.id", "=", id).executeTakeFirst();
}

export type ClassFilter = { all: true } | { teacherId: string } | { studentId: string };

/** Classes newest first: all of them, a teacher's, or the ones a student is enrolled in. */
export function listClasses(db: Db, filter: ClassFilter): Promise<ClassRecord[]> {
  let query = classColumns(db);
  if ("teacherId" in filter) {
    query = query.where("c.id", "in", (qb) =>
      qb.selectFrom("class_teachers").select("class_id").where("teacher_id", "=", filter.teacherId),
    );
  } else if ("studentId" in filter) {
    query = query.where("c.id", "in", (qb) =>
      qb.selectFrom("enrolments").select("class_id").where("student_id", "=", filter.studentId),
    );
  }
  return query.orderBy("c.created_at", "desc").orderBy("c.id", "desc").execute();
}

/** The teachers of each given class, by name. */
export async function teachersOf(db: Db, classIds: string[]): Promise<Map<string, ClassTeacher[]>> {
  const byClass = new Map<string, ClassTeacher[]>();
  if (classIds.length === 0) return byClass;
  const rows = await db
    .selectFrom("class_teachers as t")
    .innerJoin("users as u", "u.id", "t.teacher_id")
    .select(["t.class_id", "u.id", "u.name", "u.email"])
    .where("t.class_id", "in", classIds)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
  for (const row of rows) {
    const list = byClass.get(row.class_id) ?? [];
    list.push({ id: row.id, name: row.name, email: row.email });
    byClass.set(row.class_id, list);
  }
  return byClass;
}

export function isTeacherOf(db: Db, classId: string, userId: string): Promise<boolean> {
  return hasRow(db, "class_teachers", { class_id: classId, teacher_id: userId });
}

export function isEnrolled(db: Db, classId: string, userId: string): Promise<boolean> {
  return hasRow(db, "enrolments", { class_id: classId, student_id: userId });
}

export async function insertClass(
  db: Db,
  values: { name: string; subject: Subject; year: string; joinCode: string; createdBy: string },
): Promise<string> {
  const row = await db
    .insertInto("classes")
    .values({
      name: values.name,
      subject: values.subject,
      year: values.year,
      join_code: values.joinCode,
      created_by: values.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateClass(
  db: Db,
  id: string,
  changes: { name?: string; subject?: Subject; year?: string; joinCode?: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("classes")
    .set({
      // Kysely leaves out the columns whose value is undefined: only what changes is set.
      name: changes.name,
      subject: changes.subject,
      year: changes.year,
      join_code: changes.joinCode,
      updated_at: sql`${now.toISOString()}::timestamptz`,
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteClass(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("classes").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function findClassByCode(db: Db, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("classes")
    .select("id")
    .where("join_code", "=", code)
    .executeTakeFirst();
  return row?.id;
}

/** Adds a teacher; false when they already teach the class. */
export async function addTeacher(db: Db, classId: string, teacherId: string): Promise<boolean> {
  return insertNew(db, "class_teachers", { class_id: classId, teacher_id: teacherId });
}

/**
 * Removes a teacher unless they are the class's last one. Run it in a transaction (`tx`): the
 * class row stays locked to its end, so two teachers removing each other at once cannot leave
 * the class with none. "last" and "absent" say why not.
 */
export async function removeTeacher(
  tx: Db,
  classId: string,
  teacherId: string,
): Promise<"removed" | "last" | "absent"> {
  // Lock the class row: concurrent removals on one class take turns.
  await tx.selectFrom("classes").select("id").where("id", "=", classId).forUpdate().execute();
  const teachers = await tx
    .selectFrom("class_teachers")
    .select("teacher_id")
    .where("class_id", "=", classId)
    .execute();
  if (!teachers.some((t) => t.teacher_id === teacherId)) return "absent";
  if (teachers.length <= 1) return "last";
  await deleteRows(tx, "class_teachers", { class_id: classId, teacher_id: teacherId });
  return "removed";
}

/** Enrols a student; false when they were enrolled already. */
export async function enrol(db: Db, classId: string, studentId: string): Promise<boolean> {
  return insertNew(db, "enrolments", { class_id: classId, student_id: studentId });
}

export async function unenrol(db: Db, classId: string, studentId: string): Promise<boolean> {
  return (await deleteRows(db, "enrolments", { class_id: classId, student_id: studentId })) > 0;
}

export function listStudents(db: Db, classId: string): Promise<ClassMember[]> {
  return db
    .selectFrom("enrolments as e")
    .innerJoin("users as u", "u.id", "e.student_id")
    .select(["u.id", "u.name", "u.email", iso("e.enrolled_at").as("enrolledAt")])
    .where("e.class_id", "=", classId)
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
}

export function listInvitations(db: Db, classId: string): Promise<ClassInvitation[]> {
  return db
    .selectFrom("class_invitations")
    .select(["email", "name", iso("created_at").as("invitedAt")])
    .where("class_id", "=", classId)
    .orderBy("name")
    .orderBy("email")
    .execute();
}

export interface RosterAccount {
  id: string;
  email: string;
  role: "student" | "teacher" | "admin";
  pendingRole: "teacher" | null;
  emailVerified: boolean;
  /** The person's language (issue 33); null follows the browser. */
  locale: "en" | "pt-PT" | null;
}

export function accountsByEmail(db: Db, emails: string[]): Promise<RosterAccount[]> {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("users")
    .select([
      "id",
      "email",
      "role",
      "pending_role as pendingRole",
      "email_verified as emailVerified",
      "locale",
    ])
    .where("email", "in", emails)
    .execute();
}

export function enrolledIds(db: Db, classId: string): Promise<Set<string>> {
  return columnSet(db, "enrolments", "student_id", { class_id: classId });
}

export function invitedEmails(db: Db, classId: string): Promise<Set<string>> {
  return columnSet(db, "class_invitations", "email", { class_id: classId });
}

/** Removes a class's invitation to an email; its name, or undefined when there was none. */
export async function deleteInvitation(
  db: Db,
  classId: string,
  email: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom("class_invitations")
    .where("class_id", "=", classId)
    .where("email", "=", email)
    .returning("name")
    .executeTakeFirst();
  return row?.name;
}

/**
 * Records invitations; returns the emails that were not invited before. `needsConsent`: the
 * address has an account, whose owner accepts or declines (issue 26).
 */
export async function insertInvitations(
  db: Db,
  classId: string,
  invitedBy: string,
  rows: { email: string; name: string; needsConsent: boolean }[],
): Promise<string[]> {
  const emails: string[] = [];
  // A hundred rows a statement, other requests running in between: PGlite runs each statement
  // in this process, and a thousand rows in one held it for most of a second.
  for (let at = 0; at < rows.length; at += 100) {
    if (at > 0) await nextTurn();
    const inserted = await db
      .insertInto("class_invitations")
      .values(
        rows.slice(at, at + 100).map((r) => ({
          class_id: classId,
          email: r.email,
          name: r.name,
          invited_by: invitedBy,
          needs_consent: r.needsConsent,
        })),
      )
      .onConflict((oc) => oc.columns(["class_id", "email"]).doNothing())
      .returning("email")
      .execute();
    emails.push(...inserted.map((r) => r.email));
  }
  return emails;
}

/**
 * Turns every open invitation to a new address (one that had no account when invited) into an
 * enrolment of the account that has just proven it, and removes them; returns the classes the
 * account was enrolled in. Invitations that need their owner's answer stay (issue 26). Run it in
 * a transaction (`tx`).
 */
export async function acceptInvitations(
  tx: Db,
  email: string,
  studentId: string,
): Promise<string[]> {
  const invited = await tx
    .deleteFrom("class_invitations")
    .where("email", "=", email)
    .where("needs_consent", "=", false)
    .returning("class_id")
    .execute();
  const classIds = invited.map((r) => r.class_id);
  if (classIds.length === 0) return [];
  await tx
    .insertInto("enrolments")
    .values(classIds.map((classId) => ({ class_id: classId, student_id: studentId })))
    .onConflict((oc) => oc.columns(["class_id", "student_id"]).doNothing())
    .execute();
  return classIds;
}

/** The classes that invited an address, with their teachers' names, newest invitation first. */
export async function invitationsTo(db: Db, email: string): Promise<MyClassInvitation[]> {
  const rows = await db
    .selectFrom("class_invitations as i")
    .innerJoin("classes as c", "c.id", "i.class_id")
    .select([
      "c.id as classId",
      "c.name",
      "c.subject",
      "c.year",
      iso("i.created_at").as("invitedAt"),
    ])
    .where("i.email", "=", email)
    .orderBy("i.created_at", "desc")
    .orderBy("c.id")
    .execute();
  const teachers = await teachersOf(
    db,
    rows.map((r) => r.classId),
  );
  return rows.map((r) => ({
    ...r,
    teachers: (teachers.get(r.classId) ?? []).map((t) => ({ name: t.name })),
  }));
}

/** Removes a class's invitation to an address: true when there was one. */
export async function takeInvitation(db: Db, classId: string, email: string): Promise<boolean> {
  return (await deleteInvitation(db, classId, email)) !== undefined;
}

/** Invitation emails a person's imports sent on a UTC day (YYYY-MM-DD). */
export async function emailsSentOn(db: Db, senderId: string, day: string): Promise<number> {
  const row = await db
    .selectFrom("roster_email_counts")
    .select("sent")
    .where("sender_id", "=", senderId)
    .where("day", "=", day)
    .executeTakeFirst();
  return row?.sent ?? 0;
}

/**
 * Counts `count` more emails for the day if that stays within `cap`, in one statement (two
 * imports at once cannot both pass): false, and nothing counted, when it would not.
 */
export async function reserveEmails(
  db: Db,
  senderId: string,
  day: string,
  count: number,
  cap: number,
): Promise<boolean> {
  if (count === 0) return true;
  if (count > cap) return false;
  const row = await db
    .insertInto("roster_email_counts")
    .values({ sender_id: senderId, day, sent: count })
    .onConflict((oc) =>
      oc
        .columns(["sender_id", "day"])
        .doUpdateSet({ sent: sql`roster_email_counts.sent + ${count}` })
        .where(sql<boolean>`roster_email_counts.sent + ${count} <= ${cap}`),
    )
    .returning("sent")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Ends a student's sharing with teachers who no longer teach them in any class (after they
 * leave a class or are taken out of one): the teacher of a class they join again later sees
 * their full explanation only once they share again.
 */
export async function pruneShares(db: Db, filter: { studentId: string } | { all: true }) {
  let query = db
    .deleteFrom("explanation_share_teachers as s")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("enrolments as e")
            .innerJoin("class_teachers as t", "t.class_id", "e.class_id")
            .select(sql`1`.as("one"))
            .whereRef("e.student_id", "=", "s.student_id")
            .whereRef("t.teacher_id", "=", "s.teacher_id"),
        ),
      ),
    );
  if ("studentId" in filter) query = query.where("s.student_id", "=", filter.studentId);
  await query.execute();
}
