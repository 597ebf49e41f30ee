import { createHash } from "node:crypto";
import type { Subject } from "@gradecast/contract/subjects";
import { sql } from "kysely";
import { localizedRosterInvitationEmail } from "../i18n/emails.ts";
import { enqueueJob, type JobHandler, jobKinds } from "../jobs/queue.ts";
import { appUrl } from "../mail/send.ts";
import type { Services } from "../services.ts";

// The class invitation emails of a roster import (issue 34, decision 0025), off the import's
// transaction: the import records the invitations and queues one job with the addresses it
// invited; the job writes ONE email per address with no account, listing every roster class the
// address is invited to, in batches of `batchSize` addresses per transaction, then queues
// "mail.send". The outbox's dedupe key is the address and the set of its classes: a job run
// again (a restart, a repeated import) writes nothing twice, and an address invited to a new
// class later gets a new email listing its classes.

export const oneRosterJobs = {
  /** Writes the class invitation emails of one import (key: the import; payload: addresses). */
  invitationMail: "oneroster.invitation-mail",
} as const;

export const invitationMailBatch = 500;

export function invitationMailJob(services: Services): JobHandler {
  return async (context) => {
    const given = context.job.payload.emails;
    const emails = [
      ...new Set(Array.isArray(given) ? given.filter((e) => typeof e === "string") : []),
    ].sort();
    for (let i = 0; i < emails.length; i += invitationMailBatch) {
      if (context.stopping()) return;
      await writeInvitationMails(services, emails.slice(i, i + invitationMailBatch));
      await context.progress(Math.min(i + invitationMailBatch, emails.length), emails.length);
    }
    // Every email written: the addresses are not kept in the finished job.
    await services.db
      .updateTable("jobs")
      .set({ payload: "{}" })
      .where("id", "=", context.job.id)
      .execute();
  };
}

/** Writes the emails of these addresses in one transaction; how many it wrote. */
export async function writeInvitationMails(services: Services, emails: string[]): Promise<number> {
  const url = appUrl(services);
  const schoolName = services.config.schoolName;
  // Only addresses with no account get these: the school's language (DEFAULT_LOCALE).
  const locale = services.config.defaultLocale;
  return services.db.transaction().execute(async (tx) => {
    // Invitations still open, of addresses that still have no account, to roster classes.
    const rows = await sql<{
      email: string;
      class_id: string;
      name: string;
      subject: Subject;
      year: string;
    }>`
      select i.email, c.id as class_id, c.name, c.subject, c.year
      from class_invitations i
      join oneroster_classes o on o.class_id = i.class_id
      join classes c on c.id = i.class_id
      where i.email = any(${emails}::text[]) and not i.needs_consent
        and not exists (select 1 from users u where u.email = i.email)
      order by i.email, c.name, c.id`.execute(tx);
    const byEmail = new Map<string, typeof rows.rows>();
    for (const r of rows.rows) {
      const list = byEmail.get(r.email) ?? [];
      list.push(r);
      byEmail.set(r.email, list);
    }
    if (byEmail.size === 0) return 0;
    const mails = [...byEmail].map(([to, classes]) => {
      const ids = classes.map((c) => c.class_id).sort();
      const set = createHash("sha256").update(ids.join(",")).digest("hex").slice(0, 32);
      return {
        to,
        ...localizedRosterInvitationEmail(locale, { classes, appUrl: url, schoolName }),
        key: `oneroster:classes:${to}:${set}`,
      };
    });
    const written = await sql<{ id: string }>`
      insert into mail_outbox (recipient, subject, body, kind, dedupe_key)
      select x.r, x.s, x.b, 'oneroster_class_invitation', x.k
      from unnest(${mails.map((x) => x.to)}::text[], ${mails.map((x) => x.subject)}::text[],
        ${mails.map((x) => x.text)}::text[], ${mails.map((x) => x.key)}::text[]) as x(r, s, b, k)
      on conflict (dedupe_key) do nothing
      returning id`.execute(tx);
    if (written.rows.length > 0) await enqueueJob(tx, { kind: jobKinds.sendMail });
    return written.rows.length;
  });
}
