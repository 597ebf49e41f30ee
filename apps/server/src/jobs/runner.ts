import { randomUUID } from "node:crypto";
import os from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import type { ClaimedJob, JobHandler } from "./queue.ts";
import { jobSignals } from "./queue.ts";
import { claimJob, deleteOldJobs, failJob, finishJob, releaseJob, renewJob } from "./repository.ts";

// Each server instance runs one loop that claims one due job at a time (repository.ts
// `claimJob`), runs the handler registered for its kind, and records the outcome. A job is held
// by a lease that the running handler keeps renewing: an instance that dies stops renewing it,
// and once it expires another instance (or this one after a restart) runs the job again from
// the start. A handler that throws is retried after a growing pause, up to `maxAttempts`.

export interface JobRunnerOptions {
  db: Kysely<DB>;
  log: FastifyBaseLogger;
  /** How long a claim holds a job without being renewed. */
  leaseMs?: number;
  /** How often an idle loop looks for due jobs (an enqueue in this process wakes it at once). */
  pollMs?: number;
  /** Runs before a job fails for good. */
  maxAttempts?: number;
  /** The pause before the first retry; each next one doubles, up to an hour. */
  retryBaseMs?: number;
  /** How long `stop` waits for a running handler before leaving its job to the lease. */
  stopWaitMs?: number;
  /** Done jobs are deleted this many days after they finished. */
  keepDoneDays?: number;
  /** This instance's name in `locked_by`. */
  instance?: string;
}

export interface JobRunner {
  /** This instance's name, as `locked_by` holds it. */
  readonly instance: string;
  /** Starts the loop with the handlers by kind; only these kinds are claimed here. */
  start(handlers: Readonly<Record<string, JobHandler>>): void;
  /** Looks for due jobs now (after a job was queued and committed). */
  wake(): void;
  /**
   * Resolves once this instance finds no due job it can run (nothing running here): for tests
   * and scripts, instead of waiting on the clock. Resolves at once when the loop is not running.
   */
  idle(): Promise<void>;
  /** Stops the loop; waits for a running handler up to `stopWaitMs`, else leaves it to its lease. */
  stop(): Promise<void>;
}

const hourMs = 3_600_000;
/** A stored error message is short: the first line of what the handler threw. */
const errorChars = 500;

/** The message a person may read about a failed run: the error's first line, never a stack. */
export function errorText(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.split("\n", 1)[0]?.trim() ?? "";
  return (line || "The job failed.").slice(0, errorChars);
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryBaseMs = options.retryBaseMs ?? 5_000;
  const stopWaitMs = options.stopWaitMs ?? 10_000;
  const keepDoneDays = options.keepDoneDays ?? 7;
  const instance =
    options.instance ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  let handlers: Readonly<Record<string, JobHandler>> = {};
  let running = false;
  let stopping = false;
  let loopDone: Promise<void> = Promise.resolve();
  let current: Promise<void> | null = null;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  /** Passes of the loop so far; a waiter of `idle` wants a pass begun after it asked. */
  let passes = 0;
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  let lastCleanup = 0;
  /** Set when `stop` gave up waiting: the handler's job is left to its lease, untouched. */
  let abandoned = false;

  const onQueued = () => wake();

  function wake() {
    woken = true;
    wakeUp?.();
  }

  function settleIdle(pass: number) {
    const ready = idleWaiters.filter((w) => w.after < pass);
    idleWaiters = idleWaiters.filter((w) => w.after >= pass);
    for (const w of ready) w.resolve();
  }

  function pause(ms: number): Promise<void> {
    if (woken || stopping) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function cleanUp() {
    const now = Date.now();
    if (now - lastCleanup < hourMs) return;
    lastCleanup = now;
    try {
      const deleted = await deleteOldJobs(db, keepDoneDays);
      if (deleted > 0) log.info({ deleted }, "old done jobs deleted");
    } catch (err) {
      log.warn({ err }, "deleting old jobs failed");
    }
  }

  async function run(job: ClaimedJob, handler: JobHandler) {
    let lost = false;
    const renew = async (progress?: { done: number; total: number | null }) => {
      if (lost || abandoned) return;
      const held = await renewJob(db, job.id, instance, leaseMs, progress);
      if (!held) {
        lost = true;
        log.warn({ job: job.id, kind: job.kind }, "job lease lost: another instance took it over");
      }
    };
    // The lease is renewed while the handler runs, even between its progress reports.
    const heartbeat = setInterval(
      () => {
        renew().catch((err) => log.warn({ err, job: job.id }, "job lease renewal failed"));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref?.();
    try {
      if (job.attempts > maxAttempts) {
        // Claimed again after instances died running it each time: it does not get another go.
        await failJob(db, job.id, instance, "The job stopped too many times.", null);
        return;
      }
      try {
        await handler({
          job,
          progress: (done, total) => renew({ done, total }),
          stopping: () => stopping || lost,
        });
      } catch (error) {
        clearInterval(heartbeat);
        if (lost || abandoned) return;
        const last = job.attempts >= maxAttempts;
        log.warn(
          { err: error, job: job.id, kind: job.kind, attempt: job.attempts, last },
          "job failed",
        );
        const retryIn = last ? null : Math.min(hourMs, retryBaseMs * 2 ** (job.attempts - 1));
        await failJob(db, job.id, instance, errorText(error), retryIn);
        return;
      }
      clearInterval(heartbeat);
      if (lost || abandoned) return;
      // Returned because the instance is stopping: the job runs again, from the start.
      if (stopping) await releaseJob(db, job.id, instance);
      else await finishJob(db, job.id, instance);
    } catch (err) {
      log.error({ err, job: job.id }, "recording a job's outcome failed");
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function loop() {
    while (!stopping) {
      const pass = ++passes;
      let job: ClaimedJob | undefined;
      try {
        job = await claimJob(db, { kinds: Object.keys(handlers), instance, leaseMs });
      } catch (err) {
        if (stopping) break;
        log.warn({ err }, "claiming a job failed");
      }
      if (stopping) {
        if (job) await releaseJob(db, job.id, instance).catch(() => {});
        break;
      }
      const handler = job ? handlers[job.kind] : undefined;
      if (job && handler) {
        current = run(job, handler);
        await current;
        current = null;
        continue;
      }
      settleIdle(pass);
      await cleanUp();
      await pause(pollMs);
    }
    settleIdle(Number.POSITIVE_INFINITY);
  }

  return {
    instance,
    start(byKind) {
      if (running) return;
      handlers = { ...byKind };
      running = true;
      jobSignals.on("queued", onQueued);
      loopDone = loop().catch((err) => log.error({ err }, "the job loop stopped"));
    },
    wake,
    idle() {
      if (!running || stopping) return Promise.resolve();
      const after = passes;
      const waiting = new Promise<void>((resolve) => {
        idleWaiters.push({ after, resolve });
      });
      wake();
      return waiting;
    },
    async stop() {
      if (!running) return;
      stopping = true;
      jobSignals.off("queued", onQueued);
      wakeUp?.();
      const handler = current;
      if (handler) {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => {
          timer = setTimeout(() => resolve("late"), stopWaitMs);
        });
        const outcome = await Promise.race([handler.then(() => "done" as const), late]);
        clearTimeout(timer);
        if (outcome === "late") {
          abandoned = true;
          log.warn("a job was still running at stop: it runs again once its lease expires");
          settleIdle(Number.POSITIVE_INFINITY);
          return;
        }
      }
      await loopDone;
    },
  };
}
