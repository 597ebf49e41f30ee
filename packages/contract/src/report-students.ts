import { z } from "zod";
import { idPattern } from "./ids.ts";
import { reportInputSchema, reportLimits, reportPatchSchema } from "./reports.ts";

// Reports about enrolled students (issue 17): the report form names the student by account
// (studentId, and optionally the class through which the teacher teaches them); the class
// follows from the roster when it is not named. A report without studentId names a free-text
// student, visible to its author and admins only, and can be linked later (PATCH studentId).

const id = (what: string) =>
  z.string().regex(idPattern, {
    message: `Choose the ${what} from the list.`,
  });

export const reportLinkFields = {
  studentId: id("student").optional(),
  classId: id("class").optional(),
};

// The answers' shapes are the schemas of api-responses.ts.
export type {
  EnrolledStudent,
  LinkedReport,
  MyReport,
  MyReportsPage,
} from "./api-responses.ts";

export const reportCreateSchema = reportInputSchema.extend(reportLinkFields);
export const reportUpdateSchema = reportPatchSchema.extend(reportLinkFields);

export const reportStudentMessages = {
  notYourStudent: "You can write reports only about students enrolled in your classes.",
  notEnrolled: "This student is not enrolled in that class.",
  nameFromAccount:
    "The name of an enrolled student comes from their account: it cannot be changed here.",
  noStudents: "No enrolled student matches this name.",
} as const;

/** The picker's call: enrolled students of the caller's classes whose name matches. */
export const enrolledStudentQuerySchema = z.object({
  search: z
    .string()
    .max(reportLimits.search.max, `Search for at most ${reportLimits.search.max} characters.`)
    .optional()
    .default("")
    .transform((text) => text.normalize("NFC").trim()),
  limit: z.coerce.number().int().min(1).max(50).optional().default(20),
});

export const myReportsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().default(25),
  cursor: z.string().max(1000).optional(),
});
