import type { StudentRecord } from "@gradecast/contract/prediction";
import { api } from "../../api/client.ts";

// Saving the questionnaire (the original's "Add student" call).
export function saveQuestionnaire(answers: Record<string, string>) {
  return api<{ student: StudentRecord }>("POST", "/api/students", answers).then((r) => r.student);
}
