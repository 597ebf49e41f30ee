import { z } from "zod";
import { emailSchema } from "./auth.ts";
import { isPlainText, plainTextMessage } from "./text.ts";

// Guardian consent (issue 31 part B). Under LEGAL_BASIS=consent a student under the age of
// digital consent answers the questionnaire, and is predicted, only once a guardian has
// consented through a link emailed to them; the consent is recorded with its date, the guardian's
// address and the version of the text below. Under public-task none of this applies.

/** The consent text's version: recorded with each consent. Change it with the text. */
export const consentTextVersion = "2026-11-28";

/** What the guardian reads before confirming (the version above is recorded with it). */
export const consentText = [
  "Gradecast is the school's tool for estimating a student's final grade from a short questionnaire (studies, family, free time, health) and the school's own record, so that teachers can offer help early.",
  "You are asked because the student is under the age at which they can consent alone. With your consent, the student may answer the questionnaire; their answers and the estimates made from them are kept by the school. Teachers of the student's classes see the estimate and the school-record reasons behind it, never the student's private answers unless the student shares them.",
  "An estimate is never a decision: a teacher decides, and the student can say why an estimate is wrong. Questions marked optional can be left unanswered.",
  "You can withdraw your consent at any time through the link in the confirmation email, or by asking the school. Withdrawing stops new estimates and hides existing ones from teachers.",
].join("\n\n");

/** How long a guardian's link stays valid. */
export const consentLinkDays = 7;

/** A date of birth: YYYY-MM-DD, a real day, not in the future, at most 120 years ago. */
export const dateOfBirthSchema = z
  .string({ error: "Enter your date of birth." })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Enter your date of birth as YYYY-MM-DD." })
  .refine(
    (v) => {
      const d = new Date(`${v}T00:00:00Z`);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) return false;
      const year = d.getUTCFullYear();
      return d.getTime() <= Date.now() && year >= new Date().getUTCFullYear() - 120;
    },
    { error: "Enter a real date of birth, not in the future." },
  );

/** Whole years from a date of birth (YYYY-MM-DD) to `on`, in UTC. */
export function ageOn(dateOfBirth: string, on: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  let age = on.getUTCFullYear() - y;
  const month = on.getUTCMonth() + 1;
  if (month < m || (month === m && on.getUTCDate() < d)) age -= 1;
  return age;
}

export const consentStates = ["not_needed", "needed", "pending", "given", "withdrawn"] as const;
export type ConsentState = (typeof consentStates)[number];

/** The caller's own consent status (GET /api/consent/mine). */
export const consentStatusSchema = z.object({
  legalBasis: z.enum(["public-task", "consent"]),
  /** not_needed: public-task, not a student, or at or over the age; the rest need a guardian. */
  state: z.enum(consentStates),
  digitalConsentAge: z.number().int(),
  /** The address the newest request went to (the student gave it). */
  guardianEmail: z.string().nullable(),
  requestedAt: z.string().nullable(),
  consentedAt: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
});
export type ConsentStatus = z.infer<typeof consentStatusSchema>;

export const consentRequestSchema = z.object({
  guardianEmail: emailSchema,
});

/** A link's token, as the guardian's page sends it back. */
export const consentTokenSchema = z.object({
  token: z.string().min(1).max(200).describe("The token from the guardian's link"),
});

/** What a guardian's link shows before they confirm. */
export const consentViewSchema = z.object({
  studentName: z.string(),
  guardianEmail: z.string(),
  text: z.string(),
  textVersion: z.string(),
  state: z.enum(["pending", "given", "withdrawn"]),
});
export type ConsentView = z.infer<typeof consentViewSchema>;

// Human oversight: a student's "this prediction is wrong because ...".
export const contestLimit = 1000;
export const contestSchema = z.object({
  reason: z
    .string({ error: "Say why the estimate is wrong." })
    .trim()
    .min(1, { error: "Say why the estimate is wrong." })
    .max(contestLimit, { error: `Use at most ${contestLimit} characters.` })
    .refine(isPlainText, { error: plainTextMessage }),
});
export const contestAnswerSchema = z.object({
  predictionId: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type ContestAnswer = z.infer<typeof contestAnswerSchema>;

/** What the prediction screen and the risk list say about every estimate. */
export const oversightNotice =
  "This is an estimate from data, not a judgement: a teacher decides what happens next. If it is wrong, say why below, or ask your teacher or the school to review it.";
export const teacherOversightNotice =
  "Each figure is an estimate from data, not a judgement: you decide. A student can contest their estimate; what they wrote is shown with it.";

export const consentMessages = {
  required:
    "Your school needs your parent's or guardian's consent before you answer the questionnaire. Give their email address and we will send them a link.",
  withdrawn:
    "Your parent's or guardian's consent has been withdrawn: no new estimates are made. Ask them or the school if this is a mistake.",
  linkInvalid: "This link is not valid or has expired. Ask the student to send a new one.",
  dateOfBirthNeeded:
    "Enter your date of birth: your school asks it to know whether a parent's consent is needed.",
  resendTooSoon: "A link was sent a moment ago. Wait a minute before sending another.",
} as const;
