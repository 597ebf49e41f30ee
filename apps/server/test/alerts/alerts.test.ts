import {
  digestSettingSchema,
  flagFeedbackSchema,
  flagSummarySchema,
  notificationListSchema,
  planAnswerSchema,
  planListSchema,
} from "@gradecast/contract/alerts";
import { isSchoolRecordKey, otherAnswersFeature } from "@gradecast/contract/class-risk";
import { questionByKey, questionKeys } from "@gradecast/contract/questionnaire";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { evaluateAlert, evaluateAlerts } from "../../src/alerts/evaluate.ts";
import { enqueueJob } from "../../src/jobs/queue.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { classStaff, staffClasses } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, recordingMailer, type TestApp } from "../support/helpers.ts";
import { validReport } from "../support/report-fixture.ts";
import { doingWell, struggling } from "../support/risk-answers.ts";

// Early warning (issue 32) through the real API: a prediction that crosses the risk list's line
// notifies the class's teachers (and nobody else), with school-record reasons only; the
// hysteresis rule on a sequence of stored predictions; flags judged by the class's teachers and
// summarised per model version; intervention plans (the class's teachers' alone, overdue first,
// closed with an outcome, audited without their text); the digest (its contents, once per
// period, its one-click unsubscribe link); students told of a report about them and of a record
// change of their prediction.

const cast = {
  ...classStaff,
  amy: ["student", { name: "Amy Crossing" }],
  ben: ["student", { name: "Ben Steady" }],
  /** Never answers: the hysteresis test stores predictions for him directly. */
  dan: ["student", { name: "Dan Hovering" }],
  otherStudent: ["student", { name: "Other Student" }],
} satisfies Record<string, Person>;

const mailer = recordingMailer();
const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast, services: { mailer } });

/** Private questions' labels: none may reach a teacher's notification or digest. */
const privateLabels = questionKeys
  .filter((k) => !isSchoolRecordKey(k))
  .map((k) => questionByKey[k].label);

describe.each(dialects)("alerts (%s)", (dialect) => {
  const test = tests[dialect];
  let call: ReturnType<typeof api>["call"];
  let predict: ReturnType<typeof api>["predict"];
  let classId: string;
  let otherClassId: string;

  const notifications = async (who: SignedInUser) => {
    const res = await call("GET", "/api/notifications", who);
    expect(res.statusCode, res.body).toBe(200);
    return notificationListSchema.parse(res.json());
  };
  const about = async (who: SignedInUser, student: SignedInUser) =>
    (await notifications(who)).items.filter((n) => n.student?.id === student.user.uid);
  let tTest: TestApp | undefined;
  const inject = (
    method: "PUT" | "PATCH" | "POST",
    url: string,
    who: SignedInUser | undefined,
    payload: object,
  ) => tTest!.app.inject({ method, url, headers: who ? who.auth : {}, payload });

  test.beforeAll(async ({ t, people }) => {
    tTest = t;
    ({ call, predict } = api(t));
    ({ classId, otherClassId } = await staffClasses(
      t,
      people,
      [people.amy, people.ben, people.dan],
      "Maths 10A",
    ));
    await predict(people.ben, doingWell);
    await predict(people.amy, doingWell);
    await predict(people.amy, struggling);
  }, 120_000);

  test("a prediction that crosses into risk notifies the class's teachers, with school-record reasons only", async ({
    people,
  }) => {
    const mine = await about(people.teacher, people.amy);
    expect(mine.map((n) => n.kind)).toEqual(["risk_up"]);
    const [alert] = mine;
    expect(alert!.title).toBe("Amy Crossing (Maths 10A) is now at risk");
    expect(alert!.class).toEqual({ id: classId, name: "Maths 10A" });
    expect(alert!.prediction).toBeLessThan(10);
    expect(alert!.reasons.length).toBeGreaterThan(0);
    for (const r of alert!.reasons) {
      expect(isSchoolRecordKey(r.feature) || r.feature === otherAnswersFeature).toBe(true);
    }
    expect(JSON.stringify(alert)).not.toMatch(new RegExp(privateLabels.join("|")));
    expect((await about(people.coTeacher, people.amy)).map((n) => n.kind)).toEqual(["risk_up"]);
    // Ben stays well: no alert. Nobody outside the class hears of Amy.
    expect(await about(people.teacher, people.ben)).toEqual([]);
    expect(await about(people.otherTeacher, people.amy)).toEqual([]);
    expect(await about(people.admin, people.amy)).toEqual([]);
    expect((await about(people.amy, people.amy)).filter((n) => n.kind.startsWith("risk"))).toEqual(
      [],
    );
  });

  test("notifications are the caller's own: unverified callers are refused, anonymous ones asked to sign in", async ({
    people,
  }) => {
    expect((await call("GET", "/api/notifications", people.unverifiedTeacher)).statusCode).toBe(
      403,
    );
    expect((await call("GET", "/api/notifications", undefined)).statusCode).toBe(401);
    // Marking another person's notification read changes nothing of theirs.
    const [theirs] = await about(people.coTeacher, people.amy);
    const res = await call("POST", "/api/notifications/read", people.otherTeacher, {
      ids: [theirs!.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await about(people.coTeacher, people.amy))[0]!.readAt).toBeNull();
  });

  test("marking read lowers the unread count", async ({ people }) => {
    const before = await notifications(people.teacher);
    expect(before.unread).toBeGreaterThan(0);
    const res = await call("POST", "/api/notifications/read", people.teacher, { all: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unread: 0 });
    expect((await notifications(people.teacher)).items.every((n) => n.readAt !== null)).toBe(true);
  });

  test("the hysteresis rule on a sequence of stored predictions: no flapping around the line", async ({
    t,
    people,
  }) => {
    const studentId = people.dan.user.uid;
    /** The school's n-th stored prediction of Dan in the class. */
    const stored = (score: number, n: number) => ({
      predictionId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
      studentId,
      classId,
      score,
      noFinalScoreRisk: 0.05,
      contributions: [],
      recordVersion: null,
      madeBy: "school" as const,
    });
    const step = (score: number, n: number) => evaluateAlert(t.database.db, stored(score, n));
    const kinds = async () => (await about(people.coTeacher, people.dan)).map((n) => n.kind);
    // Dan starts not at risk. Hovering: 9.8, 10.2, 9.9, 10.1: nothing.
    for (const [i, s] of [9.8, 10.2, 9.9, 10.1].entries()) await step(s, i + 1);
    expect(await kinds()).toEqual([]);
    // 9.8 then 9.7: the second confirms the first.
    await step(9.8, 5);
    expect(await kinds()).toEqual([]);
    await step(9.7, 6);
    expect(await kinds()).toEqual(["risk_up"]);
    // Out clearly at once.
    await step(12, 7);
    expect(await kinds()).toEqual(["risk_down", "risk_up"]);
    // Stored together (one group-commit batch), 9.8 then 9.7 are judged in their order: the
    // second confirms the first, exactly as when they came one by one.
    const together = [stored(9.8, 8), stored(9.7, 9)];
    await t.database.db.transaction().execute((tx) => evaluateAlerts(tx, together));
    expect(await kinds()).toEqual(["risk_up", "risk_down", "risk_up"]);
    const state = await t.database.db
      .selectFrom("alert_states")
      .select(["at_risk", "pending", "prediction_id"])
      .where("class_id", "=", classId)
      .where("student_id", "=", studentId)
      .executeTakeFirstOrThrow();
    expect(state).toEqual({
      at_risk: true,
      pending: false,
      prediction_id: together[1]!.predictionId,
    });
  });

  test("flags: the class's teachers judge a student's current flag; nobody else may", async ({
    people,
  }) => {
    const url = (id: string, who: SignedInUser) =>
      `/api/classes/${id}/students/${who.user.uid}/flag`;
    const body = { judgement: "acknowledged", reason: "Spoke with Amy's tutor" };
    const ok = await inject("PUT", url(classId, people.amy), people.teacher, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(flagFeedbackSchema.parse(ok.json())).toMatchObject({
      studentId: people.amy.user.uid,
      judgement: "acknowledged",
    });
    // Judged again: the judgement changes, it is not counted twice.
    const again = await inject("PUT", url(classId, people.amy), people.coTeacher, {
      judgement: "incorrect",
    });
    expect(again.statusCode).toBe(200);
    // Ben carries no flag.
    const none = await inject("PUT", url(classId, people.ben), people.teacher, body);
    expect(none.statusCode).toBe(409);
    // Another class's teacher: 404 (the class is not theirs); the admin, a student, a pending
    // teacher (a student until approved): refused by role; unverified: 403.
    expect(
      (await inject("PUT", url(classId, people.amy), people.otherTeacher, body)).statusCode,
    ).toBe(404);
    expect(
      (await inject("PUT", url(otherClassId, people.otherStudent), people.teacher, body))
        .statusCode,
    ).toBe(404);
    for (const who of [
      people.admin,
      people.amy,
      people.otherStudent,
      people.pendingTeacher,
      people.unverifiedTeacher,
    ]) {
      expect((await inject("PUT", url(classId, people.amy), who, body)).statusCode).toBe(403);
    }
    expect((await inject("PUT", url(classId, people.amy), undefined, body)).statusCode).toBe(401);
    const bad = await inject("PUT", url(classId, people.amy), people.teacher, { judgement: "meh" });
    expect(bad.statusCode).toBe(400);

    const mine = await call("GET", `/api/classes/${classId}/flags`, people.teacher);
    expect(mine.json().items).toEqual([
      expect.objectContaining({ studentId: people.amy.user.uid, judgement: "acknowledged" }),
    ]);
    const summary = flagSummarySchema.parse(
      (await call("GET", "/api/evaluation/flags", people.admin)).json(),
    );
    expect(summary.versions).toHaveLength(1);
    expect(summary.versions[0]).toMatchObject({
      judged: 2,
      acknowledged: 1,
      incorrect: 1,
      usefulShare: 0.5,
    });
    // Another class's teacher judged nothing of theirs.
    const theirs = flagSummarySchema.parse(
      (await call("GET", "/api/evaluation/flags", people.otherTeacher)).json(),
    );
    expect(theirs.versions).toEqual([]);
    // The audit says who judged whose flag, never the reason.
    const entries = await auditOf(tTest!, "class.flag_judged", classId);
    expect(entries.length).toBe(2);
    expect(JSON.stringify(entries)).not.toContain("tutor");
  });

  test("plans: the class's teachers start, list (overdue first), change and close them; audited without their text", async ({
    people,
  }) => {
    const create = (
      who: SignedInUser | undefined,
      student: SignedInUser,
      body: object,
      id = classId,
    ) => inject("POST", `/api/classes/${id}/students/${student.user.uid}/plans`, who, body);
    const goal = "Weekly catch-up on fractions with the tutor";
    const overdue = await create(people.teacher, people.amy, {
      tier: 2,
      ownerId: people.coTeacher.user.uid,
      goal,
      reviewOn: "2020-01-10",
    });
    expect(overdue.statusCode, overdue.body).toBe(201);
    const later = await create(people.coTeacher, people.ben, {
      tier: 1,
      ownerId: people.teacher.user.uid,
      goal: "Keep it up",
      reviewOn: "2999-01-01",
    });
    expect(later.statusCode, later.body).toBe(201);
    const first = planAnswerSchema.parse(overdue.json()).plan;
    expect(first).toMatchObject({
      tier: 2,
      owner: { id: people.coTeacher.user.uid },
      overdue: true,
    });

    // The owner must teach the class.
    const stranger = await create(people.teacher, people.amy, {
      tier: 1,
      ownerId: people.otherTeacher.user.uid,
      goal,
      reviewOn: "2030-01-01",
    });
    expect(stranger.statusCode).toBe(400);
    expect(errorOf(stranger.body).message).toMatch(/class's teachers/);
    // Nobody else may start or read one.
    const body = { tier: 1, ownerId: people.teacher.user.uid, goal, reviewOn: "2030-01-01" };
    expect((await create(people.otherTeacher, people.amy, body)).statusCode).toBe(404);
    for (const who of [people.admin, people.amy, people.pendingTeacher, people.unverifiedTeacher]) {
      expect((await create(who, people.amy, body)).statusCode).toBe(403);
      expect((await call("GET", `/api/classes/${classId}/plans`, who)).statusCode).toBe(403);
    }
    expect((await create(people.teacher, people.otherStudent, body)).statusCode).toBe(404);
    expect(
      (await call("GET", `/api/classes/${classId}/plans`, people.otherTeacher)).statusCode,
    ).toBe(404);

    const list = planListSchema.parse(
      (await call("GET", `/api/classes/${classId}/plans`, people.teacher)).json(),
    );
    expect(list.items.map((p) => p.student.name)).toEqual(["Amy Crossing", "Ben Steady"]);

    const url = `/api/classes/${classId}/plans/${first.id}`;
    const moved = await inject("PATCH", url, people.coTeacher, { reviewOn: "2999-02-01", tier: 3 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(planAnswerSchema.parse(moved.json()).plan).toMatchObject({ tier: 3, overdue: false });
    const closed = await inject("PATCH", url, people.teacher, { outcome: "Caught up by March" });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(planAnswerSchema.parse(closed.json()).plan.closedAt).not.toBeNull();
    expect((await inject("PATCH", url, people.teacher, { tier: 1 })).statusCode).toBe(409);
    expect((await inject("PATCH", url, people.otherTeacher, { tier: 1 })).statusCode).toBe(404);
    const after = planListSchema.parse(
      (await call("GET", `/api/classes/${classId}/plans`, people.teacher)).json(),
    );
    expect(after.items.map((p) => p.student.name)).toEqual(["Ben Steady", "Amy Crossing"]);

    const audit = [
      ...(await auditOf(tTest!, "class.plan_created", classId)),
      ...(await auditOf(tTest!, "class.plan_changed", classId)),
      ...(await auditOf(tTest!, "class.plan_closed", classId)),
    ];
    expect(audit.length).toBe(4);
    expect(JSON.stringify(audit)).not.toMatch(/fractions|Caught up|Keep it up/);
  });

  test("a student is told when a teacher writes a report about them, and when the record changes their prediction", async ({
    people,
  }) => {
    // The record sets Ben's G1: his prediction is made again by the school.
    const set = await inject(
      "PUT",
      `/api/classes/${classId}/record/${people.ben.user.uid}`,
      people.teacher,
      {
        field: "G1",
        value: 14,
      },
    );
    expect(set.statusCode, set.body).toBe(200);
    await tTest!.app.jobs.idle();
    const bens = (await notifications(people.ben)).items.map((n) => n.kind);
    expect(bens).toContain("record_changed");
    // A report about Amy: she is told (not what it says); Ben is not.
    const report = await inject("POST", "/api/reports", people.coTeacher, {
      ...validReport,
      studentId: people.amy.user.uid,
      studentName: "x",
    });
    expect(report.statusCode, report.body).toBe(201);
    const amys = (await notifications(people.amy)).items;
    expect(amys.map((n) => n.kind)).toContain("report_written");
    expect(amys.find((n) => n.kind === "report_written")!.title).toBe(
      "A teacher wrote a report about you",
    );
    expect((await notifications(people.ben)).items.map((n) => n.kind)).not.toContain(
      "report_written",
    );
    // Nobody else is told of Ben's record.
    expect((await about(people.amy, people.ben)).map((n) => n.kind)).toEqual([]);
  });

  test("the digest setting: weekly by default, changed by the person, and only theirs", async ({
    signedIn,
  }) => {
    const me = await signedIn("teacher");
    const get = await call("GET", "/api/me/digest", me);
    expect(digestSettingSchema.parse(get.json())).toEqual({ digest: "weekly" });
    const set = await inject("PUT", "/api/me/digest", me, { digest: "daily" });
    expect(set.statusCode, set.body).toBe(200);
    expect((await call("GET", "/api/me/digest", me)).json()).toEqual({ digest: "daily" });
    expect((await inject("PUT", "/api/me/digest", me, { digest: "hourly" })).statusCode).toBe(400);
    expect((await inject("PUT", "/api/me/digest", undefined, { digest: "off" })).statusCode).toBe(
      401,
    );
  });

  test("the digest lists last week's alerts and due follow-ups, once, without private answers; its link unsubscribes", async ({
    t,
    people,
  }) => {
    const teacher = people.teacher;
    // Last week's alerts: the teacher's notifications moved back by a week.
    await t.database.db
      .updateTable("notifications")
      .set({ created_at: sql`created_at - interval '7 days'` })
      .where("recipient_id", "=", teacher.user.uid)
      .execute();
    const noted = await call(
      "POST",
      `/api/classes/${classId}/students/${people.amy.user.uid}/notes`,
      teacher,
      {
        action: "Phoned home",
        doneOn: "2020-01-01",
        followUpOn: new Date().toISOString().slice(0, 10),
      },
    );
    expect(noted.statusCode, noted.body).toBe(201);
    // An outcome recorded last week.
    const outcome = await inject(
      "PUT",
      `/api/classes/${classId}/record/${people.ben.user.uid}`,
      teacher,
      { field: "G3", value: 15 },
    );
    expect(outcome.statusCode, outcome.body).toBe(200);
    await t.database.db
      .updateTable("school_records")
      .set({ outcome_at: sql`outcome_at - interval '7 days'` })
      .where("student_id", "=", people.ben.user.uid)
      .execute();
    const sentBefore = mailer.sent.length;
    await enqueueJob(t.database.db, { kind: "digest.plan" });
    await t.app.jobs.idle();
    await enqueueJob(t.database.db, { kind: "digest.plan" });
    await t.app.jobs.idle();
    const mine = mailer.sent.slice(sentBefore).filter((m) => m.to === teacher.user.email);
    expect(mine).toHaveLength(1);
    const mail = mine[0]!;
    expect(mail.subject).toMatch(/weekly digest/);
    expect(mail.text).toContain("Amy Crossing (Maths 10A) is now at risk");
    expect(mail.text).toContain("Follow-ups of intervention notes falling due");
    expect(mail.text).toContain("Outcomes newly recorded:\n- Ben Steady (Maths 10A)");
    expect(mail.text).not.toMatch(new RegExp(privateLabels.join("|")));
    const outbox = await t.database.db
      .selectFrom("mail_outbox")
      .select(["state", "sent_at"])
      .where("recipient_id", "=", teacher.user.uid)
      .execute();
    expect(outbox).toEqual([{ state: "sent", sent_at: expect.anything() }]);

    const link = /unsubscribe\?token=(\S+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    const token = decodeURIComponent(link!);
    // A token altered by one character is refused; the real one needs no sign-in.
    const forged = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(
      (await inject("POST", "/api/unsubscribe", undefined, { token: forged })).statusCode,
    ).toBe(404);
    const res = await inject("POST", "/api/unsubscribe", undefined, { token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call("GET", "/api/me/digest", teacher)).json()).toEqual({ digest: "off" });
  });
});
