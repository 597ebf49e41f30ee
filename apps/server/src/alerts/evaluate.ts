import {
  type AlertState,
  initialAlertState,
  type NotificationKind,
  nextAlertState,
} from "@gradecast/contract/alerts";
import { type Contribution, riskReasonCount, teacherReasons } from "@gradecast/contract/class-risk";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { lockStates, type StatePair, writeStates } from "./state-queries.ts";

// After each stored prediction made for a class (the student's own, or the school's
// recomputation), the student's alert state in that class moves by the hysteresis rule
// (contract: `nextAlertState`); a change notifies the class's teachers. A recomputation after the
// record changed a value of the prediction also tells the student. Run after the predictions'
// batch committed (alerts/backlog.ts), with the states' rows locked: two predictions of one
// student never read the same state.

export interface StoredForClass {
  predictionId: string;
  studentId: string;
  classId: string;
  score: number;
  noFinalScoreRisk: number | null;
  contributions: readonly Contribution[];
  recordVersion: number | null;
  madeBy: "student" | "school";
}

export interface NewNotification {
  recipientId: string;
  kind: NotificationKind;
  studentId: string | null;
  classId: string | null;
  payload: Record<string, unknown>;
}

export async function insertNotifications(db: Kysely<DB>, rows: NewNotification[]) {
  if (rows.length === 0) return;
  await db
    .insertInto("notifications")
    .values(
      rows.map((n) => ({
        recipient_id: n.recipientId,
        kind: n.kind,
        student_id: n.studentId,
        class_id: n.classId,
        payload: JSON.stringify(n.payload),
      })),
    )
    .execute();
}

/** One prediction's alert, in its own transaction (tests and one-off callers). */
export async function evaluateAlert(db: Kysely<DB>, p: StoredForClass): Promise<void> {
  await db.transaction().execute((tx) => evaluateAlerts(tx, [p]));
}

const pairKey = (p: StatePair) => `${p.classId} ${p.studentId}`;

/**
 * The states these predictions move, in their order, inside the caller's transaction (the one
 * that claims their batches' backlog rows: alerts/backlog.ts). Four
 * statements at most whatever the batch's size: the states are created where missing and locked
 * in one order (two writers never wait on each other crosswise), moved in memory, written back in
 * one upsert; the changed classes' teachers are read once and the notifications inserted at once.
 */
export async function evaluateAlerts(tx: Kysely<DB>, items: readonly StoredForClass[]) {
  if (items.length === 0) return;
  const pairs = [...new Map(items.map((p) => [pairKey(p), p])).values()].sort((a, b) =>
    pairKey(a) < pairKey(b) ? -1 : 1,
  );
  const states = new Map((await lockStates(tx, pairs)).map((s) => [pairKey(s), s]));

  // In the predictions' order: a crossing (each teacher of its class, read below) or a notice.
  const made: ({ crossing: StoredForClass; atRisk: boolean } | NewNotification)[] = [];
  const now = new Date();
  for (const p of items) {
    const kept = states.get(pairKey(p));
    if (!kept) throw new Error("an alert state was not created");
    const before: AlertState =
      kept.predictionId === null
        ? initialAlertState
        : { atRisk: kept.atRisk, pending: kept.pending };
    const { state, changed } = nextAlertState(before, p);
    if (changed) made.push({ crossing: p, atRisk: state.atRisk });
    const recordChanged =
      p.madeBy === "school" &&
      kept.predictionId !== null &&
      p.recordVersion !== null &&
      p.recordVersion > (kept.recordVersion ?? 0);
    if (recordChanged) {
      made.push({
        recipientId: p.studentId,
        kind: "record_changed",
        studentId: p.studentId,
        classId: p.classId,
        payload: { prediction: p.score, noFinalScoreRisk: p.noFinalScoreRisk },
      });
    }
    states.set(pairKey(p), {
      ...kept,
      ...state,
      predictionId: p.predictionId,
      recordVersion: p.recordVersion,
      changedAt: changed ? now : kept.changedAt,
    });
  }

  await writeStates(
    tx,
    pairs.map((p) => states.get(pairKey(p))!),
  );

  const classIds = [...new Set(made.flatMap((m) => ("crossing" in m ? [m.crossing.classId] : [])))];
  const teachers =
    classIds.length === 0
      ? []
      : await tx
          .selectFrom("class_teachers")
          .select(["class_id", "teacher_id"])
          .where("class_id", "in", classIds)
          .execute();
  const out = made.flatMap((m): NewNotification[] => {
    if (!("crossing" in m)) return [m];
    const p = m.crossing;
    // What the risk list shows without the student's sharing: school-record reasons and
    // "Other answers" as one sum, never an answer by name.
    const reasons = teacherReasons(p.contributions, false).slice(0, riskReasonCount);
    return teachers
      .filter((t) => t.class_id === p.classId)
      .map((t) => ({
        recipientId: t.teacher_id,
        kind: m.atRisk ? "risk_up" : "risk_down",
        studentId: p.studentId,
        classId: p.classId,
        payload: { prediction: p.score, noFinalScoreRisk: p.noFinalScoreRisk, reasons },
      }));
  });
  await insertNotifications(tx, out);
}
