import { type Questionnaire, questionKeys, questions } from "@gradecast/contract/questionnaire";
import type { Insertable } from "kysely";
import type { StudentsTable } from "../../src/db/schema.ts";
import { columnOf } from "../../src/students/queries.ts";

/** A whole, valid questionnaire (each question's first answer), for rows a test writes itself. */
export const validAnswers = Object.fromEntries(
  questions.map((q) => [q.key, q.key === "G1" || q.key === "G2" ? null : q.options[0]?.value]),
) as Questionnaire;

/** The answer columns of a `students` row holding a questionnaire, for rows a test writes itself. */
export function studentsRow(
  answers: Questionnaire,
): Omit<Insertable<StudentsTable>, "user_id" | "created_at"> {
  return Object.fromEntries(questionKeys.map((k) => [columnOf[k], answers[k]])) as Omit<
    Insertable<StudentsTable>,
    "user_id" | "created_at"
  >;
}

/** A `predictions` row of `validAnswers` (12, between 10 and 14), for rows a test writes itself. */
export function predictionRow(userId: string, modelVersion: string, classId?: string) {
  return {
    user_id: userId,
    inputs: JSON.stringify(validAnswers),
    score: 12,
    raw_score: 12,
    interval_low: 10,
    interval_high: 14,
    extrapolation: false,
    model_version: modelVersion,
    ...(classId === undefined ? {} : { class_id: classId }),
  };
}
