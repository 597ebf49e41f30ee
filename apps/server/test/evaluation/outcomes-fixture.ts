import { sql } from "kysely";
import type { TestApp } from "../support/helpers.ts";

// Outcomes and the predictions made before them, written directly with SQL as the gradebook and
// the predictions would write them, so the evaluation's tests and benchmark depend on neither.

export interface OutcomeRow {
  classId: string;
  studentId: string;
  /** The final grade; null with sat false: did not sit. */
  g3: number | null;
  sat: boolean | null;
  at: Date;
}

export async function insertOutcome(t: TestApp, o: OutcomeRow): Promise<void> {
  await t.database.db
    .insertInto("school_records")
    .values({
      class_id: o.classId,
      student_id: o.studentId,
      g3: o.g3,
      sat: o.sat,
      outcome_at: o.at,
    })
    .execute();
}

export interface PredictionRow {
  classId: string;
  studentId: string;
  setup: "A" | "B" | "C";
  score: number;
  scoreIfSits: number;
  risk: number;
  low: number;
  high: number;
  at: Date;
  inputs?: { sex?: string; age?: number; address?: string };
}

export async function insertPredictions(t: TestApp, rows: PredictionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await t.database.db
      .insertInto("predictions")
      .values(
        rows.slice(i, i + 500).map((p) => ({
          user_id: p.studentId,
          class_id: p.classId,
          inputs: JSON.stringify({ sex: "F", age: 16, address: "U", ...p.inputs }),
          score: p.score,
          raw_score: p.score,
          interval_low: p.low,
          interval_high: p.high,
          extrapolation: false,
          model_version: "test",
          model_setup: p.setup,
          score_if_sits: p.scoreIfSits,
          no_final_score_risk: p.risk,
          created_at: sql`${p.at.toISOString()}::timestamptz`,
          made_by: "school" as const,
        })),
      )
      .execute();
  }
}
