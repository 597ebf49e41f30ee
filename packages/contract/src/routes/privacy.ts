import { z } from "zod";
import { noContentSchema } from "../api-responses.ts";
import {
  adminDeletionRequestSchema,
  dataProtectionSchema,
  deletionRequestSchema,
  deletionSchema,
  privacyNoticeSchema,
  purgeQueuedSchema,
  purgeRequestSchema,
  retentionPatchSchema,
} from "../data-rights.ts";
import { admins, anyone, defineRoute, kb, signedIn, uidParams } from "../route.ts";

// Issue 31: the privacy notice (public), a person's export and deletion of their own account,
// and the admin's data protection page. Nobody exports or deletes another's account except an
// admin asking for a deletion on the person's request (re-authenticated and audited).

export const notice = defineRoute({
  method: "GET",
  path: "/api/privacy",
  access: anyone,
  summary: "The privacy notice: what is stored about people, why, who sees it, how long",
  response: { 200: privacyNoticeSchema },
});

export const exportMine = defineRoute({
  method: "GET",
  path: "/api/me/export",
  access: signedIn,
  summary: "Everything held about the signed-in person, as a ZIP of JSON and CSV files",
  response: { 200: z.string().describe("A ZIP archive") },
  produces: "application/zip",
});

export const deleteMine = defineRoute({
  method: "POST",
  path: "/api/me/deletion",
  access: signedIn,
  summary:
    "Delete the account after the grace period (re-authentication; signs out everywhere; signing in cancels)",
  body: deletionRequestSchema,
  response: { 202: deletionSchema },
});

export const dataProtection = defineRoute({
  method: "GET",
  path: "/api/admin/data-protection",
  access: admins,
  summary: "Retention settings, what is due, pending deletions and students to review (admins)",
  response: { 200: dataProtectionSchema },
});

export const updateDataProtection = defineRoute({
  method: "PATCH",
  path: "/api/admin/data-protection",
  access: admins,
  summary: "Set retention periods and what happens to reports about deleted students (admins)",
  body: retentionPatchSchema,
  response: { 200: dataProtectionSchema },
  bodyLimit: kb(6),
});

export const purge = defineRoute({
  method: "POST",
  path: "/api/admin/data-protection/purge",
  access: admins,
  summary: "Confirm the purge of a category's due rows: queued as a background job (admins)",
  body: purgeRequestSchema,
  response: { 202: purgeQueuedSchema },
});

export const deleteUser = defineRoute({
  method: "POST",
  path: "/api/admin/users/:uid/deletion",
  access: admins,
  summary:
    "Delete an account on its owner's request, after the grace period (admins; re-authentication)",
  params: uidParams,
  body: adminDeletionRequestSchema,
  response: { 202: deletionSchema },
});

export const cancelUserDeletion = defineRoute({
  method: "DELETE",
  path: "/api/admin/users/:uid/deletion",
  access: admins,
  summary: "Cancel an account's pending deletion, if one waits (admins)",
  params: uidParams,
  response: { 204: noContentSchema },
});
