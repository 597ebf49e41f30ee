import { z } from "zod";
import { retentionCategories } from "./personal-data.ts";

// Issue 31: the privacy notice, account deletion, and the admin's "Data protection" page
// (docs/decisions/0021-data-rights.md). The registry itself is personal-data.ts.

const isoTime = z.string().describe("ISO 8601 time");

/** What the person types or ticks to confirm: the web app sends it once they confirmed. */
export const deletionConfirmation = "delete-account";
export const deletionRequestSchema = z.strictObject({
  confirm: z.literal(deletionConfirmation),
});
export const adminDeletionRequestSchema = z.strictObject({
  confirm: z.literal(deletionConfirmation),
  /** Why: the person's request, as the admin received it. */
  reason: z.string().trim().min(1).max(500),
});

export const deletionSchema = z.object({
  dueAt: isoTime,
  graceDays: z.number().int(),
});
export type Deletion = z.infer<typeof deletionSchema>;

export const retentionCategorySchema = z.enum(retentionCategories);

/** One retention category as the admin sees and sets it. */
export const retentionSettingSchema = z.object({
  category: retentionCategorySchema,
  label: z.string(),
  configurable: z.boolean(),
  /** null: until the person or the record is deleted. */
  keepDays: z.number().int().nullable(),
  autoPurge: z.boolean(),
  /** Rows older than the period now (0 when no period is set). */
  due: z.number().int(),
  checkedAt: isoTime.nullable(),
  purgedAt: isoTime.nullable(),
  purgedCount: z.number().int().nullable(),
});
export type RetentionSetting = z.infer<typeof retentionSettingSchema>;

export const deletedStudentReportsChoices = ["delete", "anonymise"] as const;

export const pendingDeletionSchema = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  via: z.enum(["self", "admin"]),
  requestedAt: isoTime,
  dueAt: isoTime,
});

export const reviewStudentSchema = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string(),
  createdAt: isoTime,
  lastSignInAt: isoTime.nullable(),
});

export const dataProtectionSchema = z.object({
  retention: z.array(retentionSettingSchema),
  deletedStudentReports: z.enum(deletedStudentReportsChoices),
  graceDays: z.number().int(),
  deletions: z.array(pendingDeletionSchema),
  /** Students enrolled in no class, with no sign-in, for a whole school year (365 days). */
  toReview: z.array(reviewStudentSchema),
});
export type DataProtection = z.infer<typeof dataProtectionSchema>;

export const retentionPatchSchema = z.strictObject({
  retention: z
    .array(
      z.strictObject({
        category: retentionCategorySchema,
        keepDays: z.number().int().min(1).max(36500).nullable(),
        autoPurge: z.boolean(),
      }),
    )
    .max(retentionCategories.length)
    .optional(),
  deletedStudentReports: z.enum(deletedStudentReportsChoices).optional(),
});

export const purgeRequestSchema = z.strictObject({ category: retentionCategorySchema });
export const purgeQueuedSchema = z.object({ jobId: z.string() });

/** The privacy notice, generated from the registry and the retention settings. */
export const privacyNoticeSchema = z.object({
  version: z.string(),
  schoolName: z.string().nullable(),
  dpoContact: z.string().nullable(),
  graceDays: z.number().int(),
  sections: z.array(
    z.object({
      table: z.string(),
      title: z.string(),
      purpose: z.string(),
      whoSees: z.string(),
      kept: z.string(),
      fields: z.array(z.object({ name: z.string(), about: z.string() })),
    }),
  ),
});
export type PrivacyNotice = z.infer<typeof privacyNoticeSchema>;

export const dataRightsMessages = {
  deletionRequested:
    "Your account will be deleted. You have been signed out; signing in again before the date cancels the deletion.",
  deletionCancelled: "You signed in, so the deletion of your account was cancelled.",
  ownAccount: "Use your own account page to delete your own account.",
  nothingDue: "Nothing in this category is due.",
  notConfigurable: "This category is kept as long as the account or class it belongs to.",
} as const;
