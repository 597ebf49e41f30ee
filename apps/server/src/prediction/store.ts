import { randomUUID } from "node:crypto";
import type { Contribution } from "@gradecast/contract/class-risk";
import type { Kysely } from "kysely";
import { evaluateAlerts, type StoredForClass } from "../alerts/evaluate.ts";
import { groupCommit } from "../db/group-commit.ts";
import { insertPredictionRows, type NewPrediction } from "../db/predictions.ts";
import type { DB } from "../db/schema.ts";

// Stored predictions are written by group commit (db/group-commit.ts): the predictions that
// arrive together go in as one insert, and each is answered after it committed. A prediction
// made for a class moves the student's alert state there (issue 32) in the same transaction as
// the batch: a few statements a batch instead of a transaction a request, and a prediction is
// never stored without its alert, nor an alert moved by a prediction that was not stored.

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
  // No class in the batch: one statement, its own transaction.
  const saved =
    alerts.length === 0
      ? await insertPredictionRows(db, rows)
      : await db.transaction().execute(async (tx) => {
          const times = await insertPredictionRows(tx, rows);
          await evaluateAlerts(tx, alerts);
          return times;
        });
  return rows.map(({ id }) => {
    const createdAt = saved.get(id);
    if (!createdAt) throw new Error("a stored prediction was not returned");
    return { id, createdAt };
  });
}

/** Stores a prediction (and, for a class, moves its alert); resolves once committed. */
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
