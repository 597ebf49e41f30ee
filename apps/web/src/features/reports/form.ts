import { messages } from "@gradecast/contract/messages";
import type { ReportFields } from "@gradecast/contract/reports";
import {
  acceptsTyping,
  reportFormMessage,
  reportInputSchema,
  reportLimits,
} from "@gradecast/contract/reports";
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

/** The rule a refused keystroke or paste shows beside the field: "Whole number from 0 to 100." */
export function maskRule(field: NumericField): string {
  const { min, max } = reportLimits[field];
  return messages.maskWholeNumber(min, max);
}

export function pasteNotice(field: NumericField): string {
  return messages.maskPasteRefused(maskRule(field));
}

/**
 * The value a paste would leave (the pasted text in place of the selection), or null
 * when the mask refuses it: a paste is taken whole or not at all, never cut down to fit.
 */
export function afterPaste(
  field: NumericField,
  current: string,
  pasted: string,
  selectionStart: number,
  selectionEnd: number,
): string | null {
  const next = current.slice(0, selectionStart) + pasted + current.slice(selectionEnd);
  return acceptsTyping(field, next) ? next : null;
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
