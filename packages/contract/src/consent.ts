import { z } from "zod";
import { emailSchema } from "./auth.ts";
import { type Locale, locales } from "./locale.ts";
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

/** The same text in each language the guardian's page speaks (pt-PT translates the English). */
export const consentTexts: Record<Locale, string> = {
  en: consentText,
  "pt-PT": [
    "O Gradecast é a ferramenta da escola para estimar a nota final de um aluno a partir de um breve questionário (estudo, família, tempos livres, saúde) e do registo da própria escola, para que os professores possam oferecer ajuda atempadamente.",
    "É-lhe pedido porque o aluno ainda não tem idade para dar o consentimento sozinho. Com o seu consentimento, o aluno pode responder ao questionário; as respostas e as estimativas feitas a partir delas são guardadas pela escola. Os professores das turmas do aluno veem a estimativa e os motivos do registo escolar que a justificam, mas nunca as respostas privadas do aluno, a não ser que o aluno as partilhe.",
    "Uma estimativa nunca é uma decisão: quem decide é um professor, e o aluno pode dizer porque é que uma estimativa está errada. As perguntas assinaladas como opcionais podem ficar sem resposta.",
    "Pode retirar o seu consentimento a qualquer momento através da ligação no email de confirmação, ou pedindo-o à escola. Retirar o consentimento impede novas estimativas e esconde as existentes dos professores.",
  ].join("\n\n"),
};

/**
 * The version recorded with a consent given on `locale`'s text: the English text's version as
 * it always was, a translation's with its language ("2026-11-28/pt-PT"), so that each names
 * exactly the words the guardian read.
 */
export function consentTextVersionOf(locale: Locale): string {
  return locale === "en" ? consentTextVersion : `${consentTextVersion}/${locale}`;
}

/** The text a version names, or undefined for a version this release does not have. */
export function consentTextOf(version: string): { locale: Locale; text: string } | undefined {
  const locale = locales.find((l) => consentTextVersionOf(l) === version);
  return locale ? { locale, text: consentTexts[locale] } : undefined;
}

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

/** The guardian's consent: the link's token and the version of the text they read. */
export const consentConfirmSchema = consentTokenSchema.extend({
  textVersion: z
    .string()
    .min(1)
    .max(40)
    .describe("The textVersion of the view the guardian read (its language included)"),
});

/** What a guardian's link shows before they confirm. */
export const consentViewSchema = z.object({
  studentName: z.string(),
  guardianEmail: z.string(),
  /** In the caller's language; once consent is given, the text that was agreed to. */
  text: z.string(),
  /** The version of `text`: what the confirmation sends back. */
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
  textVersionUnknown:
    "This consent text is not the current one. Reload the page, read the text and confirm again.",
} as const;
