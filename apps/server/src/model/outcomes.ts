import { FEATURES, type OutcomeRow } from "@gradecast/model";
import type { Kysely } from "kysely";
import { predictionsBeforeOutcomes } from "../db/predictions.ts";
import type { DB } from "../db/schema.ts";
import { outcomesOf } from "../db/school-records.ts";

// The school's outcomes as training rows (issue 30): each recorded outcome (school_records)
// with, per setup, the newest prediction made for that class before the outcome was recorded,
// whose stored inputs are exactly what the model saw at that stage (the record overlaid, the
// class's subject). A student who did not sit the final counts as G3 = 0, as in the UCI files.

export interface SchoolOutcome extends OutcomeRow {
  studentId: string;
}

const text = (v: unknown): string | null =>
  v === null || v === undefined || v === "" ? null : String(v);

/**
 * `key` names the student for the cross-validation's grouping (their rows stay in one fold);
 * the export replaces it by a pseudonym.
 */
export async function schoolOutcomeRows(db: Kysely<DB>): Promise<SchoolOutcome[]> {
  const outcomes = await outcomesOf(db, undefined);
  const predictions = await predictionsBeforeOutcomes(db, outcomes);
  const byKey = new Map(outcomes.map((o) => [`${o.classId}:${o.studentId}`, o]));
  const rows: SchoolOutcome[] = [];
  for (const p of predictions) {
    const outcome = byKey.get(`${p.classId}:${p.studentId}`);
    if (!outcome) continue;
    const input = Object.fromEntries(FEATURES.map((f) => [f, text(p.inputs[f])])) as Record<
      string,
      string | null
    >;
    input.subject = outcome.subject;
    const g3 = outcome.sat ? (outcome.g3 ?? 0) : 0;
    rows.push({
      key: p.studentId,
      studentId: p.studentId,
      subject: outcome.subject,
      stage: p.setup,
      g3,
      input,
    });
  }
  return rows;
}

/**
 * The rows as the learner takes them. With no school configured (MODEL_SCHOOL unset) the model
 * answers as the average of its two schools, so such a row trains as both (one copy each).
 */
export function trainingRows(rows: readonly SchoolOutcome[]): OutcomeRow[] {
  return rows.flatMap(({ studentId: _, ...row }) =>
    row.input.school === null
      ? [
          { ...row, input: { ...row.input, school: "GP" } },
          { ...row, input: { ...row.input, school: "MS" } },
        ]
      : [row],
  );
}
