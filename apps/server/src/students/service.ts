import type { StudentRecord } from "@gradecast/contract/prediction";
import { privacyNoticeVersion } from "@gradecast/contract/privacy";
import type { Questionnaire } from "@gradecast/contract/questionnaire";
import { adminRecords } from "../admin/records.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import { acceptedAnswers } from "../prediction/service.ts";
import type { Services } from "../services.ts";
import { insertStudent, listStudents, type StudentRecordRow } from "./queries.ts";
import { withSubject } from "./subject.ts";

// Questionnaires (issue 6): validated by the contract's schema (strings or numbers, exact option
// sets, whole numbers in range) and stored as numbers. Each user reads only their own: the
// questionnaire holds family and lifestyle answers, so teachers never reach it (access table).

/** How many saved questionnaires GET /api/students/mine returns at most. */
export const studentListLimit = 100;

export function toStudentRecord(row: StudentRecordRow): StudentRecord {
  return { ...row.answers, id: row.id, createdAt: row.createdAt.toISOString() };
}

export async function saveQuestionnaire(
  services: Services,
  user: AuthUser,
  input: Questionnaire,
): Promise<StudentRecord> {
  const answers = await withSubject(
    services.db,
    user.id,
    await acceptedAnswers(services, user, input),
  );
  // The questionnaire screen links the privacy notice: its version is kept with the answers.
  return toStudentRecord(await insertStudent(services.db, user.id, answers, privacyNoticeVersion));
}

export async function myQuestionnaires(
  services: Services,
  user: AuthUser,
): Promise<StudentRecord[]> {
  const rows = await listStudents(services.db, { userId: user.id, limit: studentListLimit });
  return rows.map(toStudentRecord);
}

/** Admins only (access table): every user's questionnaires, or one user's, with the owner. */
export const allQuestionnaires = adminRecords(listStudents, toStudentRecord);
