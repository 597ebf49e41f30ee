import { z } from "zod";
import { emailSchema, nameSchema } from "./auth.ts";
import type { InvitationView } from "./invitation-view.ts";

// Teacher invitations (issue 17): under TEACHER_SIGNUP=closed teacher accounts come only from an
// admin. The admin invites an email address; the person registers with it (as a teacher) and
// becomes a teacher once the address is verified. Works under approval and open too.

export const teacherInvitationMessages = {
  sent: "The invitation has been sent.",
  accountExists:
    "An account with this email already exists: change its role on the Users screen instead.",
  cancelled: "The invitation has been cancelled.",
  notFound: "No open invitation has this email address.",
} as const;

/** DELETE /api/admin/invitations/:email: the invited address, as the list shows it. */
export const teacherInvitationParamsSchema = z.object({ email: emailSchema });

export const teacherInvitationSchema = z.strictObject(
  { email: emailSchema, name: nameSchema },
  { error: "Only email and name can be sent." },
);
export type TeacherInvitationInput = z.infer<typeof teacherInvitationSchema>;

export type TeacherInvitation = InvitationView;
