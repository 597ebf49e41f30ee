import { CompiledQuery, type Kysely } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { DB } from "../db/schema.ts";
import { Memo } from "../memo.ts";

// The alert states' two statements, run once per group-commit batch (alerts/evaluate.ts). Fixed
// texts per row count, written out rather than built: building them with the query builder on
// every batch cost the server more than running them (a CPU profile of bench/api-predict).

export interface StatePair {
  classId: string;
  studentId: string;
}

export interface StoredState extends StatePair {
  atRisk: boolean;
  pending: boolean;
  predictionId: string | null;
  recordVersion: number | null;
  changedAt: Date;
}

/** `($1, $2), ($3, $4)…`: n rows of `width` parameters. */
function rowsOf(n: number, width: number): string {
  return Array.from(
    { length: n },
    (_, r) => `(${Array.from({ length: width }, (_, j) => `$${r * width + j + 1}`).join(", ")})`,
  ).join(", ");
}

const returned =
  "class_id, student_id, at_risk, pending, record_version, prediction_id, changed_at";

// A conflict's DO UPDATE locks the existing row and RETURNING gives it as it stands (the
// assignment changes nothing); a missing row is created with the defaults.
const lockTexts = new Memo<number, string>((n) =>
  prepared(
    `insert into alert_states (class_id, student_id) values ${rowsOf(n, 2)} on conflict (class_id, student_id) do update set pending = alert_states.pending returning ${returned}`,
  ),
);

const writeTexts = new Memo<number, string>((n) =>
  prepared(
    `insert into alert_states (class_id, student_id, at_risk, pending, prediction_id, record_version, changed_at) values ${rowsOf(n, 7)} on conflict (class_id, student_id) do update set at_risk = excluded.at_risk, pending = excluded.pending, prediction_id = excluded.prediction_id, record_version = excluded.record_version, changed_at = excluded.changed_at`,
  ),
);

interface StateRow {
  class_id: string;
  student_id: string;
  at_risk: boolean;
  pending: boolean;
  record_version: number | null;
  prediction_id: string | null;
  changed_at: Date | string;
}

/**
 * The states of these pairs, created where missing and locked until the transaction ends. Give
 * the pairs in one order everywhere (two writers then never wait on each other crosswise).
 */
export async function lockStates(tx: Kysely<DB>, pairs: readonly StatePair[]) {
  const result = await tx.executeQuery<StateRow>(
    CompiledQuery.raw(
      lockTexts.get(pairs.length),
      pairs.flatMap((p) => [p.classId, p.studentId]),
    ),
  );
  return result.rows.map(
    (r): StoredState => ({
      classId: r.class_id,
      studentId: r.student_id,
      atRisk: r.at_risk,
      pending: r.pending,
      predictionId: r.prediction_id,
      recordVersion: r.record_version,
      changedAt: new Date(r.changed_at),
    }),
  );
}

/** Writes these states back (each pair's row exists: lockStates made it). */
export async function writeStates(tx: Kysely<DB>, states: readonly StoredState[]) {
  await tx.executeQuery(
    CompiledQuery.raw(
      writeTexts.get(states.length),
      states.flatMap((s) => [
        s.classId,
        s.studentId,
        s.atRisk,
        s.pending,
        s.predictionId,
        s.recordVersion,
        s.changedAt,
      ]),
    ),
  );
}
