import type { QuestionKey, Questionnaire } from "@gradecast/contract/questionnaire";
import { questionKeys } from "@gradecast/contract/questionnaire";
import { type Kysely, sql } from "kysely";
import { newestFirst, type OwnedRecordsQuery } from "../db/rows.ts";
import type { DB, StudentsTable } from "../db/schema.ts";

// The students table. The questionnaire's keys (Pstatus, Medu, G1…) live in lower-case columns;
// this map is the one place that knows it.

type AnswerColumn = Exclude<keyof StudentsTable, "id" | "user_id" | "created_at">;

export const columnOf: Record<QuestionKey, AnswerColumn> = {
  school: "school",
  sex: "sex",
  age: "age",
  address: "address",
  famsize: "famsize",
  Pstatus: "pstatus",
  Medu: "medu",
  Fedu: "fedu",
  Mjob: "mjob",
  Fjob: "fjob",
  reason: "reason",
  guardian: "guardian",
  traveltime: "traveltime",
  studytime: "studytime",
  failures: "failures",
  schoolsup: "schoolsup",
  famsup: "famsup",
  paid: "paid",
  activities: "activities",
  nursery: "nursery",
  higher: "higher",
  internet: "internet",
  romantic: "romantic",
  famrel: "famrel",
  freetime: "freetime",
  goout: "goout",
  health: "health",
  absences: "absences",
  G1: "g1",
  G2: "g2",
  subject: "subject",
};

export interface StudentRecordRow {
  id: string;
  userId: string;
  createdAt: Date;
  answers: Questionnaire;
}

const selected = questionKeys.map((k) => columnOf[k]);

function toRow(row: Record<string, unknown>): StudentRecordRow {
  const answers = Object.fromEntries(questionKeys.map((k) => [k, row[columnOf[k]]]));
  return {
    id: row.id as string,
    userId: row.user_id as string,
    createdAt: new Date(row.createdAt as string | Date),
    answers: answers as Questionnaire,
  };
}

export async function insertStudent(
  db: Kysely<DB>,
  userId: string,
  answers: Questionnaire,
  /** The privacy notice version the student was shown (issue 31 part B). */
  noticeVersion: string | null = null,
): Promise<StudentRecordRow> {
  const values = Object.fromEntries(questionKeys.map((k) => [columnOf[k], answers[k]]));
  const row = await db
    .insertInto("students")
    .values({
      ...(values as Record<AnswerColumn, never>),
      user_id: userId,
      notice_version: noticeVersion,
    })
    .returning(["id", "user_id", ...selected])
    .returning(sql<Date>`created_at`.as("createdAt"))
    .executeTakeFirstOrThrow();
  return toRow(row);
}

/** Questionnaires newest first: one user's, or everyone's when userId is undefined. */
export async function listStudents(
  db: Kysely<DB>,
  options: OwnedRecordsQuery,
): Promise<StudentRecordRow[]> {
  const rows = await db
    .selectFrom("students")
    .select(["id", "user_id", ...selected])
    .select(sql<Date>`created_at`.as("createdAt"))
    .$call((q) => newestFirst(q, options))
    .execute();
  return rows.map(toRow);
}
