import { notificationListSchema } from "@gradecast/contract/alerts";
import { loadDefaultModel } from "@gradecast/model";
import { describe, expect } from "vitest";
import { queueAlerts, settleAlerts } from "../../src/alerts/backlog.ts";
import type { StoredForClass } from "../../src/alerts/evaluate.ts";
import { uuidArray } from "../../src/db/predictions.ts";
import { sweepAlerts } from "../../src/prediction/alert-sweep.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { doingWell, struggling } from "../support/risk-answers.ts";

// A class prediction's alert is evaluated after its batch committed (alerts/backlog.ts), from a
// backlog row its insert wrote. These tests play what a crash leaves (a backlog row whose alert
// was never evaluated) and another instance's sweep taking a batch before the instance that
// stored it: the alert is evaluated once, as the live path evaluates it.

const cast = {
  teacher: ["teacher", { name: "Class Teacher" }],
  amy: ["student", { name: "Amy Backlog" }],
} satisfies Record<string, Person>;

const tests = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("the alert backlog (%s)", (dialect) => {
  const test = tests[dialect];
  let call: ReturnType<typeof api>["call"];
  let classId: string;
  /** Amy's two stored predictions in the class, oldest first. */
  let predictionIds: string[];
  const services = (t: TestApp) => ({ db: t.database.db, model: loadDefaultModel() });

  const alertsAbout = async (who: SignedInUser, student: SignedInUser) => {
    const res = await call("GET", "/api/notifications", who);
    expect(res.statusCode, res.body).toBe(200);
    return notificationListSchema
      .parse(res.json())
      .items.filter((n) => n.student?.id === student.user.uid)
      .map(({ kind, prediction, reasons }) => ({ kind, prediction, reasons }));
  };

  /** Forgets Amy's alert state and notifications, and leaves a batch naming `ids` unevaluated. */
  const crashBefore = async (t: TestApp, ids: string[]) => {
    const db = t.database.db;
    await db.deleteFrom("notifications").where("student_id", "is not", null).execute();
    await db.deleteFrom("alert_states").where("class_id", "=", classId).execute();
    const id = crypto.randomUUID();
    await db
      .insertInto("alert_backlog")
      .values({ id, prediction_ids: uuidArray(ids) })
      .execute();
    return id;
  };

  test.beforeAll(async ({ t, people }) => {
    const app = api(t);
    call = app.call;
    classId = await makeClass(t, {
      teachers: [people.teacher.user.uid],
      students: [people.amy.user.uid],
    });
    for (const answers of [doingWell, struggling]) await app.predict(people.amy, answers);
    const rows = await t.database.db
      .selectFrom("predictions")
      .select("id")
      .where("user_id", "=", people.amy.user.uid)
      .orderBy("created_at")
      .execute();
    predictionIds = rows.map((r) => r.id);
    expect(predictionIds).toHaveLength(2);
  }, 120_000);

  test("a batch whose alert a crash left unevaluated is evaluated by the sweep, as live, once", async ({
    t,
    people,
  }) => {
    // The live path: answered, then evaluated (reading the notifications settles it).
    const live = await alertsAbout(people.teacher, people.amy);
    expect(live.map((n) => n.kind)).toEqual(["risk_up"]);
    expect(live[0]!.reasons.length).toBeGreaterThan(0);

    await crashBefore(t, predictionIds);
    expect(await alertsAbout(people.teacher, people.amy)).toEqual([]);
    // Rows younger than the sweep's age are left to the instance that stored them.
    expect(await sweepAlerts(services(t), 60_000)).toBe(0);
    expect(await sweepAlerts(services(t), 0)).toBe(2);
    expect(await alertsAbout(people.teacher, people.amy)).toEqual(live);
    // Once: the row is gone, a second sweep finds nothing.
    expect(await sweepAlerts(services(t), 0)).toBe(0);
    expect(await alertsAbout(people.teacher, people.amy)).toEqual(live);
    expect(await t.database.db.selectFrom("alert_backlog").selectAll().execute()).toEqual([]);
  });

  test("a batch another instance swept is not evaluated again by the one that stored it", async ({
    t,
    people,
  }) => {
    const backlogId = await crashBefore(t, predictionIds);
    expect(await sweepAlerts(services(t), 0)).toBe(2);
    const once = await alertsAbout(people.teacher, people.amy);
    expect(once.map((n) => n.kind)).toEqual(["risk_up"]);
    // The storing instance's own queue names the same batch: evaluated again, the well
    // prediction would move Amy out of risk and the struggling one back in (two more alerts).
    const scores = await t.database.db
      .selectFrom("predictions")
      .select(["id", "score", "no_final_score_risk"])
      .where("id", "in", predictionIds)
      .execute();
    const items = predictionIds.map((id): StoredForClass => {
      const p = scores.find((s) => s.id === id)!;
      return {
        predictionId: id,
        studentId: people.amy.user.uid,
        classId,
        score: p.score,
        noFinalScoreRisk: p.no_final_score_risk,
        contributions: [],
        recordVersion: 0,
        madeBy: "student",
      };
    });
    queueAlerts(t.database.db, backlogId, items);
    await settleAlerts(t.database.db);
    expect(await alertsAbout(people.teacher, people.amy)).toEqual(once);
  });

  test("an older batch swept after a newer one was evaluated does not move the state back", async ({
    t,
    people,
  }) => {
    // Evaluated in order, Amy is at risk by her newer prediction.
    await crashBefore(t, predictionIds);
    expect(await sweepAlerts(services(t), 0)).toBe(2);
    // Then the older batch alone, left behind by a failed evaluation, is swept: judged after
    // the newer one it would move her out of risk.
    await t.database.db
      .insertInto("alert_backlog")
      .values({ id: crypto.randomUUID(), prediction_ids: uuidArray([predictionIds[0]!]) })
      .execute();
    expect(await sweepAlerts(services(t), 0)).toBe(0);
    expect((await alertsAbout(people.teacher, people.amy)).map((n) => n.kind)).toEqual(["risk_up"]);
  });

  test("a prediction erased before its alert was evaluated is skipped", async ({ t, people }) => {
    await crashBefore(t, [crypto.randomUUID()]);
    expect(await sweepAlerts(services(t), 0)).toBe(0);
    expect(await t.database.db.selectFrom("alert_backlog").selectAll().execute()).toEqual([]);
    expect(await alertsAbout(people.teacher, people.amy)).toEqual([]);
  });
});
