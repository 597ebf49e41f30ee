import type { Contribution } from "@gradecast/contract/class-risk";
import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import { evaluateAlerts, type StoredForClass } from "./evaluate.ts";

// A stored prediction made for a class moves the student's alert state after its batch has
// committed (issue 29: inside the batch, the alert's statements cost an enrolled student's
// prediction a fifth of its throughput on PGlite). The batch's insert writes one `alert_backlog`
// row naming its class predictions (db/predictions.ts); the batches' alerts are then evaluated
// together, at most every `delayMs`, in one transaction that deletes their backlog rows: only
// the rows it deleted are evaluated, so an alert is moved once however many instances or sweeps
// look at it. Whoever reads what alerts write (notifications, exports, erasure) calls
// `settleAlerts` first and sees every prediction of this instance that was answered. A row left
// behind (a crash, a failed evaluation) is evaluated by `sweepAlertBacklog`, from the stored
// predictions.

interface Queued {
  backlogId: string;
  items: StoredForClass[];
}

/** How long the batches' alerts wait to be evaluated together, at the most. */
const delayMs = 100;

class FollowUp {
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  log: (err: unknown) => void = () => {};

  constructor(private readonly db: Kysely<DB>) {}

  add(queued: Queued) {
    this.queue.push(queued);
    this.schedule();
  }

  /** The next evaluation in `delayMs`, so that the batches meanwhile share it. */
  private schedule() {
    if (this.timer || this.running || this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runOnce().then(() => this.schedule());
    }, delayMs);
    this.timer.unref();
  }

  /** Evaluates what is queued now (after the evaluation running, if one is). */
  private async runOnce(): Promise<void> {
    while (this.running) await this.running;
    if (this.queue.length === 0) return;
    const taken = this.queue.splice(0);
    this.running = evaluateQueued(this.db, taken)
      .catch(this.log)
      .finally(() => {
        this.running = undefined;
      });
    await this.running;
  }

  /** Evaluates everything queued, without waiting for the timer; resolves once it is done. */
  async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    do await this.runOnce();
    while (this.queue.length > 0);
  }
}

const followUps = new WeakMap<Kysely<DB>, FollowUp>();

function followUpOf(db: Kysely<DB>): FollowUp {
  let f = followUps.get(db);
  if (!f) {
    f = new FollowUp(db);
    followUps.set(db, f);
  }
  return f;
}

/** Queues a committed batch's class predictions for their alerts (its backlog row's id). */
export function queueAlerts(db: Kysely<DB>, backlogId: string, items: StoredForClass[]): void {
  followUpOf(db).add({ backlogId, items });
}

/** Evaluates the alerts of every prediction this instance has stored so far. */
export function settleAlerts(db: Kysely<DB>): Promise<void> {
  return followUps.get(db)?.drain() ?? Promise.resolve();
}

/** Where a failed evaluation is reported (its rows stay for the sweep). */
export function onAlertError(db: Kysely<DB>, log: (err: unknown) => void): void {
  followUpOf(db).log = log;
}

async function evaluateQueued(db: Kysely<DB>, queued: Queued[]): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const claimed = await tx
      .deleteFrom("alert_backlog")
      .where(
        "id",
        "in",
        queued.map((q) => q.backlogId),
      )
      .returning("id")
      .execute();
    const mine = new Set(claimed.map((r) => r.id));
    await evaluateAlerts(
      tx,
      queued.flatMap((q) => (mine.has(q.backlogId) ? q.items : [])),
    );
  });
}

/** A class prediction as stored, for an alert evaluated from the database. */
export interface StoredClassPrediction {
  id: string;
  user_id: string;
  class_id: string;
  score: number;
  no_final_score_risk: number | null;
  record_version: number | null;
  made_by: "student" | "school";
  model_version: string;
  inputs: unknown;
  created_at: unknown;
}

/** A timestamp as a driver returns it (a Date, or text), in milliseconds. */
const msOf = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).getTime();

/**
 * Evaluates the backlog rows older than `olderThanMs` (left by a crash or a failed evaluation;
 * younger ones are an instance's own, about to be evaluated), oldest first, from the stored
 * predictions (one erased meanwhile is skipped, and so is one older than the prediction its
 * pair's state was last moved by). `contributionsOf` gives a prediction's
 * explanation for the reasons a crossing's notification carries. How many predictions it
 * evaluated.
 */
export async function sweepAlertBacklog(
  db: Kysely<DB>,
  contributionsOf: (p: StoredClassPrediction) => readonly Contribution[],
  olderThanMs: number,
): Promise<number> {
  let evaluated = 0;
  for (;;) {
    const swept = await db.transaction().execute(async (tx) => {
      // Claimed by deleting, past rows another sweep holds: each is evaluated once.
      const claimed = await tx
        .deleteFrom("alert_backlog")
        .where(
          "id",
          "in",
          tx
            .selectFrom("alert_backlog")
            .select("id")
            .where(
              "created_at",
              "<",
              sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`,
            )
            .orderBy("created_at")
            .limit(100)
            .forUpdate()
            .skipLocked(),
        )
        .returning([
          "id",
          "created_at",
          sql<string>`array_to_string(prediction_ids, ',')`.as("ids"),
        ])
        .execute();
      if (claimed.length === 0) return null;
      claimed.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
      const order = claimed.flatMap((c) => c.ids.split(",").filter(Boolean));
      const rows = await tx
        .selectFrom("predictions")
        .selectAll()
        .where("id", "in", order)
        .where("class_id", "is not", null)
        .execute();
      // A pair's state already moved by a newer prediction (evaluated live since) is not moved
      // back by an older one.
      const evaluatedUpTo = new Map(
        (rows.length === 0
          ? []
          : await tx
              .selectFrom("alert_states as s")
              .innerJoin("predictions as p", "p.id", "s.prediction_id")
              .select(["s.class_id", "s.student_id", "p.created_at"])
              .where("s.student_id", "in", [...new Set(rows.map((r) => r.user_id))])
              .execute()
        ).map((s) => [`${s.class_id} ${s.student_id}`, msOf(s.created_at)]),
      );
      const byId = new Map(rows.map((r) => [r.id, r as StoredClassPrediction]));
      const items = order.flatMap((id): StoredForClass[] => {
        const p = byId.get(id);
        if (!p) return [];
        const upTo = evaluatedUpTo.get(`${p.class_id} ${p.user_id}`);
        if (upTo !== undefined && msOf(p.created_at) < upTo) return [];
        return [
          {
            predictionId: p.id,
            studentId: p.user_id,
            classId: p.class_id,
            score: p.score,
            noFinalScoreRisk: p.no_final_score_risk,
            contributions: contributionsOf(p),
            recordVersion: p.record_version,
            madeBy: p.made_by,
          },
        ];
      });
      await evaluateAlerts(tx, items);
      return items.length;
    });
    if (swept === null) return evaluated;
    evaluated += swept;
  }
}
