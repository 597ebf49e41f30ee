import {
  alertMessages,
  type DigestChoice,
  type FlagFeedback,
  type FlagSummary,
  type flagFeedbackWriteSchema,
  flagJudgements,
  type Notification,
  type NotificationKind,
  type NotificationList,
  notificationListLimit,
  type Plan,
  type planCreateSchema,
  type planUpdateSchema,
} from "@gradecast/contract/alerts";
import { isAtRisk, type RiskReason } from "@gradecast/contract/class-risk";
import { isId } from "@gradecast/contract/ids";
import { type Kysely, sql } from "kysely";
import type { z } from "zod";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import { aboutEnrolledStudent, type ClassAccess } from "../classes/policy.ts";
import { countRows } from "../db/rows.ts";
import type { DB } from "../db/schema.ts";
import { conflict, invalid, notFound } from "../domain-errors.ts";
import type { Services } from "../services.ts";
import { settleAlerts } from "./backlog.ts";
import { digestOf, setDigestOf, verifyUnsubscribe } from "./settings.ts";

// Notifications (the caller's own), the digest setting, flags and intervention plans (the
// class's teachers' alone: the route's class check, verb `note`, is run before these).

const iso = (d: Date | string) => new Date(d).toISOString();
const day = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;
const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v) as Record<string, unknown>;

/** One line a person reads of a notification. */
export function notificationTitle(
  kind: NotificationKind,
  student: string | null,
  className: string | null,
): string {
  const where = className ? ` (${className})` : "";
  switch (kind) {
    case "risk_up":
      return `${student ?? "A student"}${where} is now at risk`;
    case "risk_down":
      return `${student ?? "A student"}${where} is no longer at risk`;
    case "report_written":
      return "A teacher wrote a report about you";
    case "record_changed":
      return `The school record changed a value of your prediction${where}`;
  }
}

/** The notifications of one person, newest first (at most `limit`), as the API shows them. */
export async function notificationsOf(
  db: Kysely<DB>,
  userId: string,
  options: { since?: Date; until?: Date; limit?: number } = {},
): Promise<Notification[]> {
  let q = db
    .selectFrom("notifications as n")
    .leftJoin("users as s", "s.id", "n.student_id")
    .leftJoin("classes as c", "c.id", "n.class_id")
    .select([
      "n.id",
      "n.kind",
      "n.student_id as studentId",
      "s.name as studentName",
      "n.class_id as classId",
      "c.name as className",
      "n.payload",
      "n.created_at as createdAt",
      "n.read_at as readAt",
    ])
    .where("n.recipient_id", "=", userId);
  if (options.since) q = q.where("n.created_at", ">=", options.since);
  if (options.until) q = q.where("n.created_at", "<", options.until);
  const rows = await q
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .limit(options.limit ?? notificationListLimit)
    .execute();
  return rows.map((r) => {
    const payload = json(r.payload);
    return {
      id: r.id,
      kind: r.kind,
      title: notificationTitle(r.kind, r.studentName, r.className),
      student: r.studentId && r.studentName ? { id: r.studentId, name: r.studentName } : null,
      class: r.classId && r.className ? { id: r.classId, name: r.className } : null,
      prediction: typeof payload.prediction === "number" ? payload.prediction : null,
      noFinalScoreRisk:
        typeof payload.noFinalScoreRisk === "number" ? payload.noFinalScoreRisk : null,
      reasons: Array.isArray(payload.reasons) ? (payload.reasons as RiskReason[]) : [],
      createdAt: iso(r.createdAt),
      readAt: r.readAt ? iso(r.readAt) : null,
    };
  });
}

function unreadOf(db: Kysely<DB>, userId: string): Promise<number> {
  return countRows(db, "notifications", { recipient_id: userId, read_at: null });
}

export async function myNotifications(services: Services, actor: Actor): Promise<NotificationList> {
  await settleAlerts(services.db);
  const [items, unread] = await Promise.all([
    notificationsOf(services.db, actor.user.id),
    unreadOf(services.db, actor.user.id),
  ]);
  return { unread, items };
}

export async function markRead(
  services: Services,
  actor: Actor,
  body: { all: true } | { ids: string[] },
): Promise<{ unread: number }> {
  await settleAlerts(services.db);
  let q = services.db
    .updateTable("notifications")
    .set({ read_at: services.now() })
    .where("recipient_id", "=", actor.user.id)
    .where("read_at", "is", null);
  if ("ids" in body) {
    const ids = body.ids.filter(isId);
    if (ids.length === 0) return { unread: await unreadOf(services.db, actor.user.id) };
    q = q.where("id", "in", ids);
  }
  await q.execute();
  return { unread: await unreadOf(services.db, actor.user.id) };
}

export async function myDigest(services: Services, actor: Actor) {
  return { digest: await digestOf(services.db, actor.user.id) };
}

export async function setMyDigest(services: Services, actor: Actor, digest: DigestChoice) {
  await services.db.transaction().execute(async (tx) => {
    await setDigestOf(tx, actor.user.id, digest);
    await audit(tx, {
      ...who(actor, actor.user.id),
      action: "user.digest_set",
      details: { digest },
    });
  });
  return { digest };
}

export async function unsubscribe(services: Services, token: string, ip: string | null) {
  const userId = await verifyUnsubscribe(services.db, token);
  if (!userId) throw notFound(alertMessages.unsubscribeInvalid);
  await services.db.transaction().execute(async (tx) => {
    await setDigestOf(tx, userId, "off");
    await audit(tx, {
      actorId: userId,
      actorEmail: null,
      action: "user.digest_set",
      target: userId,
      details: { digest: "off", via: "unsubscribe_link" },
      ip,
    });
  });
  return { digest: "off" as const };
}

// --- Flags -------------------------------------------------------------------------------------

/** The student's newest prediction made for the class, when it is at risk. */
async function currentFlag(db: Kysely<DB>, classId: string, studentId: string) {
  const p = await db
    .selectFrom("predictions")
    .select(["id", "score", "no_final_score_risk", "model_version"])
    .where("class_id", "=", classId)
    .where("user_id", "=", studentId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return p && isAtRisk(p.score, p.no_final_score_risk) ? p : undefined;
}

export const judgeFlag = aboutEnrolledStudent<
  z.output<typeof flagFeedbackWriteSchema>,
  FlagFeedback
>(alertMessages.notFlagged, async (services, actor, classId, studentId, input) => {
  const flag = await currentFlag(services.db, classId, studentId);
  if (!flag) throw conflict(alertMessages.notFlagged);
  const reason = input.reason ?? null;
  const now = services.now();
  await services.db.transaction().execute(async (tx) => {
    await tx
      .insertInto("flag_feedback")
      .values({
        teacher_id: actor.user.id,
        prediction_id: flag.id,
        class_id: classId,
        student_id: studentId,
        model_version: flag.model_version,
        judgement: input.judgement,
        reason,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(["teacher_id", "prediction_id"])
          .doUpdateSet({ judgement: input.judgement, reason, updated_at: now }),
      )
      .execute();
    // Who judged whose flag how; never the reason's text.
    await audit(tx, {
      ...who(actor, classId),
      action: "class.flag_judged",
      details: { studentId, predictionId: flag.id, judgement: input.judgement },
    });
  });
  return {
    studentId,
    predictionId: flag.id,
    modelVersion: flag.model_version,
    judgement: input.judgement,
    reason,
    updatedAt: now.toISOString(),
  };
});

/** The caller's judgements of the flags the class's students carry now. */
export async function myFlags(
  services: Services,
  actor: Actor,
  access: ClassAccess<"note">,
): Promise<{ items: FlagFeedback[] }> {
  const classId = access.record.id;
  const rows = await services.db
    .selectFrom("flag_feedback as f")
    .innerJoin("enrolments as e", (j) =>
      j.onRef("e.class_id", "=", "f.class_id").onRef("e.student_id", "=", "f.student_id"),
    )
    .select([
      "f.student_id as studentId",
      "f.prediction_id as predictionId",
      "f.model_version as modelVersion",
      "f.judgement",
      "f.reason",
      "f.updated_at as updatedAt",
    ])
    .where("f.class_id", "=", classId)
    .where("f.teacher_id", "=", actor.user.id)
    .where(({ eb, selectFrom }) =>
      eb(
        "f.prediction_id",
        "=",
        selectFrom("predictions as p")
          .select("p.id")
          .whereRef("p.class_id", "=", "f.class_id")
          .whereRef("p.user_id", "=", "f.student_id")
          .orderBy("p.created_at", "desc")
          .orderBy("p.id", "desc")
          .limit(1),
      ),
    )
    .execute();
  return { items: rows.map((r) => ({ ...r, updatedAt: iso(r.updatedAt) })) };
}

/** Per model version, how the teachers judged its flags: admins all classes, a teacher theirs. */
export async function flagSummary(services: Services, actor: Actor): Promise<FlagSummary> {
  let q = services.db
    .selectFrom("flag_feedback as f")
    .select(["f.model_version as modelVersion", "f.judgement"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .groupBy(["f.model_version", "f.judgement"]);
  if (actor.user.role !== "admin") {
    q = q.where("f.class_id", "in", (eb) =>
      eb.selectFrom("class_teachers").select("class_id").where("teacher_id", "=", actor.user.id),
    );
  }
  const rows = await q.execute();
  const byVersion = new Map<string, Record<(typeof flagJudgements)[number], number>>();
  for (const r of rows) {
    const counts = byVersion.get(r.modelVersion) ?? {
      acknowledged: 0,
      not_useful: 0,
      incorrect: 0,
    };
    counts[r.judgement] = Number(r.n);
    byVersion.set(r.modelVersion, counts);
  }
  return {
    versions: [...byVersion.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([modelVersion, c]) => {
        const judged = flagJudgements.reduce((sum, j) => sum + c[j], 0);
        return {
          modelVersion,
          judged,
          acknowledged: c.acknowledged,
          notUseful: c.not_useful,
          incorrect: c.incorrect,
          usefulShare: judged === 0 ? null : c.acknowledged / judged,
        };
      }),
  };
}

// --- Plans -------------------------------------------------------------------------------------

const planColumns = [
  "p.id",
  "p.class_id as classId",
  "p.student_id as studentId",
  "s.name as studentName",
  "p.owner_id as ownerId",
  "o.name as ownerName",
  "p.tier",
  "p.goal",
  "p.created_at as createdAt",
  "p.closed_at as closedAt",
  "p.outcome",
] as const;

function plansQuery(db: Kysely<DB>, classId: string) {
  return db
    .selectFrom("intervention_plans as p")
    .innerJoin("users as s", "s.id", "p.student_id")
    .leftJoin("users as o", "o.id", "p.owner_id")
    .select(planColumns)
    .select(day("p.review_on").as("reviewOn"))
    .where("p.class_id", "=", classId);
}

type PlanRow = Awaited<ReturnType<ReturnType<typeof plansQuery>["executeTakeFirstOrThrow"]>>;

function toPlan(r: PlanRow, today: string): Plan {
  return {
    id: r.id,
    classId: r.classId,
    student: { id: r.studentId, name: r.studentName },
    owner: r.ownerId && r.ownerName ? { id: r.ownerId, name: r.ownerName } : null,
    tier: r.tier,
    goal: r.goal,
    reviewOn: r.reviewOn,
    overdue: r.closedAt === null && r.reviewOn < today,
    createdAt: iso(r.createdAt),
    closedAt: r.closedAt ? iso(r.closedAt) : null,
    outcome: r.outcome,
  };
}

const rank = (p: Plan) => (p.closedAt ? 2 : p.overdue ? 0 : 1);

export async function classPlans(
  services: Services,
  access: ClassAccess<"note">,
): Promise<{ items: Plan[] }> {
  const today = services.now().toISOString().slice(0, 10);
  const rows = await plansQuery(services.db, access.record.id).execute();
  const items = rows
    .map((r) => toPlan(r, today))
    .sort(
      (a, b) =>
        rank(a) - rank(b) ||
        a.reviewOn.localeCompare(b.reviewOn) ||
        a.createdAt.localeCompare(b.createdAt),
    );
  return { items };
}

async function assertOwner(db: Kysely<DB>, classId: string, ownerId: string) {
  const row = isId(ownerId)
    ? await db
        .selectFrom("class_teachers")
        .select("teacher_id")
        .where("class_id", "=", classId)
        .where("teacher_id", "=", ownerId)
        .executeTakeFirst()
    : undefined;
  if (!row)
    throw invalid(alertMessages.ownerNotTeacher, { ownerId: alertMessages.ownerNotTeacher });
}

async function planById(services: Services, classId: string, planId: string) {
  const row = isId(planId)
    ? await plansQuery(services.db, classId).where("p.id", "=", planId).executeTakeFirst()
    : undefined;
  if (!row) throw notFound(alertMessages.planNotFound);
  return toPlan(row, services.now().toISOString().slice(0, 10));
}

/** A new plan; audited with who, for whom and when, never its goal. */
export const createPlan = aboutEnrolledStudent<z.output<typeof planCreateSchema>, Plan>(
  alertMessages.planNotFound,
  async (services, actor, classId, studentId, input) => {
    await assertOwner(services.db, classId, input.ownerId);
    const id = await services.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto("intervention_plans")
        .values({
          class_id: classId,
          student_id: studentId,
          owner_id: input.ownerId,
          tier: input.tier,
          goal: input.goal,
          review_on: input.reviewOn,
          created_by: actor.user.id,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await audit(tx, {
        ...who(actor, classId),
        action: "class.plan_created",
        details: { planId: row.id, studentId, tier: input.tier, ownerId: input.ownerId },
      });
      return row.id;
    });
    return planById(services, classId, id);
  },
);

/** Changes an open plan or closes it; audited with which fields changed, never their text. */
export async function updatePlan(
  services: Services,
  actor: Actor,
  access: ClassAccess<"note">,
  planId: string,
  input: z.output<typeof planUpdateSchema>,
): Promise<Plan> {
  const classId = access.record.id;
  const plan = await planById(services, classId, planId);
  if (plan.closedAt) throw conflict(alertMessages.planClosed);
  if (input.ownerId !== undefined) await assertOwner(services.db, classId, input.ownerId);
  const now = services.now();
  const changed = Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined);
  await services.db.transaction().execute(async (tx) => {
    await tx
      .updateTable("intervention_plans")
      .set({
        ...(input.tier !== undefined ? { tier: input.tier } : {}),
        ...(input.ownerId !== undefined ? { owner_id: input.ownerId } : {}),
        ...(input.goal !== undefined ? { goal: input.goal } : {}),
        ...(input.reviewOn !== undefined ? { review_on: input.reviewOn } : {}),
        ...(input.outcome !== undefined ? { outcome: input.outcome, closed_at: now } : {}),
        updated_at: now,
      })
      .where("id", "=", plan.id)
      .execute();
    await audit(tx, {
      ...who(actor, classId),
      action: input.outcome !== undefined ? "class.plan_closed" : "class.plan_changed",
      details: { planId: plan.id, studentId: plan.student.id, fields: changed },
    });
  });
  return planById(services, classId, plan.id);
}
