import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";
import type { ClaimedJob } from "./queue.ts";

// The jobs table's SQL (migration 0025), for the runner and the job-status route. Times are the
// database's (now()): every instance compares leases against the same clock.

/** Any number for pg_advisory_xact_lock, the same in every instance: "jobs" in ASCII. */
const claimLock = 0x6a6f6273;

/**
 * Claims the oldest due job of one of `kinds`: a queued job whose run_after has come, or a
 * running one whose lease expired (its instance died). A job whose kind and key has another job
 * running under a live lease waits. Claims are one at a time across instances (a transaction
 * lock), so the check against running jobs reads every claim committed before it; SKIP LOCKED
 * passes over a row another statement holds (an enqueue, a lease renewal).
 */
export async function claimJob(
  db: Kysely<DB>,
  options: { kinds: readonly string[]; instance: string; leaseMs: number },
): Promise<ClaimedJob | undefined> {
  if (options.kinds.length === 0) return undefined;
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${claimLock})`.execute(tx);
    const result = await sql<{
      id: string;
      kind: string;
      key: string;
      payload: unknown;
      created_by: string | null;
      attempts: number;
    }>`
      update jobs set
        state = 'running',
        locked_by = ${options.instance},
        locked_until = now() + ${options.leaseMs} * interval '1 millisecond',
        started_at = coalesce(started_at, now()),
        attempts = attempts + 1
      where id = (
        select j.id from jobs j
        where ((j.state = 'queued' and j.run_after <= now())
               or (j.state = 'running' and j.locked_until < now()))
          and j.kind in (${sql.join(options.kinds)})
          and not exists (
            select 1 from jobs o
            where o.kind = j.kind and o.key = j.key and o.id <> j.id
              and o.state = 'running' and o.locked_until >= now())
        order by j.run_after, j.created_at
        limit 1
        for update skip locked)
      returning id, kind, key, payload, created_by, attempts`.execute(tx);
    const row = result.rows[0];
    if (!row) return undefined;
    const payload =
      typeof row.payload === "string" ? (JSON.parse(row.payload) as unknown) : row.payload;
    return {
      id: row.id,
      kind: row.kind,
      key: row.key,
      payload: (payload ?? {}) as Record<string, unknown>,
      createdBy: row.created_by,
      attempts: Number(row.attempts),
    };
  });
}

/**
 * Records progress and renews the lease, while this instance still holds the job; false when it
 * no longer does (its lease ran out and another instance took the job over).
 */
export async function renewJob(
  db: Kysely<DB>,
  id: string,
  instance: string,
  leaseMs: number,
  progress?: { done: number; total: number | null },
): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set({
      locked_until: sql`now() + ${leaseMs} * interval '1 millisecond'`,
      ...(progress ? { progress_done: progress.done, progress_total: progress.total } : {}),
    })
    .where("id", "=", id)
    .where("locked_by", "=", instance)
    .where("state", "=", "running")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The handler finished: done. */
export async function finishJob(db: Kysely<DB>, id: string, instance: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set({
      state: "done",
      finished_at: sql`now()`,
      locked_by: null,
      locked_until: null,
      error: null,
    })
    .where("id", "=", id)
    .where("locked_by", "=", instance)
    .where("state", "=", "running")
    .execute();
}

/**
 * The handler threw: queued again after `retryInMs`, or failed once it has had its attempts.
 * A job of the same kind and key already waiting covers the retry (it reads the current state
 * when it runs), so this one fails instead of waiting beside it (one waiting job per kind+key).
 */
export async function failJob(
  db: Kysely<DB>,
  id: string,
  instance: string,
  error: string,
  retryInMs: number | null,
): Promise<void> {
  await sql`
    update jobs j set
      state = case
        when ${retryInMs === null} or exists (
          select 1 from jobs w where w.kind = j.kind and w.key = j.key and w.state = 'queued')
        then 'failed' else 'queued' end,
      run_after = now() + ${retryInMs ?? 0} * interval '1 millisecond',
      finished_at = case
        when ${retryInMs === null} or exists (
          select 1 from jobs w where w.kind = j.kind and w.key = j.key and w.state = 'queued')
        then now() else null end,
      locked_by = null,
      locked_until = null,
      error = ${error}
    where j.id = ${id} and j.locked_by = ${instance} and j.state = 'running'`.execute(db);
}

/**
 * The instance stops before the handler finished: the lease ends now, so that any instance takes
 * the job over at once; the interrupted run does not count as an attempt.
 */
export async function releaseJob(db: Kysely<DB>, id: string, instance: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ locked_until: sql`now() - interval '1 millisecond'`, attempts: sql`attempts - 1` })
    .where("id", "=", id)
    .where("locked_by", "=", instance)
    .where("state", "=", "running")
    .execute();
}

/** Deletes done jobs finished more than `days` ago; how many. */
export async function deleteOldJobs(db: Kysely<DB>, days: number): Promise<number> {
  const result = await db
    .deleteFrom("jobs")
    .where("state", "=", "done")
    .where("finished_at", "<", sql<Date>`now() - ${days} * interval '1 day'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One job as its status page shows it. */
export async function jobById(db: Kysely<DB>, id: string) {
  return db
    .selectFrom("jobs")
    .select([
      "id",
      "kind",
      "state",
      "progress_done",
      "progress_total",
      "created_by",
      "created_at",
      "started_at",
      "finished_at",
      "error",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
}
