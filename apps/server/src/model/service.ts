import type { JobStatus } from "@gradecast/contract/jobs";
import {
  type GateReportView,
  type ModelState,
  type ModelVersionView,
  modelMessages,
} from "@gradecast/contract/model-lifecycle";
import { type OutcomeRow, outcomesCsv } from "@gradecast/model";
import type { Selectable } from "kysely";
import { audit, who } from "../audit/audit.ts";
import type { Actor } from "../auth/actor.ts";
import type { ModelVersionsTable } from "../db/schema.ts";
import { conflict, notFound } from "../domain-errors.ts";
import { jobStatus } from "../job-status/service.ts";
import { enqueueJob, jobKinds } from "../jobs/queue.ts";
import type { Services } from "../services.ts";
import { schoolOutcomeRows } from "./outcomes.ts";

// The model's versions (issue 30): what the admin screen shows, training a candidate, promotion
// and rollback. Switching the version in use is one transaction: the previous active row is
// retired, the chosen one made active, the change audited and the recomputation of every stored
// prediction queued; every instance then reads the new active row within a few seconds.

type VersionRow = Selectable<ModelVersionsTable>;

const parsed = <T>(v: unknown): T | null =>
  v === null || v === undefined ? null : ((typeof v === "string" ? JSON.parse(v) : v) as T);
const iso = (at: unknown) =>
  at === null || at === undefined ? null : new Date(at as string).toISOString();

function view(row: VersionRow, shippedId: string): ModelVersionView {
  return {
    id: row.id,
    state: row.state,
    shipped: row.id === shippedId,
    createdAt: row.id === shippedId ? null : iso(row.created_at),
    promotedAt: iso(row.promoted_at),
    outcomes: row.outcomes,
    weights: (parsed<ModelVersionView["weights"]>(row.weights) ?? []).map(
      ({ setup, weight, rows }) => ({ setup, weight, rows }),
    ),
    gate: parsed<GateReportView>(row.gate_report),
  };
}

/** Every version, the shipped one included (a row of its own once it was switched away from). */
async function versions(services: Services): Promise<VersionRow[]> {
  const rows = await services.db
    .selectFrom("model_versions")
    .selectAll()
    .orderBy("created_at", "desc")
    .execute();
  const shippedId = services.models.shipped.version;
  if (rows.some((r) => r.id === shippedId)) return rows;
  const active = rows.some((r) => r.state === "active");
  return [
    ...rows,
    {
      id: shippedId,
      artifact: null,
      state: active ? "retired" : "active",
      gate_report: null,
      weights: null,
      outcomes: 0,
      job_id: null,
      created_at: new Date(0),
      created_by: null,
      promoted_at: null,
      promoted_by: null,
    },
  ];
}

/** The card's figures from an artifact's evaluation entries (the model card's tables). */
function card(evaluation: readonly Record<string, unknown>[]): ModelState["card"] {
  const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
  return evaluation.flatMap((e) => {
    if (typeof e.setup !== "string" || typeof e.subject !== "string") return [];
    const rmseSat = e.rmseSat as { mean?: unknown } | undefined;
    const risk = e.noFinalScoreRisk as { brier?: unknown } | undefined;
    return [
      {
        subject: e.subject,
        setup: e.setup,
        protocol: typeof e.protocol === "string" ? e.protocol : "",
        rmseSat: num(rmseSat?.mean),
        brier: num(risk?.brier),
        coverage: num(e.intervalCoverage),
      },
    ];
  });
}

async function runningTraining(services: Services) {
  return services.db
    .selectFrom("jobs")
    .select(["id", "progress_done", "progress_total"])
    .where("kind", "=", jobKinds.trainModel)
    .where("state", "in", ["queued", "running"])
    .orderBy("created_at")
    .executeTakeFirst();
}

/** Outcome rows per subject and setup: a student counted once per setup (rowsForSetup's rule). */
function outcomeCounts(rows: readonly OutcomeRow[]) {
  const out: ModelState["outcomes"] = [];
  const students: Record<string, number> = { mat: 0, por: 0 };
  for (const subject of ["mat", "por"] as const) {
    const mine = rows.filter((r) => r.subject === subject);
    students[subject] = new Set(mine.map((r) => r.key)).size;
    for (const setup of ["A", "B", "C"] as const) {
      // a row serves its own stage and every coarser one
      const serves = (s: string) => (setup === "C" ? true : setup === "B" ? s !== "C" : s === "A");
      out.push({
        subject,
        setup,
        rows: new Set(mine.filter((r) => serves(r.stage)).map((r) => r.key)).size,
      });
    }
  }
  return { outcomes: out, students };
}

export async function modelState(services: Services, actor: Actor): Promise<ModelState> {
  const model = await services.models.refresh();
  const shippedId = services.models.shipped.version;
  const rows = await versions(services);
  const active =
    rows.find((r) => r.id === model.version) ?? rows.find((r) => r.state === "active")!;
  const school = await schoolOutcomeRows(services.db);
  const running = await runningTraining(services);
  return {
    active: view(active, shippedId),
    card: card(services.models.shipped.artifact.evaluation),
    minOutcomes: services.config.modelMinOutcomes,
    ...outcomeCounts(school),
    training: running ? await jobStatus(services, actor, running.id) : null,
    versions: rows.map((r) => view(r, shippedId)),
  };
}

/** Queues a training; 409 naming the queued or running one while there is one. */
export async function requestTraining(services: Services, actor: Actor): Promise<JobStatus> {
  const running = await runningTraining(services);
  if (running) {
    const progress =
      running.progress_total === null
        ? "not started yet"
        : `${running.progress_done} of ${running.progress_total} steps done`;
    throw conflict(`${modelMessages.trainingRunning} (${progress}).`, { job: running.id });
  }
  const id = await services.db.transaction().execute(async (tx) => {
    const jobId = await enqueueJob(tx, {
      kind: jobKinds.trainModel,
      key: "school",
      createdBy: actor.user.id,
    });
    await audit(tx, { ...who(actor, null), action: "model.train", details: { job: jobId } });
    return jobId;
  });
  return jobStatus(services, actor, id);
}

type Switch = "promote" | "rollback";

/** Puts a version in use: a promotable candidate (promote) or an earlier version (rollback). */
export async function switchVersion(
  services: Services,
  actor: Actor,
  versionId: string,
  how: Switch,
): Promise<{ active: ModelVersionView; recomputeJob: string }> {
  const shippedId = services.models.shipped.version;
  const result = await services.db.transaction().execute(async (tx) => {
    // the shipped version gets a row of its own the first time it is switched away from
    await tx
      .insertInto("model_versions")
      .values({ id: shippedId, artifact: null, state: "retired", created_at: new Date(0) })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const rows = await tx.selectFrom("model_versions").selectAll().forUpdate().execute();
    const target = rows.find((r) => r.id === versionId);
    if (!target) throw notFound();
    const active = rows.find((r) => r.state === "active");
    const fromId = active?.id ?? shippedId;
    if (fromId === versionId) throw conflict(modelMessages.alreadyActive);
    if (how === "promote") {
      if (target.state === "refused") throw conflict(modelMessages.notPromotable);
      if (target.state !== "candidate") throw conflict(modelMessages.notCandidate);
    } else {
      const earlier = target.id === shippedId || target.promoted_at !== null;
      if (target.state !== "retired" || !earlier) throw conflict(modelMessages.notEarlier);
    }
    if (active) {
      await tx
        .updateTable("model_versions")
        .set({ state: "retired" })
        .where("id", "=", active.id)
        .execute();
    }
    const now = services.now();
    const updated = await tx
      .updateTable("model_versions")
      .set({ state: "active", promoted_at: now, promoted_by: actor.user.id })
      .where("id", "=", versionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const recomputeJob = await enqueueJob(tx, {
      kind: jobKinds.recomputePredictions,
      key: "all",
      createdBy: actor.user.id,
    });
    await audit(tx, {
      ...who(actor, null),
      action: how === "promote" ? "model.promote" : "model.rollback",
      details: { from: fromId, to: versionId },
    });
    return { updated, recomputeJob };
  });
  // this instance at once; the others at their next read (a few seconds)
  await services.models.refresh(true);
  return { active: view(result.updated, shippedId), recomputeJob: result.recomputeJob };
}

/** The school's outcomes in the UCI files' format, each student under a pseudonym; audited. */
export async function outcomesExport(
  services: Services,
  actor: Actor,
  pseudonym: (studentId: string) => string,
): Promise<string> {
  const rows = await schoolOutcomeRows(services.db);
  await audit(services.db, {
    ...who(actor, null),
    action: "model.outcomes_exported",
    details: { rows: rows.length },
  });
  return outcomesCsv(rows.map((r) => ({ id: pseudonym(r.studentId), input: r.input, g3: r.g3 })));
}
