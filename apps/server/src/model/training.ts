import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { JobHandler } from "../jobs/queue.ts";
import { once } from "../memo.ts";
import type { Services } from "../services.ts";
import { schoolOutcomeRows, trainingRows } from "./outcomes.ts";
import {
  defaultTrainSettings,
  type TrainOutcome,
  type TrainSettings,
  type TrainTask,
} from "./train-task.ts";

// The handler of "model.train" (issue 30): the school's outcome rows and the model in use go to
// a worker thread (train-worker.mjs) at a lower CPU priority than the event loop, which keeps
// answering; its steps become the job's progress. The candidate is stored with its gate report:
// `candidate` when the gate passes it, `refused` otherwise. Running it again (a retry after a
// crash) trains again from the start; the same rows give the same artifact, stored once.

/** One thread, made for a training and gone a minute after. */
const pool = once(
  () =>
    new Piscina({
      filename: new URL("./train-worker.mjs", import.meta.url).href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 60_000,
      niceIncrement: 10,
    }),
);

/** The seed of every training: the same outcomes give the same candidate. */
const SEED = 20080401;

export function trainModel(services: Services): JobHandler {
  return async (context) => {
    const current = await services.models.refresh(true);
    const school = await schoolOutcomeRows(services.db);
    const settings: TrainSettings = { ...defaultTrainSettings, ...services.modelTraining };
    const channel = new MessageChannel();
    let last = 0;
    channel.port2.on("message", ({ done, total }: { done: number; total: number }) => {
      // a step every second or so; the runner renews the lease on its own
      if (done === last && done !== 0) return;
      last = done;
      context.progress(done, total).catch(() => {});
    });
    const task: TrainTask = {
      dataDir: services.config.modelDataDir,
      files: services.models.shipped.artifact.data.map(({ file, sha256 }) => ({ file, sha256 })),
      // the key stays on this server: it groups a student's rows in the cross-validation
      school: trainingRows(school),
      current: current.artifact,
      minOutcomes: services.config.modelMinOutcomes,
      seed: SEED,
      settings,
      port: channel.port1,
    };
    // the instance stopping ends the thread's work: the job runs again elsewhere, from the start
    const abort = new AbortController();
    const watch = setInterval(() => {
      if (context.stopping()) abort.abort();
    }, 250);
    let out: TrainOutcome;
    try {
      out = (await pool().run(task, {
        transferList: [channel.port1],
        signal: abort.signal,
      })) as TrainOutcome;
    } finally {
      clearInterval(watch);
      channel.port2.close();
    }
    await services.db
      .insertInto("model_versions")
      .values({
        id: out.artifact.modelVersion,
        artifact: JSON.stringify(out.artifact),
        state: out.report.promotable ? "candidate" : "refused",
        gate_report: JSON.stringify(out.report),
        weights: JSON.stringify(out.weights),
        outcomes: school.length,
        job_id: context.job.id,
        created_by: context.job.createdBy,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  };
}
