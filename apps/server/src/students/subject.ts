import type { ModelSchool, Questionnaire, Subject } from "@gradecast/contract/questionnaire";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// The school and the subject are inputs of the model the server fills in. The school is the
// deployment's (issue 28). The subject is an input of the model (issue 19). A student answers it in the questionnaire;
// when they leave it out and are enrolled in classes of a single subject, that class's subject
// is used. This is the one place that fills it in: the classes work decides enrolments, this
// only reads them (a student enrolled in classes of both subjects must answer it).

export async function enrolledSubject(db: Kysely<DB>, userId: string): Promise<Subject | null> {
  const rows = await db
    .selectFrom("enrolments")
    .innerJoin("classes", "classes.id", "enrolments.class_id")
    .select("classes.subject")
    .distinct()
    .where("enrolments.student_id", "=", userId)
    .execute();
  return rows.length === 1 ? rows[0]!.subject : null;
}

/** The answers with the subject filled in from the student's class when it was left out. */
export async function withSubject(
  db: Kysely<DB>,
  userId: string,
  answers: Questionnaire,
): Promise<Questionnaire> {
  if (answers.subject !== null) return answers;
  const subject = await enrolledSubject(db, userId);
  return subject === null ? answers : { ...answers, subject };
}

/**
 * The answers with the deployment's school (MODEL_SCHOOL, or null for neither) in place of
 * whatever was sent: the school is never the student's answer (issue 28).
 */
export function withSchool(school: ModelSchool | null, answers: Questionnaire): Questionnaire {
  return { ...answers, school };
}
