import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import { questionByKey, questionKeys } from "@gradecast/contract/questionnaire";
import { bandMessages } from "@gradecast/contract/score";
import { type GradeModel, loadDefaultModel } from "@gradecast/model";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import { forgetRecordContext } from "../../src/db/record-context.ts";
import { signIn } from "../support/accounts.ts";
import { apiTest, apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { sampleAnswers, sampleQuestionnaire } from "../support/sample-answers.ts";

// POST /api/predict and GET /api/predictions/mine through the real API (issue 6): the answer's
// every field, the explanation adding up to the raw prediction, labels and actionable flags from
// the contract, extrapolation, what-if calls that store nothing, and each caller's own history.
// Issue 19: the setup chosen by the grades known, the two parts and how they combine, the
// subject filled in from the student's own class, and the new columns kept with each row.

type Session = Awaited<ReturnType<typeof signIn>>;

// A whole questionnaire as the original form sent it (every value a string), and as stored.
const form: Record<string, string> = { ...sampleAnswers, subject: "mat" };
// The school is the deployment's (issue 28): these test apps set no MODEL_SCHOOL, so the school
// sent is replaced by none (null), which the model takes as neither of its two.
const numbers = { ...sampleQuestionnaire, subject: "mat", school: null };

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

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    student: "student",
    other: "student",
    teacher: "teacher",
    admin: "admin",
  },
});

describe.each(dialects)("prediction on %s", (dialect) => {
  const test = tests[dialect];

  const predict = (t: TestApp, who: Session | null, payload: unknown, query = "") =>
    t.app.inject({
      method: "POST",
      url: `/api/predict${query}`,
      headers: who?.auth ?? {},
      payload: payload as object,
    });
  const history = (t: TestApp, who: Session | null) =>
    t.app.inject({ method: "GET", url: "/api/predictions/mine", headers: who?.auth ?? {} });
  const stored = async (t: TestApp, userId: string) =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from predictions where user_id = ${userId}`.execute(
          t.database.db,
        )
      ).rows[0]?.n,
    );

  test("answers every field: score, band message, interval, explanation, model version", async ({
    t,
    people,
  }) => {
    const res = await predict(t, people.student, form);
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

  test("explains the prediction: baseValue plus every effect is the raw prediction, labels and flags from the contract", async ({
    t,
    people,
  }) => {
    const r = (await predict(t, people.student, form, "?store=false")).json() as PredictionResult;
    expect(r.contributions).toHaveLength(questionKeys.length);
    expect(r.contributions.map((c) => c.feature).sort()).toEqual([...questionKeys].sort());
    expect(Math.abs(r.baseValue + sum(r.contributions.map((c) => c.effect)) - r.raw)).toBeLessThan(
      1e-6,
    );
    expect(r.raw).toBeCloseTo(r.prediction, 9); // not clamped for an ordinary student
    for (const c of r.contributions) {
      expect(c.label).toBe(questionByKey[c.feature].label);
      expect(c.actionable).toBe(questionByKey[c.feature].actionable);
      expect(String(c.value)).toBe(c.feature === "school" ? "null" : form[c.feature]);
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

  test("accepts strings and numbers alike, with the same prediction", async ({ t, people }) => {
    const a = (await predict(t, people.student, form, "?store=false")).json() as PredictionResult;
    const b = (
      await predict(t, people.student, numbers, "?store=false")
    ).json() as PredictionResult;
    expect(b.prediction).toBe(a.prediction);
    expect(b.inputs).toEqual(a.inputs);
  });

  test("moves with the answers: better grades predict a higher score", async ({ t, people }) => {
    const low = (
      await predict(t, people.student, { ...form, G1: "5", G2: "5" }, "?store=false")
    ).json();
    const high = (
      await predict(t, people.student, { ...form, G1: "18", G2: "18" }, "?store=false")
    ).json();
    expect((high as PredictionResult).prediction).toBeGreaterThan(
      (low as PredictionResult).prediction + 5,
    );
    expect((low as PredictionResult).message).toBe("You need to improve!");
    expect((high as PredictionResult).message).toBe("Congratulations!");
  });

  test("flags extrapolation for age 25 and 100 absences", async ({ t, people }) => {
    const res = await predict(
      t,
      people.student,
      { ...form, age: "25", absences: "100" },
      "?store=false",
    );
    expect(res.statusCode).toBe(200);
    const r = res.json() as PredictionResult;
    expect(r.extrapolation).toBe(true);
    expect([...r.extrapolationFeatures].sort()).toEqual(["absences", "age"]);
    const one = (await predict(t, people.student, { ...form, age: "25" }, "?store=false")).json();
    expect((one as PredictionResult).extrapolationFeatures).toEqual(["age"]);
  });

  test("stores each prediction with its answers, score and model version; ?store=false stores nothing", async ({
    t,
  }) => {
    // An account of its own: it counts the stored rows from none.
    const other = await signIn(t, "student");
    const me = other.user.uid;
    expect(await stored(t, me)).toBe(0);
    const r = (await predict(t, other, form)).json() as PredictionResult;
    expect(await stored(t, me)).toBe(1);
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

    const whatIf = await predict(t, other, { ...form, studytime: "4" }, "?store=false");
    expect(whatIf.statusCode).toBe(200);
    expect((whatIf.json() as PredictionResult).id).toBeNull();
    expect(await stored(t, me)).toBe(1);
    const bad = await predict(t, other, form, "?store=maybe");
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {})).toEqual(["store"]);
    expect(await stored(t, me)).toBe(1);
  });

  test("lists the caller's predictions newest first, with the newest explained again", async ({
    t,
  }) => {
    const who = await signIn(t, "student");
    expect((await history(t, who)).json()).toEqual({ items: [], latest: null });
    const scores: number[] = [];
    for (const g of ["8", "12", "16"]) {
      const r = (await predict(t, who, { ...form, G1: g, G2: g })).json() as PredictionResult;
      scores.push(r.prediction);
    }
    const res = await history(t, who);
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
    expect(h.latest!.contributions).toHaveLength(questionKeys.length);
    expect(h.latest!.inputs.G2).toBe(16);
  });

  test("stores every one of many predictions sent at once, each under its own id and owner", async ({
    t,
  }) => {
    const a = await signIn(t, "student");
    const b = await signIn(t, "student");
    const sent = Array.from({ length: 24 }, (_, i) => ({
      who: i % 2 === 0 ? a : b,
      g: String(i % 21),
    }));
    const answers = await Promise.all(
      sent.map(({ who, g }) => predict(t, who, { ...form, G2: g })),
    );
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

  test("never shows another student's predictions", async ({ t, people }) => {
    // Each test makes the predictions it reads: in a shuffled run no other has run before it.
    expect((await predict(t, people.other, form)).statusCode).toBe(200);
    await predict(t, people.student, { ...form, G2: "19" });
    const theirs = (await history(t, people.student)).json() as PredictionHistory;
    const mine = (await history(t, people.other)).json() as PredictionHistory;
    const theirIds = new Set(theirs.items.map((i) => i.id));
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.some((i) => theirIds.has(i.id))).toBe(false);
    expect(mine.latest?.inputs.G2).toBe(numbers.G2);
  });

  test("lets any signed-in user predict; teachers have no history to read; anonymous gets 401", async ({
    t,
    people,
  }) => {
    expect((await predict(t, people.teacher, form, "?store=false")).statusCode).toBe(200);
    expect((await predict(t, people.admin, form)).statusCode).toBe(200);
    expect(((await history(t, people.admin)).json() as PredictionHistory).items).toHaveLength(1);
    const listed = await history(t, people.teacher);
    expect(listed.statusCode).toBe(403);
    expect(errorOf(listed.body).code).toBe("forbidden");
    expect((await predict(t, null, form)).statusCode).toBe(401);
    expect((await history(t, null)).statusCode).toBe(401);
  });

  test("lets an admin alone read everyone's stored predictions, or one user's", async ({
    t,
    people,
  }) => {
    const get = (who: Session, url: string) =>
      t.app.inject({ method: "GET", url, headers: who.auth });
    for (const who of [people.student, people.other])
      expect((await predict(t, who, form)).statusCode).toBe(200);
    const all = await get(people.admin, "/api/predictions?limit=100");
    expect(all.statusCode).toBe(200);
    type Item = PredictionHistory["items"][number] & { userId: string };
    const items = (all.json() as { items: Item[] }).items;
    const owners = new Set(items.map((i) => i.userId));
    expect(owners.has(people.student.user.uid)).toBe(true);
    expect(owners.has(people.other.user.uid)).toBe(true);
    const theirs = (
      await get(people.admin, `/api/predictions?userId=${people.other.user.uid}`)
    ).json() as {
      items: Item[];
    };
    expect(theirs.items.length).toBeGreaterThan(0);
    expect(theirs.items.every((i) => i.userId === people.other.user.uid)).toBe(true);
    expect((await get(people.student, "/api/predictions")).statusCode).toBe(403);
    expect((await get(people.teacher, "/api/predictions")).statusCode).toBe(403);
  });

  test("answers no explanation for a prediction made by another model version", async ({ t }) => {
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
    const h = (await history(t, who)).json() as PredictionHistory;
    expect(h.latest).toBeNull();
    expect(h.items).toHaveLength(1);
    expect(h.items[0]).toMatchObject({
      prediction: 12.5,
      message: "Good effort!",
      modelVersion: "an-old-model",
      interval: { low: 10, high: 15 },
      // a row stored before the model answered in two parts reads with nulls
      modelSetup: null,
      scoreIfSits: null,
      noFinalScoreRisk: null,
    });
  });

  test("answers which setup answered, the two parts and how they combine, and stores them", async ({
    t,
  }) => {
    const who = await signIn(t, "student");
    const res = await predict(t, who, form);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PredictionResult;
    expect(r.modelSetup).toBe("A");
    expect(r.noFinalScoreRisk).toBeGreaterThan(0);
    expect(r.noFinalScoreRisk).toBeLessThan(1);
    expect(r.scoreIfSits).toBeGreaterThanOrEqual(r.prediction);
    // the headline is the expected score: (1 - risk) * score if the student sits
    expect(r.prediction).toBeCloseTo((1 - r.noFinalScoreRisk) * r.scoreIfSits, 6);
    expect(r.combination).toMatch(/\(1 - noFinalScoreRisk\) \* scoreIfSits/);
    const row = await t.database.db
      .selectFrom("predictions")
      .selectAll()
      .where("id", "=", r.id!)
      .executeTakeFirstOrThrow();
    expect(row.model_setup).toBe("A");
    expect(row.score_if_sits).toBeCloseTo(r.scoreIfSits, 9);
    expect(row.no_final_score_risk).toBeCloseTo(r.noFinalScoreRisk, 12);
    const h = (await history(t, who)).json() as PredictionHistory;
    expect(h.items[0]).toMatchObject({
      modelSetup: "A",
      scoreIfSits: r.scoreIfSits,
      noFinalScoreRisk: r.noFinalScoreRisk,
    });
  });

  test("answers early in the term: G1 and G2 not known yet (null) choose setups B and C, with wider intervals", async ({
    t,
    people,
  }) => {
    const width = (r: PredictionResult) => r.interval.high - r.interval.low;
    const a = (await predict(t, people.student, form, "?store=false")).json() as PredictionResult;
    const resB = await predict(t, people.student, { ...form, G2: null }, "?store=false");
    expect(resB.statusCode, resB.body).toBe(200);
    const b = resB.json() as PredictionResult;
    const c = (
      await predict(t, people.student, { ...form, G1: null, G2: null }, "?store=false")
    ).json() as PredictionResult;
    expect([a.modelSetup, b.modelSetup, c.modelSetup]).toEqual(["A", "B", "C"]);
    expect(b.inputs.G2).toBeNull();
    expect(c.inputs.G1).toBeNull();
    expect(width(b)).toBeGreaterThan(width(a));
    expect(width(c)).toBeGreaterThan(width(b));
    const g1 = c.contributions.find((x) => x.feature === "G1")!;
    expect(g1).toMatchObject({ value: null, effect: 0 });
    expect(Math.abs(c.baseValue + sum(c.contributions.map((x) => x.effect)) - c.raw)).toBeLessThan(
      1e-6,
    );
    // a second-period grade without the first is refused and nothing is stored
    const before = await stored(t, people.student.user.uid);
    const bad = await predict(t, people.student, { ...form, G1: null });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad.body).fields).toEqual({
      G2: "Give the first period grade (G1) before the second (G2).",
    });
    expect(await stored(t, people.student.user.uid)).toBe(before);
    // leaving a grade out is not the same as "not known yet"
    const { G1: _g1, ...noG1 } = form;
    const missing = await predict(t, people.student, noG1, "?store=false");
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(errorOf(missing.body).fields ?? {})).toEqual(["G1"]);
  });

  test("never suggests a harmful change: more absences or going out never raise, more study never lowers", async ({
    t,
    people,
  }) => {
    const at = async (changes: Record<string, string | null>) =>
      (
        (
          await predict(t, people.student, { ...form, ...changes }, "?store=false")
        ).json() as PredictionResult
      ).prediction;
    const early: Record<string, string | null>[] = [{}, { G2: null }, { G1: null, G2: null }];
    for (const grades of early) {
      const abs = [];
      for (const a of ["0", "4", "10", "30", "75"]) abs.push(await at({ ...grades, absences: a }));
      for (let i = 1; i < abs.length; i++) expect(abs[i]).toBeLessThanOrEqual(abs[i - 1]! + 1e-9);
      const study = [];
      for (const v of ["1", "2", "3", "4"]) study.push(await at({ ...grades, studytime: v }));
      for (let i = 1; i < study.length; i++) {
        expect(study[i]).toBeGreaterThanOrEqual(study[i - 1]! - 1e-9);
      }
      expect(await at({ ...grades, higher: "yes" })).toBeGreaterThanOrEqual(
        await at({ ...grades, higher: "no" }),
      );
      expect(await at({ ...grades, goout: "5" })).toBeLessThanOrEqual(
        await at({ ...grades, goout: "1" }),
      );
    }
  });

  test("takes the subject as an input, and fills it in from the student's own class when left out", async ({
    t,
    people,
  }) => {
    const who = await signIn(t, "student");
    const mat = (await predict(t, who, form, "?store=false")).json() as PredictionResult;
    const por = (
      await predict(t, who, { ...form, subject: "por" }, "?store=false")
    ).json() as PredictionResult;
    expect(por.prediction).not.toBe(mat.prediction);
    const { subject: _s, ...noSubject } = form;
    const unknown = (await predict(t, who, noSubject, "?store=false")).json() as PredictionResult;
    expect(unknown.inputs.subject).toBeNull();
    // enrolled in a Portuguese class: the class's subject is used
    const cls = await t.database.db
      .insertInto("classes")
      .values({ name: "10B Portuguese", subject: "por", year: "2026" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.database.db
      .insertInto("enrolments")
      .values({ class_id: cls.id, student_id: who.user.uid })
      .execute();
    // Written here without the classes routes, which forget what the server keeps of a student.
    forgetRecordContext(who.user.uid);
    const filled = (await predict(t, who, noSubject, "?store=false")).json() as PredictionResult;
    expect(filled.inputs.subject).toBe("por");
    expect(filled.prediction).toBe(por.prediction);
    // another student's enrolment never fills this one's
    const stranger = (
      await predict(t, people.other, noSubject, "?store=false")
    ).json() as PredictionResult;
    expect(stranger.inputs.subject).toBeNull();
    const bad = await predict(t, who, { ...form, subject: "history" }, "?store=false");
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorOf(bad.body).fields ?? {})).toEqual(["subject"]);
  });
});

// A model shifted far up or down, each on an app of its own (PGlite).
const clamped = [
  [30, 20, "Congratulations!"],
  [-30, 0, "You need to improve!"],
].map(([by, expected, message]) => ({
  expected: expected as number,
  message: message as string,
  test: apiTest("pglite", {
    env: { RATE_LIMITS: "off" },
    services: { model: shifted(loadDefaultModel(), by as number) },
  }),
}));
// The default limits, on PGlite.
const limited = apiTest("pglite");

describe("prediction clamps", () => {
  for (const { expected, message, test } of clamped) {
    test(`clamps to ${expected} and keeps the raw prediction equal to baseValue plus the effects`, async ({
      t,
      signedIn,
    }) => {
      const s = await signedIn("student");
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
  limited(
    "answers 429 in the error shape after 120 predictions a minute from one user",
    async ({ t, signedIn }) => {
      const s = await signedIn("student");
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
      const o = await signedIn("student");
      const res = await t.app.inject({
        method: "POST",
        url: "/api/predict?store=false",
        headers: o.auth,
        payload: form,
      });
      expect(res.statusCode).toBe(200);
    },
  );
});
