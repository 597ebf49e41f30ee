import { z } from "zod";
import { emailSchema } from "./auth.ts";
import { type InvitationView, invitationViewSchema } from "./invitation-view.ts";
import { subjects } from "./subjects.ts";
import { isSingleLine, singleLineMessage } from "./text.ts";

// Classes and enrolment (issue 17): a class has a name, one of the two subjects the model knows,
// a school year, one or more teachers and enrolled students. Students join with the class's join
// code or are enrolled by a roster import. The server and the screens share these shapes and
// messages.

export { type Subject, subjectLabels, subjects } from "./subjects.ts";

export const classLimits = { name: 100, year: 20 } as const;

/**
 * Join codes: 8 characters read aloud or copied from a board, so no look-alikes (no 0/O, 1/I/L).
 * 31^8 (about 8.5 × 10^11) codes; wrong guesses are rate limited per account and per address.
 */
export const joinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const joinCodeLength = 8;

/** A typed code as stored: upper case, without the spaces and dashes people add. */
export function normaliseJoinCode(text: string): string {
  return text.replace(/[\s-]/g, "").toUpperCase();
}

export function isJoinCode(text: string): boolean {
  return text.length === joinCodeLength && [...text].every((c) => joinCodeAlphabet.includes(c));
}

export const rosterLimits = {
  rows: 1000,
  /** Bytes of the uploaded file: 1,000 rows of a long name and a long email fit. */
  bytes: 512 * 1024,
} as const;

export const classMessages = {
  nameRequired: "Enter the class name.",
  yearRequired: "Enter the school year, for example 2026/27.",
  subject: "Choose mat (Mathematics) or por (Portuguese).",
  nothingToChange: "Send a name, a subject, a year, or several.",
  classCreated: "Class created.",
  classNotFound: "This class does not exist, or it is not one of yours.",
  joinCodeRequired: "Enter the join code your teacher gave you.",
  joinCodeInvalid: `A join code has ${joinCodeLength} letters and digits, and never uses 0, 1, I, L or O (they look too alike): check those with your teacher.`,
  joinCodeUnknown:
    "No class has this join code. Check it with your teacher: it may have been changed or switched off.",
  joined: "You have joined the class.",
  alreadyJoined: "You are already in this class.",
  teacherEmail: "Enter the email address of a teacher's account.",
  notATeacher: "No approved teacher account has this email address.",
  alreadyTeacher: "This teacher already teaches the class.",
  lastTeacher: "A class needs at least one teacher: add another teacher before removing this one.",
  notEnrolled: "This student is not in the class.",
  rosterRejected: "The file was not imported: correct the lines below and upload it again.",
  rosterHeader: "The first line must be the header: name,email (or name;email)",
  rosterEmpty: "The file has no rows under the header.",
  rosterTooMany: `The file has more than ${rosterLimits.rows} rows: split it into several files.`,
  rosterTooLarge: `The file is too large (at most ${rosterLimits.bytes / 1024} KB).`,
  rosterNotUtf8: "Save the file as CSV UTF-8 and upload it again.",
  rosterNotCsv: "The file is not a CSV file of name,email rows.",
  rosterColumns: "Give exactly two values: name and email.",
  rosterNameRequired: "The name is empty.",
  rosterNameMultiline: "The name spans several lines: keep it on one line.",
  rosterNameLong: `Use at most ${classLimits.name} characters for the name.`,
  rosterEmailInvalid: "The email address is not valid.",
  rosterDuplicate: (line: number) => `The same email is on line ${line}.`,
  rosterImported: "The roster was imported.",
  invitationSent: "An invitation has been sent.",
  invitationCancelled: "The invitation has been cancelled.",
  invitationNotFound: "This class has no open invitation for this email address.",
  // Issue 26: a roster line for an existing account is an invitation its owner accepts.
  rosterEmailCap: (cap: number, left: number, wanted: number) =>
    `Nothing was imported: this file would send ${wanted} invitation emails, and you can send ${left} more today (at most ${cap} a day). Import fewer new addresses, or the rest tomorrow.`,
  myInvitationNotFound: "You have no open invitation to this class.",
  invitationAccepted: "You have joined the class.",
  invitationDeclined: "You have declined the invitation.",
  leftClass: "You have left the class.",
  notInClass: "You are not in this class.",
} as const;

/** A refused roster line's reason with the text it refused, quoted and cut to 60 characters. */
export function rosterLineReason(reason: string, text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return `${reason} (${JSON.stringify(shown)})`;
}

const requiredLine = (max: number, missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(max, { error: `Use at most ${max} characters.` })
    .refine(isSingleLine, { error: singleLineMessage })
    .transform((text) => text.normalize("NFC"));

const subjectSchema = z.enum(subjects, { error: classMessages.subject });

export const classCreateSchema = z.strictObject(
  {
    name: requiredLine(classLimits.name, classMessages.nameRequired),
    subject: subjectSchema,
    year: requiredLine(classLimits.year, classMessages.yearRequired),
  },
  { error: "Only name, subject and year can be sent." },
);
export type ClassCreate = z.infer<typeof classCreateSchema>;

export const classPatchSchema = z
  .strictObject(
    {
      name: requiredLine(classLimits.name, classMessages.nameRequired).optional(),
      subject: subjectSchema.optional(),
      year: requiredLine(classLimits.year, classMessages.yearRequired).optional(),
    },
    { error: "Only name, subject and year can be changed." },
  )
  .refine((v) => v.name !== undefined || v.subject !== undefined || v.year !== undefined, {
    error: classMessages.nothingToChange,
  });
export type ClassPatch = z.infer<typeof classPatchSchema>;

export const joinClassSchema = z.object({
  code: z
    .string({ error: classMessages.joinCodeRequired })
    .max(40, { error: classMessages.joinCodeInvalid })
    .transform(normaliseJoinCode)
    .refine((code) => code.length > 0, { error: classMessages.joinCodeRequired })
    .refine(isJoinCode, { error: classMessages.joinCodeInvalid }),
});

export const addTeacherSchema = z.object({
  email: z
    .string({ error: classMessages.teacherEmail })
    .trim()
    .toLowerCase()
    .max(254, { error: "Use at most 254 characters." })
    .pipe(z.email({ error: classMessages.teacherEmail })),
});

export const classTeacherSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ClassTeacher = z.infer<typeof classTeacherSchema>;

/** A class as its pages name it; the risk list and the gradebook carry just this. */
export const classHeadingSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.enum(subjects),
  year: z.string(),
});

export const classSchema = classHeadingSchema.extend({
  teachers: z.array(classTeacherSchema),
  /** Enrolled students. */
  studentCount: z.number().int().min(0),
  /**
   * Only for the class's teachers and admins: the code (null while joining is switched off).
   * Absent for an enrolled student.
   */
  joinCode: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type ClassView = z.infer<typeof classSchema>;

export const classListSchema = z.object({ items: z.array(classSchema) });

export const classMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  enrolledAt: z.string(),
});
export type ClassMember = z.infer<typeof classMemberSchema>;

export type ClassInvitation = InvitationView;

/** DELETE /api/classes/:id/invitations/:email: the class and the invited address. */
export const classInvitationParamsSchema = z.object({ id: z.string(), email: emailSchema });

/** GET /api/classes/:id/members: enrolled students and the invitations still open. */
export const classMembersSchema = z.object({
  students: z.array(classMemberSchema),
  invitations: z.array(invitationViewSchema),
});
export type ClassMembers = z.infer<typeof classMembersSchema>;

/** One row of a roster file, with its line in the file (the header is line 1). */
export const rosterRowSchema = z.object({
  line: z.number().int(),
  name: z.string(),
  email: z.string(),
});
export type RosterRow = z.infer<typeof rosterRowSchema>;

/**
 * What an import does (the preview) or did: each row lands in exactly one list. Nobody is
 * enrolled by an import (issue 26): every address not in the class yet is invited, and the answer
 * never tells whether an address has an account, nor of which kind.
 */
export const rosterResultSchema = z.object({
  /**
   * Addresses not in the class: invited by email. An account's owner accepts or declines in the
   * app; a new address is in the class once it registers and verifies.
   */
  invited: z.array(rosterRowSchema),
  /** Already in the class: nothing changes. */
  alreadyEnrolled: z.array(rosterRowSchema),
  /** Invited before: no second email. */
  alreadyInvited: z.array(rosterRowSchema),
  /** True when nothing was written (the preview). */
  dryRun: z.boolean(),
});
export type RosterResult = z.infer<typeof rosterResultSchema>;

/** The key of a bad line in the 400 answer's `fields`: "line 3". */
export const rosterLineKey = (line: number) => `line ${line}`;

/** Checks one roster email the way accounts check theirs; undefined when it is not valid. */
export function rosterEmail(text: string): string | undefined {
  const parsed = emailSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

/** GET /api/me/class-invitations: the classes that invited the signed-in student (issue 26). */
export const myClassInvitationSchema = z.object({
  classId: z.string(),
  name: z.string(),
  subject: z.enum(subjects),
  year: z.string(),
  teachers: z.array(z.object({ name: z.string() })),
  invitedAt: z.string(),
});
export type MyClassInvitation = z.infer<typeof myClassInvitationSchema>;
export const myClassInvitationsSchema = z.object({ items: z.array(myClassInvitationSchema) });

/** Accepting an invitation: the class joined, and what to tell the student. */
export const invitationAcceptedSchema = z.object({ class: classSchema, message: z.string() });
