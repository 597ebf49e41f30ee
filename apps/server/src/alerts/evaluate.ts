import {
  type AlertState,
  initialAlertState,
  type NotificationKind,
  nextAlertState,
} from "@gradecast/contract/alerts";
import { type Contribution, riskReasonCount, teacherReasons } from "@gradecast/contract/class-risk";
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";

// After each stored prediction made for a class (the student's own, or the school's
// recomputation), the student's alert state in that class moves by the hysteresis rule
// (contract: `nextAlertState`); a change notifies the class's teachers. A recomputation after the
// record changed a value of the prediction also tells the student. Run in one transaction that
// locks the state's row: two predictions of one student never read the same state.

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

/** The state a prediction moves: the notifications it makes are written with it. */
export async function evaluateAlert(db: Kysely<DB>, p: StoredForClass): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("alert_states")
      .values({ class_id: p.classId, student_id: p.studentId })
      .onConflict((oc) => oc.columns(["class_id", "student_id"]).doNothing())
      .execute();
    const row = await tx
      .selectFrom("alert_states")
      .select(["at_risk", "pending", "record_version", "prediction_id"])
      .where("class_id", "=", p.classId)
      .where("student_id", "=", p.studentId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const before: AlertState =
      row.prediction_id === null
        ? initialAlertState
        : { atRisk: row.at_risk, pending: row.pending };
    const { state, changed } = nextAlertState(before, p);
    await tx
      .updateTable("alert_states")
      .set({
        at_risk: state.atRisk,
        pending: state.pending,
        prediction_id: p.predictionId,
        record_version: p.recordVersion,
        ...(changed ? { changed_at: new Date() } : {}),
      })
      .where("class_id", "=", p.classId)
      .where("student_id", "=", p.studentId)
      .execute();

    const out: NewNotification[] = [];
    if (changed) {
      const teachers = await tx
        .selectFrom("class_teachers")
        .select("teacher_id")
        .where("class_id", "=", p.classId)
        .execute();
      // What the risk list shows without the student's sharing: school-record reasons and
      // "Other answers" as one sum, never an answer by name.
      const reasons = teacherReasons(p.contributions, false).slice(0, riskReasonCount);
      for (const t of teachers) {
        out.push({
          recipientId: t.teacher_id,
          kind: state.atRisk ? "risk_up" : "risk_down",
          studentId: p.studentId,
          classId: p.classId,
          payload: { prediction: p.score, noFinalScoreRisk: p.noFinalScoreRisk, reasons },
        });
      }
    }
    const recordChanged =
      p.madeBy === "school" &&
      row.prediction_id !== null &&
      p.recordVersion !== null &&
      p.recordVersion > (row.record_version ?? 0);
    if (recordChanged) {
      out.push({
        recipientId: p.studentId,
        kind: "record_changed",
        studentId: p.studentId,
        classId: p.classId,
        payload: { prediction: p.score, noFinalScoreRisk: p.noFinalScoreRisk },
      });
    }
    await insertNotifications(tx, out);
  });
}
