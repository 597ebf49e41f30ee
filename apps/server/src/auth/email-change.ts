import { type changeEmailSchema, securityMessages } from "@gradecast/contract/account-security";
import type { User } from "@gradecast/contract/auth";
import type { Locale } from "@gradecast/contract/locale";
import { messages } from "@gradecast/contract/messages";
import type { z } from "zod";
import { audit } from "../audit/audit.ts";
import { hasSqlState, sqlStates } from "../db/sql-errors.ts";
import * as users from "../db/users.ts";
import { conflict, invalid } from "../domain-errors.ts";
import { localizedEmailChangedEmail } from "../i18n/translate.ts";
import { appUrl, sendMail } from "../mail/send.ts";
import type { AuthUser } from "./access-hook.ts";
import * as q from "./queries.ts";
import { requireRecentAuth } from "./reauth.ts";
import { type AuthContext, sendVerificationCode, sessionExpired, toUser } from "./service.ts";

// Changing one's own email address (issue 18, ASVS 6.3.7): only within the re-authentication
// window (password, and the code when MFA is on). The account is unverified until the new
// address confirms with the code sent there; the old address is told, so that an owner whose
// session was taken over learns of it. An address another account uses gets 409, as
// registration already answers: hiding it here would reveal nothing registration does not, and
// this caller has just proved their password (and code) and is limited per account.

const emailTaken = () => conflict(messages.emailTaken, { email: messages.emailTaken });

export async function changeEmail(
  ctx: AuthContext,
  user: AuthUser,
  ip: string | null,
  { email }: z.output<typeof changeEmailSchema>,
  requestLocale?: Locale,
): Promise<{ user: User; message: string }> {
  const { services } = ctx;
  await requireRecentAuth(ctx, user);
  const row = await users.findUserById(services.db, user.id);
  if (!row) throw sessionExpired();
  if (email === row.email) {
    throw invalid(securityMessages.emailUnchanged, { email: securityMessages.emailUnchanged });
  }
  if (await users.findUserByEmail(services.db, email)) {
    throw emailTaken();
  }
  const now = services.now();
  // The address and its audit entry stand or fall together.
  const updated = await services.db
    .transaction()
    .execute(async (tx) => {
      const user = await users.updateUser(tx, row.id, { email, email_verified: false }, now);
      if (!user) throw sessionExpired();
      // Whatever was mailed to the old address (reset links, a verification code) proves
      // nothing any more: neither the new address nor a way back in for the old mailbox.
      await q.endEmailedProofs(tx, row.id, now);
      await audit(tx, {
        actorId: row.id,
        actorEmail: email,
        action: "auth.email_changed",
        target: row.id,
        details: { from: row.email, to: email },
        ip,
      });
      return user;
    })
    .catch((error: unknown) => {
      // Taken between the look-up and the write (the unique index on users.email).
      if (hasSqlState(error, sqlStates.uniqueViolation)) throw emailTaken();
      throw error;
    });
  // The account is unverified from now on, in every process's view of it.
  services.database.usersChanged();
  const locale = row.locale ?? requestLocale ?? services.config.defaultLocale;
  await sendVerificationCode(services, updated, locale);
  await sendMail(
    services,
    row.email,
    localizedEmailChangedEmail(locale, {
      name: row.name,
      newEmail: email,
      appUrl: appUrl(services),
    }),
  );
  return { user: toUser(updated), message: securityMessages.emailChanged(email) };
}
