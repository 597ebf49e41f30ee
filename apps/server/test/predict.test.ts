import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { questionByKey, questionKeys } from "@gradecast/contract/questionnaire";
import { bandMessages } from "@gradecast/contract/score";
import { type GradeModel, loadDefaultModel } from "@gradecast/model";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPrediction } from "../src/prediction/queries.ts";
import { signIn } from "./accounts.ts";
import { createTestApp, dialects, errorOf, type TestApp } from "./helpers.ts";

// POST /api/predict and GET /api/predictions/mine through the real API (issue 6): the answer's
// every field, the explanation adding up to the raw prediction, labels and actionable flags from
// the contract, extrapolation, what-if calls that store nothing, and each caller's own history.

type Session = Awaited<ReturnType<typeof signIn>>;

// A whole questionnaire as the original form sent it: every value a string.
const form: Record<string, string> = {
  school: "GP",
  sex: "M",
  age: "16",
  address: "U",
  famsize: "LE3",
  Pstatus: "T",
  Medu: "2",
  Fedu: "2",
  Mjob: "services",
  Fjob: "other",
  reason: "home",
  guardian: "mother",
  traveltime: "2",
  studytime: "2",
  failures: "0",
  schoolsup: "no",
  famsup: "yes",
  paid: "no",
  activities: "no",
  nursery: "yes",
  higher: "yes",
  internet: "yes",
  romantic: "no",
  famrel: "4",
  freetime: "3",
  goout: "3",
  health: "4",
  absences: "6",
  G1: "11",
  G2: "11",
};
const numbers = Object.fromEntries(
  Object.entries(form).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]),
);

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The real model with its output shifted, to reach the clamps at 0 and 20. */
function shifted(model: GradeModel, by: number): GradeModel {
  return {
    ...model,
    version: `${model.version}+shift${by}`,
    predict(input) {
      const p = model.predict(input);
      const raw = p.raw + by;
      const clamp = (v: number) => Math.min(20, Math.max(0, v));
      return {
        ...p,
        raw,
        prediction: clamp(raw),
        baseValue: p.baseValue + by,
        interval: {
          ...p.interval,
          low: clamp(p.interval.low + by),
          high: clamp(p.interval.high + by),
        },
      };
    },
  };
}

describe.each(dialects)("prediction on %s", (dialect) => {
  let t: TestApp;
  let student: Session;
  let other: Session;
  let teacher: Session;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { RATE_LIMITS: "off" } });
    [student, other, teacher, admin] = await Promise.all([
      signIn(t, "student"),
      signIn(t, "student"),
      signIn(t, "teacher"),
      signIn(t, "admin"),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const predict = (who: Session | null, payload: unknown, query = "") =>
    t.app.inject({
      method: "POST",
      url: `/api/predict${query}`,
      headers: who?.auth ?? {},
      payload: payload as object,
    });
  const history = (who: Session | null) =>
    t.app.inject({ method: "GET", url: "/api/predictions/mine", headers: who?.auth ?? {} });
  const stored = async (userId: string) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from predictions where user_id = ${userId}`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );

  it("answers every field: score, band message, interval, explanation, model version", async () => {
    const res = await predict(student, form);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PredictionResult;
    expect(typeof r.prediction).toBe("number");
    expect(r.prediction).toBeGreaterThanOrEqual(0);
    expect(r.prediction).toBeLessThanOrEqual(20);
    expect(r.message).toBe(bandMessages[r.band]);
    expect(r.band).toBe(
      r.prediction < 7 ? "improve" : r.prediction < 14 ? "good" : "congratulations",
    );
    expect(r.interval.level).toBe(0.8);
    expect(r.interval.low).toBeLessThanOrEqual(r.prediction);
    expect(r.interval.high).toBeGreaterThanOrEqual(r.prediction);
    expect(r.interval.high).toBeGreaterThan(r.interval.low);
    expect(r.modelVersion).toBe(loadDefaultModel().version);
    expect(r.extrapolation).toBe(false);
    expect(r.extrapolationFeatures).toEqual([]);
    expect(r.inputs).toEqual(numbers);
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(r.createdAt ?? ""))).toBe(false);
    // The same answers through the model directly give the same score.
    expect(r.prediction).toBeCloseTo(loadDefaultModel().predict(numbers).prediction, 9);
  });

  it("explains the prediction: baseValue plus every effect is the raw prediction, labels and flags from the contract", async () => {
    const r = (await predict(student, form, "?store=false")).json() as PredictionResult;
    expect(r.contributions).toHaveLength(30);
    expect(r.contributions.map((c) => c.feature).sort()).toEqual([...questionKeys].sort());
    expect(Math.abs(r.baseValue + sum(r.contributions.map((c) => c.effect)) - r.raw)).toBeLessThan(
      1e-6,
    );
    expect(r.raw).toBeCloseTo(r.prediction, 9); // not clamped for an ordinary student
    for (const c of r.contributions) {
      expect(c.label).toBe(questionByKey[c.feature].label);
      expect(c.actionable).toBe(questionByKey[c.feature].actionable);
      expect(String(c.value)).toBe(form[c.feature]);
      expect(Number.isFinite(c.effect)).toBe(true);
    }
    const studytime = r.contributions.find((c) => c.feature === "studytime");
    expect(studytime).toMatchObject({ label: "Weekly study time", actionable: true, value: 2 });
    expect(r.contributions.find((c) => c.feature === "G2")?.actionable).toBe(false);
    // Largest effect first.
    const sizes = r.contributions.map((c) => Math.abs(c.effect));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    // Grades carry the model: the second period grade moves the prediction more than the school.
    expect(Math.abs(r.contributions.find((c) => c.feature === "G2")!.effect)).toBeGreaterThan(
      Math.abs(r.contributions.find((c) => c.feature === "school")!.effect),
    );
  });

  it("accepts strings and numbers alike, with the same prediction", async () => {
    const a = (await predict(student, form, "?store=false")).json() as PredictionResult;
    const b = (await predict(student, numbers, "?store=false")).json() as PredictionResult;
    expect(b.prediction).toBe(a.prediction);
    expect(b.inputs).toEqual(a.inputs);
  });

  it("moves with the answers: better grades predict a higher score", async () => {
    const low = (await predict(student, { ...form, G1: "5", G2: "5" }, "?store=false")).json();
    const high = (await predict(student, { ...form, G1: "18", G2: "18" }, "?store=false")).json();
    expect((high as PredictionResult).prediction).toBeGreaterThan(
      (low as PredictionResult).prediction + 5,
    );
    expect((low as PredictionResult).message).toBe("You need to improve!");
    expect((high as PredictionResult).message).toBe("Congratulations!");
  });

  it("flags extrapolation for age 25 and 100 absences", async () => {
    const res = await predict(student, { ...form, age: "25", absences: "100" }, "?store=false");
    expect(res.statusCode).toBe(200);
    const r = res.json() as PredictionResult;
    expect(r.extrapolation).toBe(true);
    expect([...r.extrapolationFeatures].sort()).toEqual(["absences", "age"]);
    const one = (await predict(student, { ...form, age: "25" }, "?store=false")).json();
    expect((one as PredictionResult).extrapolationFeatures).toEqual(["age"]);
  });

  it("stores each prediction with its answers, score and model version; ?store=false stores nothing", async () => {
    const me = other.user.uid;
    expect(await stored(me)).toBe(0);
    const r = (await predict(other, form)).json() as PredictionResult;
    expect(await stored(me)).toBe(1);
    const row = await t.database.db
      .selectFrom("predictions")
      .selectAll()
      .where("id", "=", r.id!)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(me);
    expect(row.score).toBeCloseTo(r.prediction, 9);
    expect(row.raw_score).toBeCloseTo(r.raw, 9);
    expect(row.model_version).toBe(r.modelVersion);
    expect(row.interval_low).toBeCloseTo(r.interval.low, 9);
    const inputs = typeof row.inputs === "string" ? JSON.parse(row.inputs) : row.inputs;
    expect(inputs).toEqual(numbers);

    const whatIf = await predict(other, { ...form, studytime: "4" }, "?store=false");
    expect(whatIf.statusCode).toBe(200);
    expect((whatIf.json() as PredictionResult).id).toBeNull();
    expect(await stored(me)).toBe(1);
    const bad = await predict(other, form, "?store=maybe");
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {})).toEqual(["store"]);
    expect(await stored(me)).toBe(1);
  });

  it("lists the caller's predictions newest first, with the newest explained again", async () => {
    const who = await signIn(t, "student");
    expect((await history(who)).json()).toEqual({ items: [], latest: null });
    const scores: number[] = [];
    for (const g of ["8", "12", "16"]) {
      const r = (await predict(who, { ...form, G1: g, G2: g })).json() as PredictionResult;
      scores.push(r.prediction);
    }
    const res = await history(who);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const h = res.json() as PredictionHistory;
    expect(h.items.map((i) => i.inputs.G2)).toEqual([16, 12, 8]);
    expect(h.items.map((i) => i.prediction)).toEqual([...scores].reverse());
    const times = h.items.map((i) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(h.items[0]).toMatchObject({ message: bandMessages[h.items[0]!.band] });
    expect(h.latest).not.toBeNull();
    expect(h.latest!.id).toBe(h.items[0]!.id);
    expect(h.latest!.prediction).toBe(h.items[0]!.prediction);
    expect(h.latest!.contributions).toHaveLength(30);
    expect(h.latest!.inputs.G2).toBe(16);
  });

  it("stores every one of many predictions sent at once, each under its own id and owner", async () => {
    const a = await signIn(t, "student");
    const b = await signIn(t, "student");
    const sent = Array.from({ length: 24 }, (_, i) => ({
      who: i % 2 === 0 ? a : b,
      g: String(i % 21),
    }));
    const answers = await Promise.all(sent.map(({ who, g }) => predict(who, { ...form, G2: g })));
    expect(answers.map((r) => r.statusCode)).toEqual(sent.map(() => 200));
    const results = answers.map((r) => r.json() as PredictionResult);
    expect(new Set(results.map((r) => r.id)).size).toBe(24);
    const rows = await t.database.db
      .selectFrom("predictions")
      .select(["id", "user_id", "inputs", "score"])
      .where("user_id", "in", [a.user.uid, b.user.uid])
      .execute();
    expect(rows).toHaveLength(24);
    const byId = new Map(rows.map((row) => [row.id, row]));
    results.forEach((r, i) => {
      const row = byId.get(r.id!);
      expect(row?.user_id).toBe(sent[i]!.who.user.uid);
      const inputs = typeof row?.inputs === "string" ? JSON.parse(row.inputs) : row?.inputs;
      expect(inputs.G2).toBe(Number(sent[i]!.g));
      expect(row?.score).toBeCloseTo(r.prediction, 9);
    });
  });

  it("fails only the prediction whose row cannot be stored when several are written together", async () => {
    const a = await signIn(t, "student");
    const row = (userId: string) => ({
      userId,
      inputs: numbers,
      score: 12,
      rawScore: 12,
      intervalLow: 10,
      intervalHigh: 14,
      extrapolation: false,
      modelVersion: "test",
    });
    const gone = "00000000-0000-4000-8000-000000000000";
    const results = await Promise.allSettled([
      insertPrediction(t.database.db, row(a.user.uid)),
      insertPrediction(t.database.db, row(a.user.uid)),
      insertPrediction(t.database.db, row(gone)),
      insertPrediction(t.database.db, row(a.user.uid)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect(await stored(a.user.uid)).toBe(3);
  });

  it("never shows another student's predictions", async () => {
    await predict(student, { ...form, G2: "19" });
    const theirs = (await history(student)).json() as PredictionHistory;
    const mine = (await history(other)).json() as PredictionHistory;
    const theirIds = new Set(theirs.items.map((i) => i.id));
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.some((i) => theirIds.has(i.id))).toBe(false);
    expect(mine.latest?.inputs.G2).toBe(11);
  });

  it("lets any signed-in user predict; teachers have no history to read; anonymous gets 401", async () => {
    expect((await predict(teacher, form, "?store=false")).statusCode).toBe(200);
    expect((await predict(admin, form)).statusCode).toBe(200);
    expect(((await history(admin)).json() as PredictionHistory).items).toHaveLength(1);
    const listed = await history(teacher);
    expect(listed.statusCode).toBe(403);
    expect(errorOf(listed.body).code).toBe("forbidden");
    expect((await predict(null, form)).statusCode).toBe(401);
    expect((await history(null)).statusCode).toBe(401);
  });

  it("lets an admin alone read everyone's stored predictions, or one user's", async () => {
    const get = (who: Session, url: string) =>
      t.app.inject({ method: "GET", url, headers: who.auth });
    const all = await get(admin, "/api/predictions?limit=100");
    expect(all.statusCode).toBe(200);
    type Item = PredictionHistory["items"][number] & { userId: string };
    const items = (all.json() as { items: Item[] }).items;
    const owners = new Set(items.map((i) => i.userId));
    expect(owners.has(student.user.uid)).toBe(true);
    expect(owners.has(other.user.uid)).toBe(true);
    const theirs = (await get(admin, `/api/predictions?userId=${other.user.uid}`)).json() as {
      items: Item[];
    };
    expect(theirs.items.length).toBeGreaterThan(0);
    expect(theirs.items.every((i) => i.userId === other.user.uid)).toBe(true);
    expect((await get(student, "/api/predictions")).statusCode).toBe(403);
    expect((await get(teacher, "/api/predictions")).statusCode).toBe(403);
  });

  it("answers no explanation for a prediction made by another model version", async () => {
    const who = await signIn(t, "student");
    await t.database.db
      .insertInto("predictions")
      .values({
        user_id: who.user.uid,
        inputs: JSON.stringify(numbers),
        score: 12.5,
        raw_score: 12.5,
        interval_low: 10,
        interval_high: 15,
        extrapolation: false,
        model_version: "an-old-model",
      })
      .execute();
    const h = (await history(who)).json() as PredictionHistory;
    expect(h.latest).toBeNull();
    expect(h.items).toHaveLength(1);
    expect(h.items[0]).toMatchObject({
      prediction: 12.5,
      message: "Good effort!",
      modelVersion: "an-old-model",
      interval: { low: 10, high: 15 },
    });
  });
});

describe("prediction clamps", () => {
  for (const [by, expected, message] of [
    [30, 20, "Congratulations!"],
    [-30, 0, "You need to improve!"],
  ] as const) {
    it(`clamps to ${expected} and keeps the raw prediction equal to baseValue plus the effects`, async () => {
      const t = await createTestApp("pglite", {
        env: { RATE_LIMITS: "off" },
        services: { model: shifted(loadDefaultModel(), by) },
      });
      try {
        const s = await signIn(t, "student");
        const res = await predict(t, s, form);
        expect(res.statusCode, res.body).toBe(200);
        const r = res.json() as PredictionResult;
        expect(r.prediction).toBe(expected);
        expect(r.message).toBe(message);
        expect(r.raw).not.toBe(expected);
        expect(
          Math.abs(r.baseValue + sum(r.contributions.map((c) => c.effect)) - r.raw),
        ).toBeLessThan(1e-6);
        expect(((await history2(t, s)).json() as PredictionHistory).items[0]?.prediction).toBe(
          expected,
        );
      } finally {
        await t.close();
      }
    });
  }
  const predict = (t: TestApp, s: Session, payload: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/api/predict",
      headers: s.auth,
      payload: payload as object,
    });
  const history2 = (t: TestApp, s: Session) =>
    t.app.inject({ method: "GET", url: "/api/predictions/mine", headers: s.auth });
});

describe("prediction rate limit", () => {
  it("answers 429 in the error shape after 120 predictions a minute from one user", async () => {
    const t = await createTestApp("pglite");
    try {
      const s = await signIn(t, "student");
      let last = { statusCode: 0, body: "" };
      for (let i = 0; i < 121; i++) {
        last = await t.app.inject({
          method: "POST",
          url: "/api/predict?store=false",
          headers: s.auth,
          payload: form,
        });
        if (i < 120) expect(last.statusCode).toBe(200);
      }
      expect(last.statusCode).toBe(429);
      expect(errorOf(last.body).code).toBe("rate_limited");
      // Another student is not held back.
      const o = await signIn(t, "student");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/predict?store=false",
        headers: o.auth,
        payload: form,
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
