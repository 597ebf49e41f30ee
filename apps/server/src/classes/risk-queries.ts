import type { InterventionNote } from "@gradecast/contract/class-risk";
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";

// Every SQL statement of the class risk list (migration 0013) but the predictions (their
// repository is db/predictions.ts): each student's sharing choice, and the class's intervention
// notes.
type Db = Kysely<DB>;

const iso = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const day = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

/** Students enrolled in the class, as a subquery (no list of ids to bind). */
const enrolled = (db: Db, classId: string) =>
  db.selectFrom("enrolments").select("student_id").where("class_id", "=", classId);

/**
 * The students of the class who share their full explanation with this teacher (issue 26:
 * sharing applies to the teachers it was given to, not to every teacher a student has later).
 */
export async function sharingStudents(
  db: Db,
  classId: string,
  teacherId: string,
): Promise<Set<string>> {
  const rows = await db
    .selectFrom("explanation_share_teachers")
    .select("student_id")
    .where("student_id", "in", enrolled(db, classId))
    .where("teacher_id", "=", teacherId)
    .execute();
  return new Set(rows.map((r) => r.student_id));
}

/** The teachers of a student's classes, each once, and whether the student shares with them. */
export async function teachersOfStudent(
  db: Db,
  studentId: string,
): Promise<{ id: string; name: string; shared: boolean }[]> {
  const rows = await db
    .selectFrom("users as u")
    .select(["u.id", "u.name"])
    .select(({ exists, selectFrom }) =>
      exists(
        selectFrom("explanation_share_teachers as s")
          .select(sql`1`.as("one"))
          .where("s.student_id", "=", studentId)
          .whereRef("s.teacher_id", "=", "u.id"),
      ).as("shared"),
    )
    .where("u.id", "in", (qb) =>
      qb
        .selectFrom("class_teachers as t")
        .innerJoin("enrolments as e", "e.class_id", "t.class_id")
        .select("t.teacher_id")
        .where("e.student_id", "=", studentId),
    )
    .orderBy("u.name")
    .orderBy("u.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, shared: Boolean(r.shared) }));
}

/** Shares with these teachers too; how many were not shared with before. */
export async function shareWithTeachers(
  db: Db,
  studentId: string,
  teacherIds: string[],
  now: Date,
): Promise<number> {
  if (teacherIds.length === 0) return 0;
  const rows = await db
    .insertInto("explanation_share_teachers")
    .values(teacherIds.map((t) => ({ student_id: studentId, teacher_id: t, shared_at: now })))
    .onConflict((oc) => oc.columns(["student_id", "teacher_id"]).doNothing())
    .returning("teacher_id")
    .execute();
  return rows.length;
}

export async function unshareAll(db: Db, studentId: string): Promise<void> {
  await db.deleteFrom("explanation_share_teachers").where("student_id", "=", studentId).execute();
}

export async function findSharing(
  db: Db,
  userId: string,
): Promise<{ shared: boolean; changedAt: string } | undefined> {
  return db
    .selectFrom("explanation_shares")
    .select(["shared", iso("changed_at").as("changedAt")])
    .where("student_id", "=", userId)
    .executeTakeFirst();
}

export async function saveSharing(
  db: Db,
  userId: string,
  shared: boolean,
  now: Date,
): Promise<void> {
  await db
    .insertInto("explanation_shares")
    .values({ student_id: userId, shared, changed_at: now })
    .onConflict((oc) => oc.column("student_id").doUpdateSet({ shared, changed_at: now }))
    .execute();
}

function noteColumns(db: Db) {
  return db
    .selectFrom("intervention_notes as n")
    .select([
      "n.id",
      "n.student_id as studentId",
      "n.action",
      day("n.done_on").as("doneOn"),
      day("n.follow_up_on").as("followUpOn"),
      "n.author_id as authorId",
      "n.author_name as authorName",
      iso("n.created_at").as("createdAt"),
    ]);
}

type NoteRow = {
  id: string;
  studentId: string;
  action: string;
  doneOn: string;
  followUpOn: string | null;
  authorId: string | null;
  authorName: string;
  createdAt: string;
};

const toNote = ({ authorId, authorName, ...n }: NoteRow): InterventionNote => ({
  ...n,
  author: { id: authorId, name: authorName },
});

/** The class's notes, newest first (most recent action, then most recently written). */
export async function classNotes(db: Db, classId: string): Promise<InterventionNote[]> {
  const rows = await noteColumns(db)
    .where("n.class_id", "=", classId)
    .orderBy("n.done_on", "desc")
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .execute();
  return rows.map(toNote);
}

export async function insertNote(
  db: Db,
  values: {
    classId: string;
    studentId: string;
    authorId: string;
    authorName: string;
    action: string;
    doneOn: string;
    followUpOn: string | null;
  },
): Promise<InterventionNote> {
  const { id } = await db
    .insertInto("intervention_notes")
    .values({
      class_id: values.classId,
      student_id: values.studentId,
      author_id: values.authorId,
      author_name: values.authorName,
      action: values.action,
      done_on: values.doneOn,
      follow_up_on: values.followUpOn,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const row = await noteColumns(db).where("n.id", "=", id).executeTakeFirstOrThrow();
  return toNote(row);
}
