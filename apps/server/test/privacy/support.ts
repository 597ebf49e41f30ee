import { randomUUID } from "node:crypto";
import { deletionConfirmation } from "@gradecast/contract/data-rights";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { privacyJobs } from "../../src/privacy/service.ts";
import { randomIp, type SignedInUser } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import type { TestApp } from "../support/helpers.ts";
import { predictionRow, studentsRow } from "../support/questionnaire-fixture.ts";
import { sampleQuestionnaire } from "../support/sample-answers.ts";

// What the privacy tests share: a name no other row holds, a student and a teacher with data in
// every table the registry names, and the daily job run now.

/** Letters only (no LIKE wildcards), unlikely anywhere else. */
export function uniqueName(first: string): string {
  const letters = randomUUID()
    .replace(/[^a-f]/g, "")
    .slice(0, 6)
    .padEnd(6, "q");
  return `${first} Qz${letters}worth`;
}

export function call(
  t: TestApp,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  who: SignedInUser | undefined,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url,
    remoteAddress: randomIp(),
    headers: who ? who.auth : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export const deleteMine = (t: TestApp, who: SignedInUser) =>
  call(t, "POST", "/api/me/deletion", who, { confirm: deletionConfirmation });

/** The daily privacy job, queued to run now, and waited for. */
export async function runDailyJob(t: TestApp): Promise<void> {
  await enqueueJob(t.database.db, { kind: privacyJobs.daily, key: `test-${randomUUID()}` });
  await t.app.jobs.idle();
}

/**
 * A class taught by `teacher` with `student` in it, and a row about them in every table: the
 * questionnaire, a prediction, a report (linked, naming the student in its feedback), an
 * intervention note, the school record and its history, explanation shares, a class invitation,
 * a teacher invitation, a roster count, codes, a job, audit entries.
 */
export async function fillEverything(
  t: TestApp,
  student: SignedInUser,
  teacher: SignedInUser,
): Promise<string> {
  const db = t.database.db;
  const sid = student.user.uid;
  const tid = teacher.user.uid;
  const classId = await makeClass(t, { teachers: [tid], students: [sid] });
  await db
    .insertInto("students")
    .values({ ...studentsRow(sampleQuestionnaire), user_id: sid })
    .execute();
  await db
    .insertInto("predictions")
    .values(predictionRow(sid, "test", classId))
    .execute();
  await db
    .insertInto("student_reports")
    .values({
      author_id: tid,
      student_name: student.user.name,
      course: "Maths",
      marks: 55,
      attendance: 90,
      assignments: 4,
      behavior: "Good",
      feedback: `${student.user.name} works well.`,
      student_id: sid,
      class_id: classId,
    })
    .execute();
  await db
    .insertInto("intervention_notes")
    .values({
      class_id: classId,
      student_id: sid,
      author_id: tid,
      author_name: teacher.user.name,
      action: "Talked after class",
      done_on: "2026-11-20",
    })
    .execute();
  await db
    .insertInto("record_entries")
    .values({
      class_id: classId,
      student_id: sid,
      field: "G1",
      value: 11,
      set_by: tid,
      set_by_name: teacher.user.name,
    })
    .execute();
  await db
    .insertInto("school_records")
    .values({ class_id: classId, student_id: sid, g1: 11 })
    .execute();
  await db
    .insertInto("explanation_shares")
    .values({ student_id: sid, shared: true, changed_at: new Date() })
    .execute();
  await db
    .insertInto("explanation_share_teachers")
    .values({ student_id: sid, teacher_id: tid, shared_at: new Date() })
    .execute();
  const otherClass = await makeClass(t, { teachers: [tid] });
  await db
    .insertInto("class_invitations")
    .values({
      class_id: otherClass,
      email: student.email,
      name: student.user.name,
      invited_by: tid,
    })
    .execute();
  await db
    .insertInto("teacher_invitations")
    .values({ email: `invited-${randomUUID()}@example.com`, name: "Someone Else", invited_by: tid })
    .execute();
  await db
    .insertInto("roster_email_counts")
    .values({ sender_id: tid, day: "2026-11-20", sent: 3 })
    .execute();
  for (const who of [student, teacher]) {
    await db
      .insertInto("email_codes")
      .values({ user_id: who.user.uid, code_hash: "x", email: who.email, expires_at: new Date() })
      .execute();
    await db
      .insertInto("password_resets")
      .values({
        user_id: who.user.uid,
        token_hash: randomUUID(),
        email: who.email,
        expires_at: new Date(),
      })
      .execute();
    await db
      .insertInto("mfa_recovery_codes")
      .values({ user_id: who.user.uid, code_hash: "x" })
      .execute();
  }
  await enqueueJob(db, { kind: "test.nobody", key: randomUUID(), createdBy: tid });
  // An admin's change about the student names them in the audit log's details.
  await db
    .insertInto("audit_log")
    .values({
      actor_id: tid,
      actor_email: teacher.email,
      action: "test.about",
      target: sid,
      details: JSON.stringify({ student: student.user.name, email: student.email, id: sid }),
    })
    .execute();
  return classId;
}

/** The users table's rows of this person: one while the account lasts, none once purged. */
export const userRows = (t: TestApp, who: SignedInUser) =>
  t.database.db.selectFrom("users").select("id").where("id", "=", who.user.uid).execute();
