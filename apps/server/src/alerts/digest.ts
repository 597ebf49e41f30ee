import type { Locale } from "@gradecast/contract/locale";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import { localizedDigestEmail } from "../i18n/emails.ts";
import { enqueueJob, type JobHandler, jobKinds } from "../jobs/queue.ts";
import { appUrl } from "../mail/send.ts";
import type { Services } from "../services.ts";
import { notificationsOf } from "./service.ts";
import { settingsOf, unsubscribeToken } from "./settings.ts";

// The email digest (issue 32). "digest.plan" looks for people whose digest period has ended
// (daily: yesterday, UTC; weekly: last week, Monday to Sunday) and writes each one's digest to
// the mail outbox in the same transaction that records the period as done: `digests` has one row
// per person and period, so a period is never written twice, whichever instance or retry runs it.
// "mail.send" sends the outbox: each row is marked sent once the SMTP server accepted it. A crash
// between the server's acceptance and that mark sends that one message again at the next run
// (at-least-once; the window is one statement long). Every instance asks for "digest.plan" once
// a minute: one waiting job at a time, and the period's row makes a second run write nothing.

const dayMs = 86_400_000;
const startOfDay = (d: Date) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const ymd = (d: Date) => d.toISOString().slice(0, 10);

export interface DigestPeriod {
  key: string;
  from: Date;
  until: Date;
  /** The follow-ups that fall due are those of the period that starts now. */
  nextUntil: Date;
}

/** The period whose digest is due at `now`. */
export function duePeriod(choice: "daily" | "weekly", now: Date): DigestPeriod {
  const today = startOfDay(now);
  if (choice === "daily") {
    const from = new Date(today.getTime() - dayMs);
    return {
      key: `daily:${ymd(from)}`,
      from,
      until: today,
      nextUntil: new Date(today.getTime() + dayMs),
    };
  }
  // Monday of this week (getUTCDay: 0 Sunday).
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * dayMs);
  const from = new Date(monday.getTime() - 7 * dayMs);
  return {
    key: `weekly:${ymd(from)}`,
    from,
    until: monday,
    nextUntil: new Date(monday.getTime() + 7 * dayMs),
  };
}

/** What one person's digest lists. */
export interface DigestContent {
  notifications: { title: string; reasons: string[] }[];
  followUps: { student: string; className: string; on: string }[];
  outcomes: { student: string; className: string }[];
  reviews: { student: string; className: string; on: string }[];
}

const countOf = (c: DigestContent) =>
  c.notifications.length + c.followUps.length + c.outcomes.length + c.reviews.length;

/** Tables of rows about one student in one class. */
type AboutStudentInClass = "intervention_notes" | "intervention_plans" | "school_records";

/** The database with those tables seen through the columns they share. */
type SharedColumns = Omit<DB, AboutStudentInClass> &
  Record<AboutStudentInClass, { student_id: string; class_id: string }>;

/** A query on one of those tables (as `r`) joined to the student (`s`) and the class (`c`). */
type WithStudentAndClass<T extends AboutStudentInClass> = SelectQueryBuilder<
  DB & { r: DB[T]; s: DB["users"]; c: DB["classes"] },
  "r" | "s" | "c",
  { student: string; className: string }
>;

/**
 * Rows of `table` in the classes the user teaches, with the student's and the class's names:
 * what each list of the digest starts from. Kysely cannot follow a table chosen by a type
 * parameter: the query is checked against the columns the three tables share, and its type then
 * names the one table asked for.
 */
function inTaughtClasses<T extends AboutStudentInClass>(
  db: Kysely<DB>,
  userId: string,
  table: T,
): WithStudentAndClass<T> {
  const query = (db as unknown as Kysely<SharedColumns>)
    .selectFrom(`${table as AboutStudentInClass} as r`)
    .innerJoin("users as s", "s.id", "r.student_id")
    .innerJoin("classes as c", "c.id", "r.class_id")
    .select(["s.name as student", "c.name as className"])
    .where(
      "r.class_id",
      "in",
      db.selectFrom("class_teachers").select("class_id").where("teacher_id", "=", userId),
    );
  return query as unknown as WithStudentAndClass<T>;
}

/** A digest's content: built from what the in-app list and the risk list show, nothing more. */
export async function digestContent(
  db: Kysely<DB>,
  userId: string,
  period: DigestPeriod,
): Promise<DigestContent> {
  const notifications = (
    await notificationsOf(db, userId, { since: period.from, until: period.until, limit: 200 })
  )
    .reverse()
    .map((n) => ({
      title: n.title,
      reasons: n.reasons.map((r) => r.label),
    }));
  const followUps = await inTaughtClasses(db, userId, "intervention_notes")
    .select(sql<string>`to_char(r.follow_up_on, 'YYYY-MM-DD')`.as("on"))
    .where("r.follow_up_on", ">=", ymd(period.until))
    .where("r.follow_up_on", "<", ymd(period.nextUntil))
    .orderBy("r.follow_up_on")
    .orderBy("s.name")
    .execute();
  const reviews = await inTaughtClasses(db, userId, "intervention_plans")
    .select(sql<string>`to_char(r.review_on, 'YYYY-MM-DD')`.as("on"))
    .where("r.closed_at", "is", null)
    .where("r.review_on", "<", ymd(period.nextUntil))
    .orderBy("r.review_on")
    .orderBy("s.name")
    .execute();
  const outcomes = await inTaughtClasses(db, userId, "school_records")
    .where("r.outcome_at", ">=", period.from)
    .where("r.outcome_at", "<", period.until)
    .orderBy("c.name")
    .orderBy("s.name")
    .execute();
  return { notifications, followUps, outcomes, reviews };
}

/**
 * Writes one person's digest of one period to the outbox, with the period's row, in one
 * transaction; false when the period was already done (by another instance or an earlier run).
 */
export async function writeDigest(
  services: Services,
  user: { id: string; name: string; email: string; locale: Locale | null },
  choice: "daily" | "weekly",
  period: DigestPeriod,
): Promise<boolean> {
  const content = await digestContent(services.db, user.id, period);
  const items = countOf(content);
  // An empty period sends nothing and is not marked done: nothing is lost if something of it
  // is recorded late.
  if (items === 0) return false;
  const { unsubscribe_key: key } = await settingsOf(services.db, user.id);
  return services.db.transaction().execute(async (tx) => {
    const done = await tx
      .insertInto("digests")
      .values({ user_id: user.id, period: period.key, items })
      .onConflict((oc) => oc.columns(["user_id", "period"]).doNothing())
      .returning("period")
      .executeTakeFirst();
    if (!done) return false;
    const email = localizedDigestEmail(user.locale ?? services.config.defaultLocale, {
      name: user.name,
      choice,
      from: ymd(period.from),
      until: ymd(new Date(period.until.getTime() - dayMs)),
      ...content,
      appUrl: appUrl(services),
      unsubscribeLink: `${appUrl(services)}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(user.id, key))}`,
    });
    await tx
      .insertInto("mail_outbox")
      .values({
        recipient_id: user.id,
        recipient: user.email,
        subject: email.subject,
        body: email.text,
        kind: "digest",
        dedupe_key: `digest:${user.id}:${period.key}`,
      })
      .onConflict((oc) => oc.column("dedupe_key").doNothing())
      .execute();
    await enqueueJob(tx, { kind: jobKinds.sendMail });
    return true;
  });
}

/** "digest.plan": every person whose digest period ended gets it written once. */
export function planDigests(services: Services): JobHandler {
  return async (context) => {
    const now = services.now();
    const people = await services.db
      .selectFrom("users as u")
      .leftJoin("notification_settings as s", "s.user_id", "u.id")
      .select([
        "u.id",
        "u.name",
        "u.email",
        "u.locale",
        sql<"daily" | "weekly" | "off">`coalesce(s.digest, 'weekly')`.as("digest"),
      ])
      .where("u.email_verified", "=", true)
      .where("u.disabled", "=", false)
      .where(sql<boolean>`coalesce(s.digest, 'weekly') <> 'off'`)
      .orderBy("u.id")
      .execute();
    for (const person of people) {
      if (context.stopping()) return;
      if (person.digest === "off") continue;
      const period = duePeriod(person.digest, now);
      const done = await services.db
        .selectFrom("digests")
        .select("period")
        .where("user_id", "=", person.id)
        .where("period", "=", period.key)
        .executeTakeFirst();
      if (done) continue;
      await writeDigest(services, person, person.digest, period);
    }
  };
}

/** Rows sent per run; a longer outbox is sent by the next run, asked for at once. */
const batch = 50;
const maxAttempts = 5;

/** "mail.send": sends the outbox's pending rows, oldest first. */
export function sendOutbox(services: Services): JobHandler {
  return async (context) => {
    const rows = await services.db
      .selectFrom("mail_outbox")
      .select(["id", "recipient", "subject", "body", "attempts"])
      .where("state", "=", "pending")
      .orderBy("created_at")
      .orderBy("id")
      .limit(batch)
      .execute();
    let failed = 0;
    for (const row of rows) {
      if (context.stopping()) return;
      try {
        await services.mailer.send({ to: row.recipient, subject: row.subject, text: row.body });
      } catch (error) {
        failed += 1;
        services.log.error({ err: error }, "sending an outbox mail failed");
        await services.db
          .updateTable("mail_outbox")
          .set({
            attempts: row.attempts + 1,
            error:
              error instanceof Error ? error.message.split("\n", 1)[0]!.slice(0, 300) : "failed",
            ...(row.attempts + 1 >= maxAttempts ? { state: "failed" as const } : {}),
          })
          .where("id", "=", row.id)
          .execute();
        continue;
      }
      // The at-least-once window: from the SMTP server's acceptance to this statement.
      await services.db
        .updateTable("mail_outbox")
        .set({ state: "sent", sent_at: new Date(), attempts: row.attempts + 1 })
        .where("id", "=", row.id)
        .execute();
    }
    if (rows.length === batch) await enqueueJob(services.db, { kind: jobKinds.sendMail });
    // A failed row is tried again with the job's backoff.
    if (failed > 0) throw new Error(`${failed} outbox mail could not be sent`);
  };
}

/** Every instance asks for the digests' planning once a minute (one waiting job at a time). */
export function startDigestSchedule(services: Services, everyMs = 60_000): () => void {
  const ask = () => {
    Promise.all([
      enqueueJob(services.db, { kind: jobKinds.planDigests }),
      // Mail left pending by a crash is sent again.
      hasPending(services.db).then((pending) =>
        pending ? enqueueJob(services.db, { kind: jobKinds.sendMail }) : undefined,
      ),
    ]).catch((err) => services.log.warn({ err }, "could not ask for the digests"));
  };
  ask();
  const timer = setInterval(ask, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

async function hasPending(db: Kysely<DB>): Promise<boolean> {
  const row = await db
    .selectFrom("mail_outbox")
    .select("id")
    .where("state", "=", "pending")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
