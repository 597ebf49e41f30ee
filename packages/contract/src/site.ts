import { z } from "zod";
import { optionalCapableKeys } from "./questionnaire.ts";

// What the public pages show about this installation: GET /api/site, anyone may read it. The
// school sets its own name (SCHOOL_NAME) and contact address (CONTACT_EMAIL); either may be unset,
// and then the pages say so rather than show a placeholder.
export const schoolNameLimit = 100;

export const siteInfoSchema = z.object({
  contactEmail: z.email().nullable(),
  schoolName: z.string().max(schoolNameLimit).nullable(),
  /**
   * The questions a student may leave out with "Prefer not to say" (OPTIONAL_QUESTIONS, issue
   * 31): the questionnaire offers that choice on these, marked optional.
   */
  optionalQuestions: z.array(z.enum(optionalCapableKeys)),
});

export type SiteInfo = z.infer<typeof siteInfoSchema>;

// GET /api/setup: whether the installation still needs its first admin (issue 28), and how a
// teacher's sign-up is handled (TEACHER_SIGNUP). Until an admin exists, the login page says how
// to make one (the command of the README, run on the server); the sign-up page tells a teacher
// whether an admin must approve or invite them.
export const setupStateSchema = z.object({
  adminExists: z.boolean(),
  teacherSignup: z.enum(["approval", "open", "closed"]),
  /** Sign-in with the school's identity provider (issue 34): the button's name, or null. */
  oidcName: z.string().nullable(),
  /**
   * The deployment's legal basis (LEGAL_BASIS, issue 31): under `consent` the sign-up asks a
   * student's date of birth (a guardian consents for one under the age of digital consent).
   */
  legalBasis: z.enum(["public-task", "consent"]),
});

export type SetupState = z.infer<typeof setupStateSchema>;
