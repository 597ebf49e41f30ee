import { z } from "zod";
import { noContentSchema } from "../api-responses.ts";
import {
  classRiskSchema,
  noteAnswerSchema,
  noteCreateSchema,
  sharingPatchSchema,
  sharingSchema,
} from "../class-risk.ts";
import {
  addTeacherSchema,
  classCreateSchema,
  classListSchema,
  classMembersSchema,
  classPatchSchema,
  classSchema,
  invitationAcceptedSchema,
  joinClassSchema,
  myClassInvitationsSchema,
  rosterLimits,
  rosterResultSchema,
} from "../classes.ts";
import {
  classParams,
  classTeachers,
  csvDownload,
  defineRoute,
  idParams,
  invitedEmail,
  kb,
  memberParams,
  signedIn,
  signedInVerified,
  staff,
  staffOwn,
  studentsOnly,
  verifiedStudents,
} from "../route.ts";

// Classes and enrolment (issue 17): a class's own teachers and admins manage it; an enrolled
// student reads it without the join code; anybody else gets 404 for it.

const classAnswer = z.object({ class: classSchema });
const joinAnswer = classAnswer.extend({ message: z.string() });

export const create = defineRoute({
  method: "POST",
  path: "/api/classes",
  access: staff,
  summary: "Create a class",
  body: classCreateSchema,
  response: { 201: classAnswer },
});

export const list = defineRoute({
  method: "GET",
  path: "/api/classes",
  access: signedInVerified,
  summary: "The classes the caller teaches or is in",
  response: { 200: classListSchema },
});

export const join = defineRoute({
  method: "POST",
  path: "/api/classes/join",
  access: verifiedStudents,
  summary: "Join a class with its code (201 joined, 200 already in it)",
  body: joinClassSchema,
  response: { 200: joinAnswer, 201: joinAnswer },
});

export const get = defineRoute({
  method: "GET",
  path: "/api/classes/:id",
  access: { ...signedIn, verified: true, scope: { student: "own", teacher: "own", admin: "any" } },
  summary: "One class",
  params: idParams,
  response: { 200: classAnswer },
});

export const update = defineRoute({
  method: "PATCH",
  path: "/api/classes/:id",
  access: staffOwn,
  summary: "Change a class",
  body: classPatchSchema,
  params: idParams,
  response: { 200: classAnswer },
});

export const remove = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id",
  access: staffOwn,
  summary: "Delete a class",
  params: idParams,
  response: { 204: noContentSchema },
});

export const members = defineRoute({
  method: "GET",
  path: "/api/classes/:id/members",
  access: staffOwn,
  summary: "A class's students and open invitations",
  params: idParams,
  response: { 200: classMembersSchema },
});

export const addTeacher = defineRoute({
  method: "POST",
  path: "/api/classes/:id/teachers",
  access: staffOwn,
  summary: "Add a co-teacher by email",
  body: addTeacherSchema,
  params: idParams,
  response: { 200: classAnswer },
});

export const removeTeacher = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/teachers/:uid",
  access: staffOwn,
  summary: "Remove a co-teacher",
  params: memberParams,
  response: { 204: noContentSchema },
});

export const removeStudent = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/students/:uid",
  access: staffOwn,
  summary: "Remove a student from a class",
  params: memberParams,
  response: { 204: noContentSchema },
});

export const newJoinCode = defineRoute({
  method: "POST",
  path: "/api/classes/:id/join-code",
  access: staffOwn,
  summary: "A new join code (the old one stops working)",
  params: idParams,
  response: { 200: classAnswer },
});

export const closeJoinCode = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/join-code",
  access: staffOwn,
  summary: "Switch joining by code off",
  params: idParams,
  response: { 200: classAnswer },
});

export const previewRoster = defineRoute({
  method: "POST",
  path: "/api/classes/:id/roster/preview",
  access: staffOwn,
  summary: "What importing a roster file (CSV: name,email) would do",
  params: idParams,
  response: { 200: rosterResultSchema },
  bodyLimit: rosterLimits.bytes,
  consumes: "text/csv",
});

export const importRoster = defineRoute({
  method: "POST",
  path: "/api/classes/:id/roster",
  access: staffOwn,
  summary:
    "Import a roster file (CSV: name,email or name;email): invite each address not in the class",
  params: idParams,
  response: { 200: rosterResultSchema },
  bodyLimit: rosterLimits.bytes,
  consumes: "text/csv",
});

export const cancelInvitation = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/invitations/:email",
  access: staffOwn,
  summary: "Cancel a class's open roster invitation",
  params: classParams.extend({ email: invitedEmail }),
  response: { 204: noContentSchema },
});

// The class risk list (issue 20): the class's teachers and admins. Intervention notes are for
// the class's teachers only (an admin reads the list without them and writes none). A student
// chooses whether their teachers see their full explanation (their own setting, no one else's).
export const risk = defineRoute({
  method: "GET",
  path: "/api/classes/:id/risk",
  access: staffOwn,
  summary: "A class's students by risk, with school-record reasons (and notes, for its teachers)",
  params: classParams,
  response: { 200: classRiskSchema },
});

export const riskCsv = defineRoute({
  method: "GET",
  path: "/api/classes/:id/risk.csv",
  access: staffOwn,
  summary: "The class risk list as CSV, the screen's columns",
  params: classParams,
  ...csvDownload,
});

export const addNote = defineRoute({
  method: "POST",
  path: "/api/classes/:id/students/:uid/notes",
  access: classTeachers,
  summary: "Add an intervention note about an enrolled student (the class's teachers)",
  params: memberParams,
  body: noteCreateSchema,
  response: { 201: noteAnswerSchema },
  bodyLimit: kb(8),
});

export const sharing = defineRoute({
  method: "GET",
  path: "/api/me/sharing",
  access: studentsOnly,
  summary: "Whether the calling student shares their full explanation with their teachers",
  response: { 200: sharingSchema },
});

export const updateSharing = defineRoute({
  method: "PATCH",
  path: "/api/me/sharing",
  access: studentsOnly,
  summary: "Share (or stop sharing) the full explanation with one's teachers (students)",
  body: sharingPatchSchema,
  response: { 200: sharingSchema },
});

// Issue 26: a student answers a class's invitation, and may leave a class. "own": the
// invitation to the student's address, the student's own enrolment.
const invitedStudent = { allow: ["student"], verified: true, scope: { student: "own" } } as const;

export const myInvitations = defineRoute({
  method: "GET",
  path: "/api/me/class-invitations",
  access: verifiedStudents,
  summary: "The class invitations waiting for the calling student's answer",
  response: { 200: myClassInvitationsSchema },
});

export const acceptInvitation = defineRoute({
  method: "POST",
  path: "/api/classes/:id/invitation",
  access: invitedStudent,
  summary: "Accept the class's invitation and join it (students)",
  params: classParams,
  response: { 200: invitationAcceptedSchema },
});

export const declineInvitation = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/invitation",
  access: invitedStudent,
  summary: "Decline the class's invitation (students)",
  params: classParams,
  response: { 204: noContentSchema },
});

export const leave = defineRoute({
  method: "DELETE",
  path: "/api/classes/:id/enrolment",
  access: invitedStudent,
  summary: "Leave a class (students)",
  params: classParams,
  response: { 204: noContentSchema },
});
