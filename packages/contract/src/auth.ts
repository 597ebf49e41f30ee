import { z } from "zod";
import { localeSchema } from "./locale.ts";
import { passwordLimits } from "./password-limits.ts";
import { roles } from "./roles.ts";
import { isSingleLine, singleLineMessage } from "./text.ts";

// Account rules: NIST SP 800-63B passwords (8-128 characters, no composition rules, common
// passwords refused by the server), trimmed lower-case emails, names of 1-100 characters.
export { passwordLimits };

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .max(254, { error: "Use at most 254 characters." })
  .pipe(z.email({ error: "Enter a valid email address." }));

export const nameSchema = z
  .string({ error: "Enter your name." })
  .trim()
  .min(1, { error: "Enter your name." })
  .max(100, { error: "Use at most 100 characters." })
  .refine(isSingleLine, { error: singleLineMessage })
  .transform((name) => name.normalize("NFC"));

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .min(passwordLimits.min, { error: `Use at least ${passwordLimits.min} characters.` })
  .max(passwordLimits.max, { error: `Use at most ${passwordLimits.max} characters.` });

export const signupRoles = ["student", "teacher"] as const;

export const registerSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: z.enum(signupRoles, { error: "Choose Student or Teacher." }).optional().default("student"),
  /**
   * Issue 31 part B: asked of students only where the school's legal basis is consent (the
   * server requires it then and ignores it otherwise). YYYY-MM-DD.
   */
  dateOfBirth: z
    .string()
    .trim()
    .max(10, { error: "Enter your date of birth as YYYY-MM-DD." })
    .optional(),
});

export const loginSchema = z.object({
  email: z.string({ error: "Enter your email address." }).trim().toLowerCase().min(1).max(254),
  password: z.string({ error: "Enter your password." }).min(1).max(1024),
});

export const forgotPasswordSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  password: passwordSchema,
});
export const updateNameSchema = z.object({ name: nameSchema });
export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Enter your current password." }).min(1).max(1024),
  newPassword: passwordSchema,
});

export const userSchema = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(roles),
  /** "teacher" while a teacher sign-up waits for an admin (TEACHER_SIGNUP=approval). */
  pendingRole: z.enum(["teacher"]).nullable(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  /** The language the person chose on their profile; null follows the browser (issue 33). */
  locale: localeSchema.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const sessionSchema = z.object({
  token: z.string(),
  expiresIn: z.number(),
  user: userSchema,
  /** True when this sign-in cancelled the account's pending deletion (issue 31). */
  deletionCancelled: z.literal(true).optional(),
});
export type Session = z.infer<typeof sessionSchema>;
