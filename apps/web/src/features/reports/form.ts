import { messages } from "@gradecast/contract/messages";
import type { ReportFields } from "@gradecast/contract/reports";
import { reportFormMessage, reportInputSchema, reportLimits } from "@gradecast/contract/reports";
import type { ReportFormValues } from "./api.ts";

// The report form's rules, from the contract: what is wrong with a number as typed, and the one
// message of the report form for a set of field errors.

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

/**
 * What is wrong with a number as typed, said beside its field; undefined when it is empty or
 * right. Nothing typed is ever changed: "101", "-5", "7.5" stay as they are, the field is
 * marked, and the form refuses them on send with the contract's one message. Spaces around a number
 * (pasted from a spreadsheet: "85 ") are not an error: the contract's schema trims them.
 * `say` writes the message in the page's language (English by default).
 */
export function numberError(
  field: NumericField,
  typed: string,
  say: (problem: NumberProblem) => string = englishNumberError,
): string | undefined {
  const text = typed.trim();
  if (text === "") return undefined;
  // The same check as on send and on the server.
  if (reportInputSchema.shape[field].safeParse(typed).success) return undefined;
  const { min, max } = reportLimits[field];
  const shown = text.length > 12 ? `${text.slice(0, 12)}…` : text;
  return say({ shown, min, max });
}

/** A number as typed (cut to 12 characters) and the range it is out of. */
export interface NumberProblem {
  shown: string;
  min: number;
  max: number;
}

/** The English words, as the catalogue's reports.field.notWholeNumber writes them. */
export const englishNumberError = ({ shown, min, max }: NumberProblem) =>
  `“${shown}” is not a whole number from ${min} to ${max}.`;

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

export function fromReport(r: ReportFields): ReportFormValues {
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
