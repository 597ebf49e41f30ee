import { type Kysely, sql } from "kysely";
import type { DB } from "../db/schema.ts";

// The predictions table: each stored prediction keeps its answers, its score and the version of
// the model that made it.

export interface StoredPrediction {
  id: string;
  userId: string;
  createdAt: Date;
  inputs: unknown;
  score: number;
  rawScore: number;
  intervalLow: number;
  intervalHigh: number;
  extrapolation: boolean;
  modelVersion: string;
}

export interface NewPrediction {
  userId: string;
  inputs: unknown;
  score: number;
  rawScore: number;
  intervalLow: number;
  intervalHigh: number;
  extrapolation: boolean;
  modelVersion: string;
}

export async function insertPrediction(
  db: Kysely<DB>,
  p: NewPrediction,
): Promise<{ id: string; createdAt: Date }> {
  const row = await db
    .insertInto("predictions")
    .values({
      user_id: p.userId,
      inputs: JSON.stringify(p.inputs),
      score: p.score,
      raw_score: p.rawScore,
      interval_low: p.intervalLow,
      interval_high: p.intervalHigh,
      extrapolation: p.extrapolation,
      model_version: p.modelVersion,
    })
    .returning("id")
    .returning(sql<Date>`created_at`.as("createdAt"))
    .executeTakeFirstOrThrow();
  return { id: row.id, createdAt: new Date(row.createdAt) };
}

/** Predictions newest first: one user's, or everyone's when userId is undefined. */
export async function listPredictions(
  db: Kysely<DB>,
  options: { userId: string | undefined; limit: number },
): Promise<StoredPrediction[]> {
  const rows = await db
    .selectFrom("predictions")
    .select([
      "id",
      "user_id as userId",
      "inputs",
      "score",
      "raw_score as rawScore",
      "interval_low as intervalLow",
      "interval_high as intervalHigh",
      "extrapolation",
      "model_version as modelVersion",
    ])
    .select(sql<Date>`created_at`.as("createdAt"))
    .$if(options.userId !== undefined, (q) => q.where("user_id", "=", options.userId!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    inputs: typeof r.inputs === "string" ? JSON.parse(r.inputs) : r.inputs,
    createdAt: new Date(r.createdAt),
  }));
}
