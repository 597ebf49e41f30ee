import { messages } from "@gradecast/contract/messages";
import { acceptsTyping, reportFormMessage, reportInputSchema } from "@gradecast/contract/reports";
import type { ReportFormValues } from "./api.ts";

// The report form's rules, from the contract: the input masks and the one message of SPEC.md
// section 5 for a set of field errors.

export const emptyReport: ReportFormValues = {
  studentName: "",
  course: "",
  marks: "",
  attendance: "",
  assignments: "",
  behavior: "",
  feedback: "",
};

export type NumericField = "marks" | "attendance" | "assignments";
export const numericFields: readonly NumericField[] = ["marks", "attendance", "assignments"];

/** The value after a keystroke: the typed text if the mask accepts it, else the old value. */
export function masked(field: NumericField, previous: string, typed: string): string {
  return acceptsTyping(field, typed) ? typed : previous;
}

export interface FormCheck {
  fields: Record<string, string>;
  message: string | null;
}

export function checkReport(values: ReportFormValues): FormCheck {
  const result = reportInputSchema.safeParse(values);
  if (result.success) return { fields: {}, message: null };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "form");
    fields[key] ??= issue.message;
  }
  return { fields, message: reportFormMessage(fields) ?? messages.reportRequired };
}

export function fromReport(r: {
  studentName: string;
  course: string;
  marks: number;
  attendance: number;
  assignments: number;
  behavior: string;
  feedback: string;
}): ReportFormValues {
  return {
    studentName: r.studentName,
    course: r.course,
    marks: String(r.marks),
    attendance: String(r.attendance),
    assignments: String(r.assignments),
    behavior: r.behavior,
    feedback: r.feedback,
  };
}
