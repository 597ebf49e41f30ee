import { randomUUID } from "node:crypto";
import type { Contribution } from "@gradecast/contract/class-risk";
import type { Kysely } from "kysely";
import { queueAlerts } from "../alerts/backlog.ts";
import type { StoredForClass } from "../alerts/evaluate.ts";
import { groupCommit } from "../db/group-commit.ts";
import { insertPredictionRows, type NewPrediction } from "../db/predictions.ts";
import type { DB } from "../db/schema.ts";

// Stored predictions are written by group commit (db/group-commit.ts): the predictions that
// arrive together go in as one insert, and each is answered after it committed. A prediction
// made for a class moves the student's alert state there (issue 32) once its batch has
// committed (alerts/backlog.ts): the insert statement also writes the batch's backlog row, so a
// class prediction is never stored without its alert to come, and the request waits for one
// statement, not for the alert's (issue 29).

interface ToStore {
  prediction: NewPrediction;
  /** The explanation's effects: a crossing's notification carries its school-record reasons. */
  contributions: readonly Contribution[];
}

type Writer = (item: ToStore) => Promise<{ id: string; createdAt: Date }>;
const writers = new WeakMap<Kysely<DB>, Writer>();

async function writeBatch(db: Kysely<DB>, batch: ToStore[]) {
  const rows = batch.map((item) => ({ id: randomUUID(), p: item.prediction }));
  const alerts: StoredForClass[] = [];
  batch.forEach(({ prediction: p, contributions }, i) => {
    if (p.classId == null) return;
    alerts.push({
      predictionId: rows[i]!.id,
      studentId: p.userId,
      classId: p.classId,
      score: p.score,
      noFinalScoreRisk: p.noFinalScoreRisk,
      contributions,
      recordVersion: p.recordVersion ?? null,
      madeBy: p.madeBy ?? "student",
    });
  });
  const backlog =
    alerts.length === 0
      ? undefined
      : { id: randomUUID(), predictionIds: alerts.map((a) => a.predictionId) };
  const saved = await insertPredictionRows(db, rows, backlog);
  if (backlog) queueAlerts(db, backlog.id, alerts);
  return rows.map(({ id }) => {
    const createdAt = saved.get(id);
    if (!createdAt) throw new Error("a stored prediction was not returned");
    return { id, createdAt };
  });
}

/** Stores a prediction (and, for a class, queues its alert); resolves once committed. */
export function storePrediction(
  db: Kysely<DB>,
  prediction: NewPrediction,
  contributions: readonly Contribution[] = [],
): Promise<{ id: string; createdAt: Date }> {
  let writer = writers.get(db);
  if (!writer) {
    writer = groupCommit((batch: ToStore[]) => writeBatch(db, batch), { maxBatch: 64 });
    writers.set(db, writer);
  }
  return writer({ prediction, contributions });
}
