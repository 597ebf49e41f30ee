import type { UserRow } from "../db/schema.ts";
import { localizedTeacherRequestEmail } from "../i18n/translate.ts";
import { appUrl, mailPerson } from "../mail/send.ts";
import type { Services } from "../services.ts";

// A teacher's sign-up waiting for approval (TEACHER_SIGNUP=approval, issue 28): every active
// admin is emailed once the person has verified the address, so that a made-up address (anyone
// may sign up as a teacher) never reaches the admins' mailboxes.

/** Emails each active admin that `row` asks to be a teacher, when their request waits. */
export async function notifyAdminsOfTeacherRequest(services: Services, row: UserRow) {
  if (row.pending_role !== "teacher" || services.config.teacherSignup !== "approval") return;
  const admins = await services.db
    .selectFrom("users")
    .select(["name", "email", "locale"])
    .where("role", "=", "admin")
    .where("disabled", "=", false)
    .orderBy("created_at")
    .limit(100)
    .execute();
  for (const admin of admins) {
    await mailPerson(services, admin, localizedTeacherRequestEmail, {
      teacherName: row.name,
      teacherEmail: row.email,
      appUrl: appUrl(services),
    });
  }
}
