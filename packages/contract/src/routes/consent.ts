import { messageSchema } from "../api-responses.ts";
import {
  consentConfirmSchema,
  consentRequestSchema,
  consentStatusSchema,
  consentTokenSchema,
  consentViewSchema,
  contestAnswerSchema,
  contestSchema,
} from "../consent.ts";
import {
  admins,
  anyone,
  defineRoute,
  idParams,
  kb,
  students,
  studentsOnly,
  uidParams,
} from "../route.ts";

// Guardian consent under LEGAL_BASIS=consent, and a student contesting a prediction (issue 31
// part B). The guardian has no account: their link's token is their proof, sent in the body
// (never in a URL the server logs). A contest is the student's own prediction's; the service
// answers 404 for anyone else's.

export const mine = defineRoute({
  method: "GET",
  path: "/api/consent/mine",
  access: students,
  summary: "Whether the caller needs a guardian's consent, and where it stands",
  response: { 200: consentStatusSchema },
});

export const request = defineRoute({
  method: "POST",
  path: "/api/consent/request",
  access: studentsOnly,
  summary: "Email the student's guardian a consent link (a new link ends the previous one)",
  body: consentRequestSchema,
  response: { 202: consentStatusSchema },
});

export const view = defineRoute({
  method: "POST",
  path: "/api/consent/view",
  access: anyone,
  summary:
    "What a guardian's link asks: the student's name and the consent text (in the caller's language)",
  body: consentTokenSchema,
  response: { 200: consentViewSchema },
});

export const confirm = defineRoute({
  method: "POST",
  path: "/api/consent/confirm",
  access: anyone,
  summary:
    "The guardian consents to the text version they read (the link proves their address; an unknown version is refused)",
  body: consentConfirmSchema,
  response: { 200: consentViewSchema },
});

export const withdraw = defineRoute({
  method: "POST",
  path: "/api/consent/withdraw",
  access: anyone,
  summary: "The guardian withdraws their consent (the link from the confirmation email)",
  body: consentTokenSchema,
  response: { 200: messageSchema },
});

export const adminWithdraw = defineRoute({
  method: "POST",
  path: "/api/admin/users/:uid/consent/withdraw",
  access: admins,
  summary: "Withdraw a student's guardian consent on the guardian's request (admins)",
  params: uidParams,
  response: { 200: consentStatusSchema },
});

export const contest = defineRoute({
  method: "POST",
  path: "/api/predictions/:id/contest",
  access: studentsOnly,
  summary: "Say why one's own prediction is wrong (shown to one's class teachers)",
  params: idParams,
  body: contestSchema,
  response: { 200: contestAnswerSchema },
  bodyLimit: kb(8),
});
