import { z } from "zod";
import { messages } from "./messages.ts";
import { isPlainText, isSingleLine, plainTextMessage, singleLineMessage } from "./text.ts";

// Student reports: one schema validates the teacher form and the server, with the messages of
// messages.ts.
export const behaviors = ["Excellent", "Good", "Average", "Needs Improvement", "Poor"] as const;
export type Behavior = (typeof behaviors)[number];

export const reportLimits = {
  marks: { min: 0, max: 100, digits: 3 },
  attendance: { min: 0, max: 100, digits: 3 },
  assignments: { min: 0, max: 6, digits: 1 },
  studentName: { max: 100 },
  course: { max: 100 },
  feedback: { max: 2000 },
  /** A name search: at most a whole name. */
  search: { max: 100 },
} as const;

type Bounded = "marks" | "attendance" | "assignments";

/**
 * The input mask of the teacher form: whole numbers of up to `digits` digits and at most
 * `max`. A keystroke that would break it changes nothing.
 */
export function acceptsTyping(field: Bounded, text: string): boolean {
  const { digits, max } = reportLimits[field];
  if (text === "") return true;
  if (!new RegExp(`^[0-9]{1,${digits}}$`).test(text)) return false;
  return Number(text) <= max;
}

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === "string" && v.trim() === "");

function boundedInt(field: Bounded) {
  const { min, max } = reportLimits[field];
  return z.unknown().transform((v, ctx) => {
    if (isBlank(v)) {
      ctx.addIssue({ code: "custom", message: messages.reportRequired });
      return z.NEVER;
    }
    // Digits only: fractions, exponents, signs and spaces inside are refused.
    const text = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "";
    const n = /^[0-9]{1,3}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: "custom", message: messages.reportRange });
      return z.NEVER;
    }
    return n;
  });
}

function requiredText(max: number, lines: "one" | "many") {
  return z.unknown().transform((v, ctx) => {
    if (isBlank(v) || typeof v !== "string") {
      ctx.addIssue({ code: "custom", message: messages.reportRequired });
      return z.NEVER;
    }
    // One form for each accented letter (a name typed as "e" plus an accent is found by "é").
    const text = v.trim().normalize("NFC");
    if (text.length > max) {
      ctx.addIssue({ code: "custom", message: `Use at most ${max} characters.` });
      return z.NEVER;
    }
    if (lines === "one" ? !isSingleLine(text) : !isPlainText(text)) {
      ctx.addIssue({
        code: "custom",
        message: lines === "one" ? singleLineMessage : plainTextMessage,
      });
      return z.NEVER;
    }
    return text;
  });
}

export const reportInputSchema = z.object({
  studentName: requiredText(reportLimits.studentName.max, "one"),
  course: requiredText(reportLimits.course.max, "one"),
  marks: boundedInt("marks"),
  attendance: boundedInt("attendance"),
  assignments: boundedInt("assignments"),
  behavior: z.unknown().transform((v, ctx) => {
    if (isBlank(v)) {
      ctx.addIssue({ code: "custom", message: messages.reportRequired });
      return z.NEVER;
    }
    if (!behaviors.includes(v as Behavior)) {
      ctx.addIssue({ code: "custom", message: `Choose one of: ${behaviors.join(", ")}.` });
      return z.NEVER;
    }
    return v as Behavior;
  }),
  feedback: requiredText(reportLimits.feedback.max, "many"),
});
export type ReportInput = z.infer<typeof reportInputSchema>;

export const reportPatchSchema = reportInputSchema.partial();

/** A report's own fields as stored and read back (the behaviour as its stored text). */
export type ReportFields = Omit<ReportInput, "behavior"> & { behavior: string };

export interface Report extends ReportInput {
  id: string;
  authorId: string;
  authorName: string;
  createdAt: string;
  updatedAt: string;
}

export const reportSorts = ["date", "name", "marks"] as const;
export type ReportSort = (typeof reportSorts)[number];

export const reportListQuerySchema = z.object({
  search: z
    .string()
    .max(
      reportLimits.search.max,
      `Search for at most ${reportLimits.search.max} characters of a name.`,
    )
    .optional()
    .default("")
    .transform((text) => text.normalize("NFC")),
  sort: z.enum(reportSorts).optional().default("date"),
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
  cursor: z.string().max(1000).optional(),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

/**
 * The one message the teacher form shows for a set of field errors: "required" comes before
 * "range".
 */
export function reportFormMessage(fields: Record<string, string>): string | null {
  const all = Object.values(fields);
  if (all.length === 0) return null;
  if (all.includes(messages.reportRequired)) return messages.reportRequired;
  if (all.includes(messages.reportRange)) return messages.reportRange;
  return all[0] ?? null;
}

/**
 * The columns of the reports' CSV export, as a teacher reads them (issue 28): the screen's names,
 * dates as the screens show them (in UTC, as the header says), and the report's id last, to match
 * a row with the report on the screen.
 */
export const reportCsvColumns = [
  "Student",
  "Course",
  "Marks (out of 100)",
  "Attendance (out of 100)",
  "Assignments (out of 6)",
  "Behavior",
  "Feedback",
  "Author",
  "Created (UTC)",
  "Last changed (UTC)",
  "Report ID",
] as const;
