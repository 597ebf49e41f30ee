import { z } from "zod";
import {
  adminUserPatchSchema,
  adminUserQuerySchema,
  adminUserSchema,
  auditPage,
  auditQuerySchema,
  userPage,
} from "../admin.ts";
import { messageSchema, noContentSchema } from "../api-responses.ts";
import { invitationViewSchema } from "../invitation-view.ts";
import { admins, defineRoute, invitedEmail, uidParams } from "../route.ts";
import { teacherInvitationSchema } from "../teacher-invitations.ts";

// Accounts, the audit log and teacher invitations: admins only.

export const users = defineRoute({
  method: "GET",
  path: "/api/admin/users",
  access: admins,
  summary: "Accounts, a page at a time (admins)",
  querystring: adminUserQuerySchema,
  response: { 200: userPage },
});

export const updateUser = defineRoute({
  method: "PATCH",
  path: "/api/admin/users/:uid",
  access: admins,
  summary: "Change an account's role or disable it (admins)",
  body: adminUserPatchSchema,
  params: uidParams,
  response: { 200: z.object({ user: adminUserSchema }) },
});

export const resetPassword = defineRoute({
  method: "POST",
  path: "/api/admin/users/:uid/reset-password",
  access: admins,
  summary: "Email an account a password-reset link (admins)",
  params: uidParams,
  response: { 202: messageSchema },
});

// Rejecting a pending teacher request: the account stays a student (issue 17).
export const rejectTeacher = defineRoute({
  method: "POST",
  path: "/api/admin/users/:uid/reject-teacher",
  access: admins,
  summary:
    "Reject an account's pending teacher request: it stays a student (admins; 409 when none waits)",
  params: uidParams,
  response: { 200: z.object({ user: adminUserSchema }) },
});

export const audit = defineRoute({
  method: "GET",
  path: "/api/admin/audit",
  access: admins,
  summary: "The audit log, a page at a time (admins)",
  querystring: auditQuerySchema,
  response: { 200: auditPage },
});

export const invite = defineRoute({
  method: "POST",
  path: "/api/admin/invitations",
  access: admins,
  summary: "Invite a teacher by email (admins)",
  body: teacherInvitationSchema,
  response: { 201: z.object({ invitation: invitationViewSchema }) },
});

export const invitations = defineRoute({
  method: "GET",
  path: "/api/admin/invitations",
  access: admins,
  summary: "Teacher invitations still open (admins)",
  response: { 200: z.object({ items: z.array(invitationViewSchema) }) },
});

// Who sent an invitation takes it back: an admin a teacher's, a class's teachers the class's.
export const cancelInvitation = defineRoute({
  method: "DELETE",
  path: "/api/admin/invitations/:email",
  access: admins,
  summary: "Cancel an open teacher invitation (admins)",
  params: z.object({ email: invitedEmail }),
  response: { 204: noContentSchema },
});
