import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// Asking for long work: a row in `jobs` (migration 0025), written in the caller's transaction so
// that the work is asked for exactly when the change that needs it commits. At most one job of a
// kind and key waits at a time: asking again while it waits adds nothing (the job reads the
// current state when it runs, so one run covers every change made before it starts).

export interface JobRequest {
  kind: string;
  /** What the job is about (a class id, a model version); one waiting job per kind and key. */
  key?: string;
  payload?: Record<string, unknown>;
  /** The person who asked, who sees its progress. */
  createdBy?: string | null;
}

/**
 * "queued" after each enqueue in this process: the runners look for due jobs at once instead of
 * at their next poll (a job enqueued in a transaction is seen once it commits; the poll catches
 * one the first look missed).
 */
export const jobSignals = new EventEmitter();
jobSignals.setMaxListeners(0);

/** Queues the job unless one of the same kind and key already waits; its id, or the waiting one's. */
export async function enqueueJob(db: Kysely<DB>, job: JobRequest): Promise<string> {
  const key = job.key ?? "";
  const inserted = await db
    .insertInto("jobs")
    .values({
      kind: job.kind,
      key,
      payload: JSON.stringify(job.payload ?? {}),
      created_by: job.createdBy ?? null,
    })
    .onConflict((oc) => oc.columns(["kind", "key"]).where("state", "=", "queued").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) {
    // After this statement (and, in a transaction, after the caller's next await).
    setImmediate(() => jobSignals.emit("queued"));
    return inserted.id;
  }
  const waiting = await db
    .selectFrom("jobs")
    .select("id")
    .where("kind", "=", job.kind)
    .where("key", "=", key)
    .where("state", "=", "queued")
    .executeTakeFirst();
  // The waiting job started between the two statements: ask again (it now covers nothing new).
  return waiting?.id ?? enqueueJob(db, job);
}

/** Job kinds, one name each. */
export const jobKinds = {
  /** Recompute the stale predictions of one class (key: the class id) or of all (key: "all"). */
  recomputePredictions: "predictions.recompute",
  /** Train a candidate model on the school's outcomes (key: "school"; issue 30). */
  trainModel: "model.train",
  /** Write the digests whose period ended to the mail outbox (issue 32). */
  planDigests: "digest.plan",
  /** Send the mail outbox's pending rows. */
  sendMail: "mail.send",
} as const;

/** A claimed job as its handler sees it. */
export interface ClaimedJob {
  id: string;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  createdBy: string | null;
  attempts: number;
}

/**
 * What a handler gets: the job, and `progress`, which records how far it is (shown to the person
 * who asked) and renews the job's lease. A handler must be safe to run again from the start: a
 * job whose instance died is run again once its lease expires.
 */
export interface JobContext {
  job: ClaimedJob;
  progress(done: number, total: number): Promise<void>;
  /** True once the instance is stopping: a long handler returns early (the job runs again). */
  stopping(): boolean;
}

export type JobHandler = (context: JobContext) => Promise<void>;
