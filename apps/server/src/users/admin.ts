import { emailSchema, nameSchema, passwordSchema } from "@gradecast/contract/auth";
import type { Kysely } from "kysely";
import { z } from "zod";
import { audit } from "../audit/audit.ts";
import { hashPassword, isCommonPassword } from "../auth/passwords.ts";
import { commonPasswordMessage, endSessionsAndResets, toUser } from "../auth/service.ts";
import type { DB } from "../db/schema.ts";
import * as users from "../db/users.ts";

// The one way an admin comes to exist: `npm run admin:create` (scripts/admin-create.ts) and
// the tests' signIn helper both call this. An existing account is promoted, its password kept
// unless a reset is asked for (an admin locked out, with no working mailbox to reset from).
const adminSchema = z.object({ email: emailSchema, name: nameSchema, password: passwordSchema });

export class AdminInputError extends Error {}

function checkedPassword(password: string | undefined): string {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) throw new AdminInputError(`password: ${parsed.error.issues[0]?.message}`);
  if (isCommonPassword(parsed.data))
    throw new AdminInputError(`password: ${commonPasswordMessage}`);
  return parsed.data;
}

export async function createOrPromoteAdmin(
  db: Kysely<DB>,
  input: {
    email: string;
    name: string;
    password?: string | undefined;
    /** For an existing account: set this password, and end its sessions and reset links. */
    resetPassword?: boolean;
    /** `teacher` makes a teacher (TEACHER_SIGNUP=closed); the default makes an admin. */
    role?: "admin" | "teacher";
  },
  now: Date = new Date(),
) {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) throw new AdminInputError(`--email: ${email.error.issues[0]?.message}`);
  const existing = await users.findUserByEmail(db, email.data);
  if (existing && input.resetPassword) {
    const password = checkedPassword(input.password);
    await users.updateUser(db, existing.id, { password_hash: await hashPassword(password) }, now);
    await endSessionsAndResets(db, existing.id, now);
    await audit(db, {
      actorId: null,
      actorEmail: null,
      action: "admin.password_reset_by_cli",
      target: existing.id,
      ip: null,
    });
  }
  const role = input.role ?? "admin";
  if (existing) {
    // Only ever upwards: an admin asked to be made a teacher stays an admin.
    const promote =
      existing.role === "student" || (existing.role === "teacher" && role === "admin");
    // Whoever runs the command on the server vouches for the address.
    const row = promote
      ? await users.updateUser(
          db,
          existing.id,
          { role, pending_role: null, email_verified: true },
          now,
        )
      : existing;
    if (!row) throw new Error("The account disappeared while promoting it.");
    if (promote) {
      await audit(db, {
        actorId: null,
        actorEmail: null,
        action: "admin.promoted_by_cli",
        target: row.id,
        details: { from: existing.role, to: role },
        ip: null,
      });
    }
    return {
      user: toUser(row),
      created: false,
      promoted: promote,
      passwordReset: input.resetPassword === true,
    };
  }
  const parsed = adminSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AdminInputError(`${String(issue?.path[0] ?? "input")}: ${issue?.message}`);
  }
  if (isCommonPassword(parsed.data.password)) {
    throw new AdminInputError(`password: ${commonPasswordMessage}`);
  }
  const row = await users.insertUser(db, {
    name: parsed.data.name,
    email: parsed.data.email,
    password_hash: await hashPassword(parsed.data.password),
    role,
    pending_role: null,
    email_verified: true,
  });
  if (!row)
    throw new AdminInputError(
      "An account with this email was created meanwhile; run the command again.",
    );
  await audit(db, {
    actorId: null,
    actorEmail: null,
    action: "admin.created_by_cli",
    target: row.id,
    details: { role },
    ip: null,
  });
  return { user: toUser(row), created: true, promoted: false, passwordReset: false };
}
