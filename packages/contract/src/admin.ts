import { z } from "zod";
import { userSchema } from "./auth.ts";
import { cursorPage } from "./cursor-page.ts";
import { messages } from "./messages.ts";
import { roles } from "./roles.ts";

// User management and the audit log (issue 8): the shapes of GET/PATCH /api/admin/users and
// GET /api/admin/audit, their query rules, and the messages both the server and the screens use.

export const adminMessages = {
  lastAdmin:
    "This is the last active admin account: it cannot be demoted or disabled. Make another account admin first.",
  nothingToChange: "Send a role, a disabled flag, or both.",
  resetSent: "A password-reset email has been sent.",
  resetDisabled: "This account is disabled. Re-enable it before sending a password reset.",
  userNotFound: "This user does not exist.",
  noTeacherRequest: "This account has no teacher request waiting.",
} as const;

/** An account as an admin sees it: what its owner sees, and whether it is disabled. */
export const adminUserSchema = userSchema.extend({ disabled: z.boolean() });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const pageLimits = { default: 50, max: 100 } as const;

const limitSchema = z.coerce
  .number({ error: `limit must be a whole number from 1 to ${pageLimits.max}.` })
  .int({ error: `limit must be a whole number from 1 to ${pageLimits.max}.` })
  .min(1, { error: `limit must be a whole number from 1 to ${pageLimits.max}.` })
  .max(pageLimits.max, { error: `limit must be a whole number from 1 to ${pageLimits.max}.` })
  .default(pageLimits.default);

const cursorSchema = z.string().max(500, { error: messages.cursorInvalid }).optional();

/** GET /api/admin/users?search=&pending=&limit=&cursor= (newest accounts first). */
export const adminUserQuerySchema = z.object({
  search: z
    .string()
    .max(254, { error: "Use at most 254 characters." })
    .default("")
    .transform((s) => s.trim()),
  /** "true": only accounts waiting for teacher approval. */
  pending: z.enum(["true", "false"], { error: "pending must be true or false." }).optional(),
  /**
   * "true": teachers who registered themselves and no admin has decided on since (for review
   * after the upgrade to classes: open sign-up made them teachers without a check).
   */
  review: z.enum(["true", "false"], { error: "review must be true or false." }).optional(),
  limit: limitSchema,
  cursor: cursorSchema,
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;

/** PATCH /api/admin/users/:uid. Setting a role also settles a pending teacher request. */
export const adminUserPatchSchema = z
  .strictObject(
    {
      role: z.enum(roles, { error: "Choose student, teacher or admin." }).optional(),
      disabled: z.boolean({ error: "disabled must be true or false." }).optional(),
    },
    { error: "Only role and disabled can be changed." },
  )
  .refine((v) => v.role !== undefined || v.disabled !== undefined, {
    error: adminMessages.nothingToChange,
  });
export type AdminUserPatch = z.infer<typeof adminUserPatchSchema>;

export const userPage = cursorPage(adminUserSchema).extend({
  /** Teacher sign-ups waiting for an admin, whatever the filter (the sidebar shows it). */
  pendingCount: z.number().int().min(0),
  /** Active admins: the last one cannot be demoted or disabled (the screen says so). */
  activeAdminCount: z.number().int().min(0),
});
export type UserPage = z.infer<typeof userPage>;

// The audit log.
/** Actions written by the server, with the labels the audit screen shows. */
export const auditActions = {
  "auth.register": "Account registered",
  "auth.login": "Logged in",
  "auth.login_failed": "Login failed",
  "auth.refresh_reuse": "Refresh token reused (session revoked)",
  "auth.password_changed": "Password changed",
  "auth.password_change_failed": "Password change failed",
  "auth.password_reset": "Password reset",
  "auth.email_changed": "Email address changed",
  "admin.created_by_cli": "Admin created (command line)",
  "admin.promoted_by_cli": "Admin promoted (command line)",
  "admin.role_changed": "Role changed",
  "admin.teacher_approved": "Teacher approved",
  "admin.teacher_rejected": "Teacher request rejected",
  "admin.user_disabled": "Account disabled",
  "admin.user_enabled": "Account re-enabled",
  "admin.password_reset_sent": "Password-reset email sent by an admin",
  "report.update": "Report edited",
  "report.delete": "Report deleted",
  "class.create": "Class created",
  "class.update": "Class edited",
  "class.delete": "Class deleted",
  "class.teacher_added": "Co-teacher added to a class",
  "class.teacher_removed": "Teacher removed from a class",
  "class.code_rotated": "Join code changed",
  "class.code_disabled": "Join code switched off",
  "class.student_joined": "Student joined a class",
  "class.student_removed": "Student removed from a class",
  "class.roster_imported": "Roster imported",
  "class.note_added": "Intervention note written (its text stays with the class's teachers)",
  "class.invitation_accepted": "Invited student enrolled",
  "class.invitation_declined": "Student declined a class invitation",
  "class.student_left": "Student left a class",
  "admin.teacher_invited": "Teacher invited by email",
  "auth.teacher_invitation_accepted": "Invited teacher verified (now a teacher)",
  "admin.teacher_invitation_cancelled": "Teacher invitation cancelled",
  "admin.password_reset_by_cli": "Password reset (command line)",
  "admin.sessions_ended": "Sessions ended by an admin",
  "admin.mfa_reset": "Two-step login turned off by an admin",
  "admin.oneroster_imported": "OneRoster rosters imported",
  "auth.mfa_enabled": "Two-step login turned on",
  "auth.mfa_disabled": "Two-step login turned off",
  "auth.oidc_linked": "School sign-in linked to the account",
  "auth.oidc_refused": "School sign-in refused",
  "auth.reauth_failed": "Password confirmation failed",
  "auth.session_ended": "Signed out on another device",
  "auth.other_sessions_ended": "Signed out everywhere else",
  "class.invitation_cancelled": "Class invitation cancelled",
  "class.risk_exported": "Risk list exported",
  "class.flag_judged": "Alert judged by a teacher",
  "class.plan_created": "Intervention plan started",
  "class.plan_changed": "Intervention plan changed",
  "class.plan_closed": "Intervention plan closed",
  "student.explanation_shared": "Student shared their full explanation",
  "student.explanation_unshared": "Student stopped sharing their full explanation",
  "prediction.contest": "Student contested a prediction",
  "consent.request": "Guardian's consent asked",
  "consent.given": "Guardian gave consent",
  "consent.withdrawn": "Guardian's consent withdrawn",
  "record.value_set": "School record value set",
  "record.imported": "School record imported",
  "evaluation.exported": "Outcomes against predictions exported",
  "model.train": "Model candidate training started",
  "model.promote": "Model version promoted",
  "model.rollback": "Model rolled back",
  "model.outcomes_exported": "School outcomes exported",
  "privacy.exported": "Personal data exported",
  "privacy.deletion_requested": "Account deletion requested",
  "privacy.deletion_cancelled": "Account deletion cancelled",
  "privacy.account_purged": "Account erased",
  "privacy.retention_purged": "Data past its retention period erased",
  "privacy.retention_purge_confirmed": "Retention purge confirmed by an admin",
  "privacy.settings_changed": "Data protection settings changed",
  "user.digest_set": "Email digest setting changed",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof auditActions;

export function auditActionLabel(action: string): string {
  return (auditActions as Record<string, string>)[action] ?? action;
}

/** The audit entries' detail keys as the audit screen names them (issue 28). */
export const auditDetailLabels: Record<string, string> = {
  studentId: "Student",
  teacherId: "Teacher",
  authorId: "Author",
  classId: "Class",
  email: "Email",
  role: "Role",
  from: "From",
  to: "To",
  pendingRole: "Asked to be",
  reason: "Why",
  mfa: "Second step",
  sessionsEnded: "Sessions ended",
  className: "Class",
  name: "Name",
  subject: "Subject",
  year: "Year",
  enrolled: "Enrolled",
  invited: "Invited",
};

/** Values written by the server, in words; anything else is shown as written. */
export const auditValueLabels: Record<string, string> = {
  wrong_password: "Wrong password",
  unknown_email: "No account has this email",
  disabled: "Account disabled",
  wrong_mfa_code: "Wrong two-step code",
  student: "Student",
  teacher: "Teacher",
  admin: "Admin",
  totp: "Authenticator app",
  recovery: "Recovery code",
};

export const auditDetailLabel = (key: string) => auditDetailLabels[key] ?? key;

const instant = z
  .string()
  .trim()
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
        : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
          !Number.isNaN(Date.parse(v)),
    { error: "Use a date (YYYY-MM-DD) or an ISO 8601 time with its offset." },
  );

/** A filter that may be left out or empty (undefined then), of at most `max` characters. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `Use at most ${max} characters.` })
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * GET /api/admin/audit?action=&actor=&from=&to=&limit=&cursor= (newest first). `action` is an
 * exact action name; `actor` an actor's uid or part of their email; `from` is inclusive, `to`
 * exclusive for a time and inclusive of the whole day (UTC) for a date.
 */
export const auditQuerySchema = z.object({
  action: optionalText(100),
  actor: optionalText(254),
  from: z.preprocess((v) => (v === "" ? undefined : v), instant.optional()),
  to: z.preprocess((v) => (v === "" ? undefined : v), instant.optional()),
  limit: limitSchema,
  cursor: cursorSchema,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  /** The actor's current name (issue 28); null for the command line or a deleted account. */
  actorName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  /** When the target is an account: its current name and email (null otherwise). */
  targetName: z.string().nullable(),
  targetEmail: z.string().nullable(),
  /** The names of the people and classes whose ids the details hold (id -> name). */
  names: z.record(z.string(), z.string()),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPage = cursorPage(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPage>;
