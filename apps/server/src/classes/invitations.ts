import { audit } from "../audit/audit.ts";
import { forgetRecordContext } from "../db/record-context.ts";
import type { UserRow } from "../db/schema.ts";
import type { Services } from "../services.ts";
import { acceptInvitations } from "./queries.ts";

/**
 * Called once an account's email is proven (verification code, or a reset link that reached the
 * mailbox): a student invited by a roster import is enrolled in those classes now. Only a plain
 * student account: one registered as a teacher keeps its invitations until it is a student.
 */
export async function enrolInvitedStudent(
  services: Services,
  user: Pick<UserRow, "id" | "email" | "role" | "pending_role">,
  ip: string | null,
): Promise<void> {
  if (user.role !== "student" || user.pending_role !== null) return;
  await services.db.transaction().execute(async (tx) => {
    const classIds = await acceptInvitations(tx, user.email, user.id);
    await audit(
      tx,
      classIds.map((classId) => ({
        actorId: user.id,
        actorEmail: user.email,
        action: "class.invitation_accepted",
        target: classId,
        details: { studentId: user.id },
        ip,
      })),
    );
  });
  forgetRecordContext(user.id);
}
