import {
  type TeacherInvitation,
  type TeacherInvitationInput,
  teacherInvitationMessages,
  teacherInvitationParamsSchema,
} from "@gradecast/contract/teacher-invitations";
import { type Kysely, sql } from "kysely";
import { audit, who } from "../audit/audit.ts";
import type { AuthUser } from "../auth/access-hook.ts";
import type { DB, UserRow } from "../db/schema.ts";
import { findUserByEmail } from "../db/users.ts";
import { conflict, notFound } from "../domain-errors.ts";
import { localizedTeacherInvitationEmail } from "../i18n/emails.ts";
import { appUrl, sendMail } from "../mail/send.ts";
import type { Services } from "../services.ts";

// Teacher invitations (issue 17): the way teacher accounts are made under TEACHER_SIGNUP=closed
// besides `admin:create --role teacher`. The admin invites an address; the person registers
// with it and is made a teacher when the address is verified (the proof that they hold it).

type Db = Kysely<DB>;

export async function isInvitedTeacher(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom("teacher_invitations")
    .select("email")
    .where("email", "=", email)
    .executeTakeFirst();
  return row !== undefined;
}

export async function inviteTeacher(
  services: Services,
  actor: { user: AuthUser; ip: string | null },
  input: TeacherInvitationInput,
): Promise<TeacherInvitation> {
  if (await findUserByEmail(services.db, input.email)) {
    throw conflict(teacherInvitationMessages.accountExists);
  }
  // Inviting again renews the invitation and sends the email again. The entry of the audit log
  // is written with the invitation (one transaction); the email goes once both are stored.
  const row = await services.db.transaction().execute(async (tx) => {
    const invited = await tx
      .insertInto("teacher_invitations")
      .values({ email: input.email, name: input.name, invited_by: actor.user.id })
      .onConflict((oc) =>
        oc.column("email").doUpdateSet({
          name: input.name,
          invited_by: actor.user.id,
          created_at: sql`now()`,
        }),
      )
      .returning([
        "email",
        "name",
        sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
          "invitedAt",
        ),
      ])
      .executeTakeFirstOrThrow();
    await audit(tx, {
      ...who(actor, null),
      action: "admin.teacher_invited",
      details: { email: input.email, name: input.name },
    });
    return invited;
  });
  await sendMail(
    services,
    input.email,
    // The invitee has no account yet: the school's language (DEFAULT_LOCALE).
    localizedTeacherInvitationEmail(services.config.defaultLocale, {
      name: input.name,
      invitedBy: actor.user.name,
      appUrl: appUrl(services),
    }),
  );
  return row;
}

/**
 * Takes an invitation back before it is used (an admin's): the address no longer becomes a
 * teacher's when it registers. 404 when no invitation to that address is open.
 */
export async function cancelTeacherInvitation(
  services: Services,
  actor: { user: AuthUser; ip: string | null },
  params: unknown,
): Promise<void> {
  const parsed = teacherInvitationParamsSchema.safeParse(params);
  if (!parsed.success) throw notFound(teacherInvitationMessages.notFound);
  const { email } = parsed.data;
  await services.db.transaction().execute(async (tx) => {
    const removed = await tx
      .deleteFrom("teacher_invitations")
      .where("email", "=", email)
      .returning(["name", "invited_by"])
      .executeTakeFirst();
    if (!removed) throw notFound(teacherInvitationMessages.notFound);
    await audit(tx, {
      ...who(actor, null),
      action: "admin.teacher_invitation_cancelled",
      details: { email, name: removed.name, invitedBy: removed.invited_by },
    });
  });
}

export function listTeacherInvitations(db: Db): Promise<TeacherInvitation[]> {
  return db
    .selectFrom("teacher_invitations")
    .select([
      "email",
      "name",
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(
        "invitedAt",
      ),
    ])
    .orderBy("created_at", "desc")
    .limit(500)
    .execute();
}

/**
 * Called once an account's email is proven: an invited address becomes a teacher, and the
 * invitation is used up. Returns the account as it is now.
 */
export async function acceptTeacherInvitation(
  services: Services,
  user: UserRow,
  ip: string | null,
): Promise<UserRow> {
  if (user.role !== "student") return user;
  const after = await services.db.transaction().execute(async (tx) => {
    const used = await tx
      .deleteFrom("teacher_invitations")
      .where("email", "=", user.email)
      .returning("invited_by")
      .executeTakeFirst();
    if (!used) return user;
    const after = await tx
      .updateTable("users")
      .set({ role: "teacher", pending_role: null })
      .where("id", "=", user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, {
      actorId: user.id,
      actorEmail: user.email,
      action: "auth.teacher_invitation_accepted",
      target: user.id,
      details: { invitedBy: used.invited_by },
      ip,
    });
    return after;
  });
  if (after !== user) services.database.usersChanged();
  return after;
}
