import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { retentionPatchSchema } from "@gradecast/contract/data-rights";
import {
  type DataProtection,
  type Deletion,
  dataRightsMessages,
  type PrivacyNotice,
  type RetentionSetting,
} from "@gradecast/contract/data-rights";
import { isId } from "@gradecast/contract/ids";
import type { Locale } from "@gradecast/contract/locale";
import {
  categoryInfo,
  type PersonalDataEntry,
  personalData,
  type RetentionCategory,
  retentionCategories,
} from "@gradecast/contract/personal-data";
import { privacyNoticeVersion } from "@gradecast/contract/privacy";
import { sql } from "kysely";
import type { z } from "zod";
import { settleAlerts } from "../alerts/backlog.ts";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { requireRecentAuth } from "../auth/reauth.ts";
import type { AuthContext } from "../auth/service.ts";
import { signingKeyDigest } from "../auth/signing-key-digest.ts";
import type { SigningKeys } from "../auth/tokens.ts";
import { conflict, invalid, notFound } from "../domain-errors.ts";
import { t, type Values } from "../i18n/translate.ts";
import { enqueueJob } from "../jobs/queue.ts";
import type { Services } from "../services.ts";
import { countDue, type Person, purgeDue, purgePerson } from "./registry.ts";

// Issue 31 (docs/decisions/0021-data-rights.md): the privacy notice, deletion requests and their
// purge, retention. The registry (contract personal-data.ts) says what is where.

export const privacyJobs = {
  /** Purges due account deletions, checks retention, and queues its next run (key "daily"). */
  daily: "privacy.daily",
  /** Purges one category's due rows after an admin confirmed (key: the category). */
  retentionPurge: "privacy.retention-purge",
} as const;

const dayMs = 86_400_000;
const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

// The audit log names a purged person by a pseudonym: HMAC-SHA256 of their id under a key
// derived (HKDF) from the server's signing key, as the evaluation export does, with a key of its
// own so the two cannot be joined.
const auditDigest = signingKeyDigest("audit pseudonym v1");
export function auditPseudonym(keys: SigningKeys, userId: string): string {
  return `erased-${auditDigest(keys, userId)}`;
}

// The notice.

async function retentionRows(services: Services) {
  const rows = await services.db.selectFrom("retention_settings").selectAll().execute();
  return new Map(rows.map((r) => [r.category, r]));
}

async function keepDaysOf(services: Services): Promise<Record<RetentionCategory, number | null>> {
  const rows = await retentionRows(services);
  return Object.fromEntries(
    retentionCategories.map((c) => {
      const row = rows.get(c);
      return [c, row ? row.keep_days : categoryInfo[c].defaultDays];
    }),
  ) as Record<RetentionCategory, number | null>;
}

// The notice's text: English is the registry's own (the contract's privacy catalogue holds the
// same text, which a test compares); another language comes from that catalogue, one key per
// registry text ("privacy.<table>.title", ".purpose", ".whoSees", ".field.<column>").
function noticeText(locale: Locale, key: string, english: string, values?: Values): string {
  return locale === "en" ? english : t(locale, key, values);
}

function keptText(locale: Locale, entry: PersonalDataEntry, days: number | null): string {
  const info = categoryInfo[entry.category];
  const until = noticeText(locale, `privacy.category.${entry.category}.until`, info.untilText);
  if (days === null || !entry.agedBy)
    return noticeText(locale, "privacy.kept", `Kept ${until}.`, { until });
  return noticeText(
    locale,
    "privacy.keptDays",
    `Kept ${days} days, then deleted (or ${until}, if sooner).`,
    { days, until },
  );
}

/** GET /api/privacy: the notice, from the registry and the retention settings, in `locale`. */
export async function privacyNotice(services: Services, locale: Locale): Promise<PrivacyNotice> {
  const days = await keepDaysOf(services);
  const secret = noticeText(locale, "privacy.secret", "kept secret (a hash or a key)");
  return {
    version: privacyNoticeVersion,
    schoolName: services.config.schoolName ?? null,
    dpoContact: services.config.dpoContact ?? null,
    graceDays: services.config.accountDeletionGraceDays,
    sections: personalData.map((entry) => {
      const key = `privacy.${entry.table}`;
      return {
        table: entry.table,
        title: noticeText(locale, `${key}.title`, entry.title),
        purpose: noticeText(locale, `${key}.purpose`, entry.purpose),
        whoSees: noticeText(locale, `${key}.whoSees`, entry.whoSees),
        kept: keptText(locale, entry, days[entry.category]),
        fields: [
          ...Object.entries(entry.fields).map(([name, about]) => ({
            name,
            about: noticeText(locale, `${key}.field.${name}`, about),
          })),
          ...(entry.secret ?? []).map((name) => ({ name, about: secret })),
        ],
      };
    }),
  };
}

// Deletion requests.

function dueAt(services: Services): Date {
  return new Date(services.now().getTime() + services.config.accountDeletionGraceDays * dayMs);
}

async function revokeSessions(services: Services, userId: string): Promise<void> {
  await services.db
    .updateTable("sessions")
    .set({ revoked_at: services.now() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .execute();
  services.database.usersChanged();
}

async function refuseLastAdmin(services: Services, userId: string): Promise<void> {
  const admins = await services.db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .where("disabled", "=", false)
    .execute();
  if (admins.length <= 1 && admins[0]?.id === userId) {
    throw conflict("The last admin's account cannot be deleted: make another admin first.");
  }
}

async function schedule(
  services: Services,
  userId: string,
  requestedBy: string,
  via: "self" | "admin",
  reason: string | null,
): Promise<Date> {
  const due = dueAt(services);
  await services.db
    .insertInto("account_deletions")
    .values({
      user_id: userId,
      requested_by: requestedBy,
      requested_at: services.now().toISOString(),
      due_at: due,
      via,
      reason,
    })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        requested_by: requestedBy,
        requested_at: services.now(),
        due_at: due,
        via,
        reason,
      }),
    )
    .execute();
  await revokeSessions(services, userId);
  return due;
}

/** POST /api/me/deletion: after re-authentication; signs the person out everywhere. */
export async function requestOwnDeletion(ctx: AuthContext, actor: Actor): Promise<Deletion> {
  const { services } = ctx;
  await requireRecentAuth(ctx, actor.user);
  await refuseLastAdmin(services, actor.user.id);
  const due = await schedule(services, actor.user.id, actor.user.id, "self", null);
  await audit(services.db, {
    ...who(actor, actor.user.id),
    action: "privacy.deletion_requested",
    details: { via: "self", dueAt: due.toISOString() },
  });
  return { dueAt: due.toISOString(), graceDays: services.config.accountDeletionGraceDays };
}

/** POST /api/admin/users/:uid/deletion: on the person's request; the admin re-authenticates. */
export async function requestDeletionOf(
  ctx: AuthContext,
  actor: Actor,
  uid: string,
  reason: string,
): Promise<Deletion> {
  const { services } = ctx;
  await requireRecentAuth(ctx, actor.user);
  if (!isId(uid)) throw notFound("No such account.");
  if (uid === actor.user.id) throw invalid(dataRightsMessages.ownAccount);
  const target = await services.db
    .selectFrom("users")
    .select(["id"])
    .where("id", "=", uid)
    .executeTakeFirst();
  if (!target) throw notFound("No such account.");
  await refuseLastAdmin(services, uid);
  const due = await schedule(services, uid, actor.user.id, "admin", reason);
  // The reason stays with the request (deleted by the purge), not in the audit log.
  await audit(services.db, {
    ...who(actor, uid),
    action: "privacy.deletion_requested",
    details: { via: "admin", dueAt: due.toISOString() },
  });
  return { dueAt: due.toISOString(), graceDays: services.config.accountDeletionGraceDays };
}

/** DELETE /api/admin/users/:uid/deletion: idempotent (204 when none waits; 404: no account). */
export async function cancelDeletionOf(services: Services, actor: Actor, uid: string) {
  if (!isId(uid)) throw notFound("No such account.");
  const user = await services.db
    .selectFrom("users")
    .select("id")
    .where("id", "=", uid)
    .executeTakeFirst();
  if (!user) throw notFound("No such account.");
  const removed = await services.db
    .deleteFrom("account_deletions")
    .where("user_id", "=", uid)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) return;
  await audit(services.db, {
    ...who(actor, uid),
    action: "privacy.deletion_cancelled",
    details: { by: "admin" },
  });
}

// The purge.

/** The emails of the file outbox (no SMTP) that `picks` keeps, by path. */
async function outboxFiles(
  services: Services,
  picks: (file: string) => Promise<boolean>,
): Promise<string[]> {
  const dir = path.join(services.config.dataDir, "outbox");
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: string[] = [];
  for (const name of names.filter((n) => n.endsWith(".eml"))) {
    const file = path.join(dir, name);
    if (await picks(file)) found.push(file);
  }
  return found;
}

/** Outbox emails written more than `days` ago. */
function olderThan(services: Services, days: number) {
  const cutoff = services.now().getTime() - days * dayMs;
  return async (file: string) => {
    const info = await stat(file).catch(() => null);
    return info !== null && info.mtimeMs < cutoff;
  };
}

async function removeFiles(files: readonly string[]): Promise<number> {
  for (const file of files) await rm(file, { force: true });
  return files.length;
}

/** Emails in the file outbox addressed to the person. */
async function purgeOutboxFor(services: Services, email: string): Promise<number> {
  const addressed = async (file: string) =>
    (await readFile(file, "utf8").catch(() => "")).toLowerCase().includes(email);
  return removeFiles(await outboxFiles(services, addressed));
}

/** Purges one account whose grace period is over; false when it was cancelled meanwhile. */
export async function purgeAccount(
  services: Services,
  keys: SigningKeys,
  userId: string,
): Promise<boolean> {
  // No alert of theirs is left to be written after they are gone.
  await settleAlerts(services.db);
  const person = await services.db.transaction().execute(async (tx) => {
    // Claimed first: a sign-in that cancelled it a moment ago wins, and so does another instance.
    const claimed = await tx
      .deleteFrom("account_deletions")
      .where("user_id", "=", userId)
      .where("due_at", "<=", services.now())
      .returning("user_id")
      .executeTakeFirst();
    if (!claimed) return null;
    const row = await tx
      .selectFrom("users")
      .select(["id", "email", "name", "role"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!row) return null;
    const person: Person = { id: row.id, email: row.email, name: row.name };
    const pseudonym = auditPseudonym(keys, row.id);
    const touched = await purgePerson(tx, person, pseudonym);
    await audit(tx, {
      actorId: null,
      actorEmail: null,
      action: "privacy.account_purged",
      target: pseudonym,
      details: { role: row.role, rows: touched },
      ip: null,
    });
    return person;
  });
  if (!person) return false;
  services.database.usersChanged();
  await purgeOutboxFor(services, person.email);
  return true;
}

/** Every deletion whose grace period is over. */
export async function purgeDueAccounts(services: Services, keys: SigningKeys): Promise<number> {
  const due = await services.db
    .selectFrom("account_deletions")
    .select("user_id")
    .where("due_at", "<=", services.now())
    .execute();
  let purged = 0;
  for (const { user_id } of due) {
    if (await purgeAccount(services, keys, user_id)) purged += 1;
  }
  return purged;
}

// Retention.

async function purgeOldOutbox(services: Services, days: number): Promise<number> {
  return removeFiles(await outboxFiles(services, olderThan(services, days)));
}

async function outboxDue(services: Services, days: number): Promise<number> {
  return (await outboxFiles(services, olderThan(services, days))).length;
}

async function dueIn(services: Services, category: RetentionCategory, days: number) {
  if (category === "outbox") return outboxDue(services, days);
  return countDue(services.db, category, days, services.now());
}

/** Purges a category's due rows now; how many (audited, with no actor: the job). */
export async function purgeCategory(
  services: Services,
  category: RetentionCategory,
  confirmedBy: string | null,
): Promise<number> {
  const days = (await keepDaysOf(services))[category];
  if (days === null || !categoryInfo[category].configurable) return 0;
  const purged =
    category === "outbox"
      ? await purgeOldOutbox(services, days)
      : await services.db
          .transaction()
          .execute((tx) => purgeDue(tx, category, days, services.now()));
  await services.db
    .insertInto("retention_settings")
    .values({
      category,
      keep_days: days,
      purged_at: services.now(),
      purged_count: purged,
      due_count: 0,
      checked_at: services.now(),
    })
    .onConflict((oc) =>
      oc.column("category").doUpdateSet({
        purged_at: services.now(),
        purged_count: purged,
        due_count: 0,
        checked_at: services.now(),
      }),
    )
    .execute();
  await audit(services.db, {
    actorId: confirmedBy,
    actorEmail: null,
    action: "privacy.retention_purged",
    target: category,
    details: { rows: purged, keepDays: days },
    ip: null,
  });
  return purged;
}

/** The daily look: counts what is due per category, and purges it where the admin said so. */
export async function checkRetention(services: Services): Promise<void> {
  const rows = await retentionRows(services);
  const days = await keepDaysOf(services);
  for (const category of retentionCategories) {
    const keep = days[category];
    if (keep === null || !categoryInfo[category].configurable) continue;
    if (rows.get(category)?.auto_purge) {
      await purgeCategory(services, category, null);
      continue;
    }
    const due = await dueIn(services, category, keep);
    await services.db
      .insertInto("retention_settings")
      .values({ category, keep_days: keep, due_count: due, checked_at: services.now() })
      .onConflict((oc) =>
        oc.column("category").doUpdateSet({ due_count: due, checked_at: services.now() }),
      )
      .execute();
  }
}

/** The next daily run: 03:00 UTC after `from`. */
export function nextDailyRun(from: Date): Date {
  const next = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), 3));
  if (next.getTime() <= from.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * Queues the daily job unless one waits: at each start and at the end of each run. A row in the
 * jobs table: it survives restarts, and the jobs queue runs it once across instances.
 */
export async function scheduleDaily(services: Services): Promise<void> {
  await services.db
    .insertInto("jobs")
    .values({
      kind: privacyJobs.daily,
      key: "daily",
      payload: "{}",
      run_after: sql`${nextDailyRun(new Date()).toISOString()}::timestamptz`,
    })
    .onConflict((oc) => oc.columns(["kind", "key"]).where("state", "=", "queued").doNothing())
    .execute();
}

// The admin's page.

async function pendingDeletions(services: Services) {
  const rows = await services.db
    .selectFrom("account_deletions as d")
    .innerJoin("users as u", "u.id", "d.user_id")
    .select(["u.id", "u.name", "u.email", "u.role", "d.via", "d.requested_at", "d.due_at"])
    .orderBy("d.due_at")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    uid: r.id,
    name: r.name,
    email: r.email,
    role: r.role,
    via: r.via,
    requestedAt: iso(r.requested_at as unknown as Date) as string,
    dueAt: iso(r.due_at) as string,
  }));
}

/**
 * Students enrolled in no class, whose account is over a school year old and who have not
 * signed in for one (365 days): listed for an admin to review (their data may no longer be needed).
 */
async function studentsToReview(services: Services) {
  const cutoff = new Date(services.now().getTime() - 365 * dayMs).toISOString();
  const rows = await sql<{
    id: string;
    name: string;
    email: string;
    created_at: Date;
    last: Date | null;
  }>`
    select u.id, u.name, u.email, u.created_at,
      (select max(coalesce(s.signed_in_at, s.created_at)) from sessions s where s.user_id = u.id) as last
    from users u
    where u.role = 'student' and u.created_at < ${cutoff}::timestamptz
      and not exists (select 1 from enrolments e where e.student_id = u.id)
      and not exists (select 1 from sessions s where s.user_id = u.id
                      and coalesce(s.signed_in_at, s.created_at) >= ${cutoff}::timestamptz)
      and not exists (select 1 from account_deletions d where d.user_id = u.id)
    order by u.created_at
    limit 500`.execute(services.db);
  return rows.rows.map((r) => ({
    uid: r.id,
    name: r.name,
    email: r.email,
    createdAt: iso(r.created_at) as string,
    lastSignInAt: iso(r.last),
  }));
}

export async function dataProtection(services: Services): Promise<DataProtection> {
  const rows = await retentionRows(services);
  const days = await keepDaysOf(services);
  const retention: RetentionSetting[] = [];
  for (const category of retentionCategories) {
    const info = categoryInfo[category];
    const row = rows.get(category);
    const keep = days[category];
    retention.push({
      category,
      label: info.label,
      configurable: info.configurable,
      keepDays: keep,
      autoPurge: row?.auto_purge ?? false,
      due: keep !== null && info.configurable ? await dueIn(services, category, keep) : 0,
      checkedAt: iso(row?.checked_at ?? null),
      purgedAt: iso(row?.purged_at ?? null),
      purgedCount: row?.purged_count ?? null,
    });
  }
  const settings = await services.db
    .selectFrom("privacy_settings")
    .select("deleted_student_reports")
    .executeTakeFirst();
  return {
    retention,
    deletedStudentReports: settings?.deleted_student_reports ?? "anonymise",
    graceDays: services.config.accountDeletionGraceDays,
    deletions: await pendingDeletions(services),
    toReview: await studentsToReview(services),
  };
}

export async function updateDataProtection(
  services: Services,
  actor: Actor,
  patch: z.output<typeof retentionPatchSchema>,
): Promise<DataProtection> {
  const changes: Record<string, unknown> = {};
  for (const item of patch.retention ?? []) {
    if (!categoryInfo[item.category].configurable) {
      throw invalid(dataRightsMessages.notConfigurable, {
        [item.category]: dataRightsMessages.notConfigurable,
      });
    }
  }
  for (const item of patch.retention ?? []) {
    await services.db
      .insertInto("retention_settings")
      .values({
        category: item.category,
        keep_days: item.keepDays,
        auto_purge: item.autoPurge,
        updated_by: actor.user.id,
        updated_at: services.now(),
      })
      .onConflict((oc) =>
        oc.column("category").doUpdateSet({
          keep_days: item.keepDays,
          auto_purge: item.autoPurge,
          updated_by: actor.user.id,
          updated_at: services.now(),
        }),
      )
      .execute();
    changes[item.category] = { keepDays: item.keepDays, autoPurge: item.autoPurge };
  }
  if (patch.deletedStudentReports) {
    await services.db
      .updateTable("privacy_settings")
      .set({
        deleted_student_reports: patch.deletedStudentReports,
        updated_by: actor.user.id,
        updated_at: services.now(),
      })
      .execute();
    changes.deletedStudentReports = patch.deletedStudentReports;
  }
  if (Object.keys(changes).length > 0) {
    await audit(services.db, {
      ...who(actor, null),
      action: "privacy.settings_changed",
      details: changes,
    });
  }
  return dataProtection(services);
}

/** POST /api/admin/data-protection/purge: the admin confirms; a job does the work. */
export async function queuePurge(
  services: Services,
  actor: Actor,
  category: RetentionCategory,
): Promise<{ jobId: string }> {
  const days = (await keepDaysOf(services))[category];
  if (days === null || !categoryInfo[category].configurable) {
    throw conflict(dataRightsMessages.nothingDue);
  }
  const jobId = await enqueueJob(services.db, {
    kind: privacyJobs.retentionPurge,
    key: category,
    payload: { category },
    createdBy: actor.user.id,
  });
  await audit(services.db, {
    ...who(actor, category),
    action: "privacy.retention_purge_confirmed",
    details: { keepDays: days },
  });
  return { jobId };
}
