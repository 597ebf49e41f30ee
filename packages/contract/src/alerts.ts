import { z } from "zod";
import { isAtRisk, passMark, riskReasonSchema } from "./class-risk.ts";
import { namedSchema } from "./named.ts";
import { highNoFinalScoreRisk } from "./prediction.ts";
import { isPlainText, plainTextMessage } from "./text.ts";

// Early warning that reaches the teacher (issue 32): alerts when a student's prediction crosses
// the risk list's line, the digest preference, feedback on each flag and intervention plans.
// "At risk" is the risk list's own definition (`isAtRisk`, class-risk.ts); what an alert carries
// is what the risk list shows a teacher: school-record reasons, never a private answer.

/**
 * The hysteresis margins: a crossing counts at once only when the prediction is past the line by
 * this much (0.5 of a grade point; 5 points of the risk of not sitting); a crossing by less
 * counts when the next prediction is on the same side (it confirms it).
 */
export const alertMargins = { score: 0.5, noFinalScoreRisk: 0.05 } as const;

/** What the rule remembers of a student in a class. */
export interface AlertState {
  atRisk: boolean;
  /** The previous prediction crossed the line by less than the margin. */
  pending: boolean;
}

export const initialAlertState: AlertState = { atRisk: false, pending: false };

/**
 * The next state after a prediction, and whether the flag changed (an alert). A student hovering
 * around the line does not flap: a crossing by less than the margin waits for the next
 * prediction, and a prediction back on the flag's side forgets it.
 */
export function nextAlertState(
  state: AlertState,
  prediction: { score: number; noFinalScoreRisk: number | null },
): { state: AlertState; changed: boolean } {
  const { score, noFinalScoreRisk: risk } = prediction;
  const atRisk = isAtRisk(score, risk);
  if (atRisk === state.atRisk) return { state: { atRisk, pending: false }, changed: false };
  const clearly = atRisk
    ? score <= passMark - alertMargins.score ||
      (risk !== null && risk >= highNoFinalScoreRisk + alertMargins.noFinalScoreRisk)
    : score >= passMark + alertMargins.score &&
      (risk === null || risk < highNoFinalScoreRisk - alertMargins.noFinalScoreRisk);
  if (clearly || state.pending) return { state: { atRisk, pending: false }, changed: true };
  return { state: { atRisk: state.atRisk, pending: true }, changed: false };
}

export const notificationKinds = [
  "risk_up",
  "risk_down",
  "report_written",
  "record_changed",
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(notificationKinds),
  /** One line a person reads: "Ada Lovelace (Maths 10A) is now at risk". */
  title: z.string(),
  student: namedSchema.nullable(),
  class: namedSchema.nullable(),
  /** The prediction that crossed the line (risk alerts only). */
  prediction: z.number().nullable(),
  noFinalScoreRisk: z.number().nullable(),
  /** School-record reasons only (what the risk list shows without the student's sharing). */
  reasons: z.array(riskReasonSchema),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  unread: z.number().int(),
  /** Newest first, at most `notificationListLimit`. */
  items: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;
export const notificationListLimit = 100;

export const notificationsReadSchema = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({ ids: z.array(z.string().max(36)).min(1).max(notificationListLimit) }),
]);
export const notificationsReadAnswerSchema = z.object({ unread: z.number().int() });

export const digestChoices = ["off", "daily", "weekly"] as const;
export type DigestChoice = (typeof digestChoices)[number];
export const defaultDigest: DigestChoice = "weekly";

export const digestSettingSchema = z.object({ digest: z.enum(digestChoices) });
export const digestSettingWriteSchema = z.strictObject({
  digest: z.enum(digestChoices, { error: "Choose off, daily or weekly." }),
});

export const unsubscribeSchema = z.strictObject({
  token: z.string().min(1).max(300),
});
export const unsubscribeAnswerSchema = z.object({ digest: z.literal("off") });

export const flagJudgements = ["acknowledged", "not_useful", "incorrect"] as const;
export type FlagJudgement = (typeof flagJudgements)[number];
export const flagJudgementLabels: Record<FlagJudgement, string> = {
  acknowledged: "Acknowledged",
  not_useful: "Not useful",
  incorrect: "Incorrectly flagged",
};

export const alertMessages = {
  judgementInvalid: "Choose acknowledged, not useful or incorrectly flagged.",
  reasonLong: "Use at most 500 characters.",
  notFlagged: "This student is not flagged at risk: there is no flag to judge.",
  goalRequired: "Say what the plan aims at.",
  goalLong: "Use at most 1000 characters.",
  outcomeRequired: "Say how the plan ended.",
  tierInvalid: "Choose tier 1, 2 or 3.",
  ownerNotTeacher: "The owner must be one of the class's teachers.",
  planClosed: "This plan is closed.",
  planNotFound: "No such plan in this class.",
  dateInvalid: "Enter a date as YYYY-MM-DD.",
  unsubscribeInvalid: "This unsubscribe link is not valid (it may be an old one).",
  unsubscribed: "You will get no more digests. You can turn them on again in your profile.",
} as const;

const plainText = (max: number, required: string, long: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(max, { error: long })
    .refine(isPlainText, { error: plainTextMessage })
    .transform((t) => t.normalize("NFC"));

/** PUT /api/classes/:id/students/:uid/flag */
export const flagFeedbackWriteSchema = z.strictObject({
  judgement: z.enum(flagJudgements, { error: alertMessages.judgementInvalid }),
  reason: plainText(500, alertMessages.reasonLong, alertMessages.reasonLong).nullable().optional(),
});
export const flagFeedbackSchema = z.object({
  studentId: z.string(),
  predictionId: z.string(),
  modelVersion: z.string(),
  judgement: z.enum(flagJudgements),
  reason: z.string().nullable(),
  updatedAt: z.string(),
});
export type FlagFeedback = z.infer<typeof flagFeedbackSchema>;
/** GET /api/classes/:id/flags: the caller's judgements of the class's current flags. */
export const flagFeedbackListSchema = z.object({ items: z.array(flagFeedbackSchema) });

/** GET /api/evaluation/flags: the teachers' judgement of flags per model version. */
export const flagSummarySchema = z.object({
  versions: z.array(
    z.object({
      modelVersion: z.string(),
      judged: z.number().int(),
      acknowledged: z.number().int(),
      notUseful: z.number().int(),
      incorrect: z.number().int(),
      /** Share judged useful (acknowledged), 0 to 1; null when none judged. */
      usefulShare: z.number().nullable(),
    }),
  ),
});
export type FlagSummary = z.infer<typeof flagSummarySchema>;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const dateSchema = z
  .string({ error: alertMessages.dateInvalid })
  .max(10, { error: alertMessages.dateInvalid })
  .refine(
    (t) =>
      isoDate.test(t) &&
      !Number.isNaN(Date.parse(`${t}T00:00:00Z`)) &&
      new Date(`${t}T00:00:00Z`).toISOString().slice(0, 10) === t,
    { error: alertMessages.dateInvalid },
  );
const tierSchema = z.union([z.literal(1), z.literal(2), z.literal(3)], {
  error: alertMessages.tierInvalid,
});

export const planSchema = z.object({
  id: z.string(),
  classId: z.string(),
  student: namedSchema,
  owner: namedSchema.nullable(),
  tier: z.number().int(),
  goal: z.string(),
  reviewOn: z.string(),
  /** Open and its review date has passed. */
  overdue: z.boolean(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  outcome: z.string().nullable(),
});
export type Plan = z.infer<typeof planSchema>;
/** Open plans with an overdue review first (oldest review first), then open ones, then closed. */
export const planListSchema = z.object({ items: z.array(planSchema) });
export const planAnswerSchema = z.object({ plan: planSchema });

/** POST /api/classes/:id/students/:uid/plans */
export const planCreateSchema = z.strictObject({
  tier: tierSchema,
  ownerId: z.string().max(36),
  goal: plainText(1000, alertMessages.goalRequired, alertMessages.goalLong),
  reviewOn: dateSchema,
});
export type PlanCreate = z.input<typeof planCreateSchema>;

/** PATCH /api/classes/:id/plans/:planId: change an open plan, or close it with an outcome. */
export const planUpdateSchema = z.strictObject({
  tier: tierSchema.optional(),
  ownerId: z.string().max(36).optional(),
  goal: plainText(1000, alertMessages.goalRequired, alertMessages.goalLong).optional(),
  reviewOn: dateSchema.optional(),
  outcome: plainText(1000, alertMessages.outcomeRequired, alertMessages.goalLong).optional(),
});
export type PlanUpdate = z.input<typeof planUpdateSchema>;
