import type { PredictionHistory, PredictionResult } from "@gradecast/contract/prediction";
import {
  answerRequiredMessage,
  defaultOptionalQuestions,
  questionByKey,
} from "@gradecast/contract/questionnaire";
import { sql } from "kysely";
import { describe, expect } from "vitest";
import type { signIn } from "../support/accounts.ts";
import { apiTests } from "../support/fixtures.ts";
import { dialects, errorOf, type TestApp } from "../support/helpers.ts";
import { sampleAnswers } from "../support/sample-answers.ts";

// Issue 31, "Only what is needed": the questions the deployment marks optional
// (OPTIONAL_QUESTIONS, by default health, romantic, famrel, Pstatus, Mjob and Fjob) may be left
// out ("Prefer not to say", sent as null). The model answers without them: their effect is 0,
// the explanation still adds up, the interval is not narrower than the one any answer gives;
// the prediction keeps "not answered" when stored. Any other question left out is refused.

type Session = Awaited<ReturnType<typeof signIn>>;

const form: Record<string, string | null> = { ...sampleAnswers, subject: "mat" };
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: { student: "student", other: "student" },
});
const narrower = apiTests({
  env: { RATE_LIMITS: "off", OPTIONAL_QUESTIONS: "health" },
  people: { student: "student" },
});

const predict = (t: TestApp, who: Session, payload: unknown, query = "") =>
  t.app.inject({
    method: "POST",
    url: `/api/predict${query}`,
    headers: who.auth,
    payload: payload as object,
  });

describe.each(dialects)("optional questions on %s", (dialect) => {
  const test = tests[dialect];

  test("GET /api/site lists the questions a student may leave out", async ({ t }) => {
    const res = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(res.statusCode).toBe(200);
    expect(res.json().optionalQuestions).toEqual([...defaultOptionalQuestions]);
  });

  for (const key of defaultOptionalQuestions) {
    test(`predicts and explains with ${key} left out: its effect is 0, the interval not narrower`, async ({
      t,
      people,
    }) => {
      const res = await predict(t, people.student, { ...form, [key]: null });
      expect(res.statusCode, res.body).toBe(200);
      const r = res.json() as PredictionResult;
      const c = r.contributions.find((x) => x.feature === key)!;
      expect(c).toMatchObject({ value: null, effect: 0, label: questionByKey[key].label });
      expect(
        Math.abs(r.baseValue + sum(r.contributions.map((x) => x.effect)) - r.raw),
      ).toBeLessThan(1e-6);
      expect(r.inputs[key]).toBeNull();
      // whatever the student would have answered, the interval holds that answer's interval
      for (const option of questionByKey[key].options) {
        const given = (
          await predict(t, people.student, { ...form, [key]: option.value }, "?store=false")
        ).json() as PredictionResult;
        expect(r.interval.low).toBeLessThanOrEqual(given.interval.low);
        expect(r.interval.high).toBeGreaterThanOrEqual(given.interval.high);
      }
      // stored with "not answered" kept, and explained again the same way from the history
      const stored = await sql<{ inputs: Record<string, unknown> }>`
        select inputs from predictions where id = ${r.id}`.execute(t.database.db);
      const inputs = stored.rows[0]!.inputs;
      expect(typeof inputs === "string" ? JSON.parse(inputs)[key] : inputs[key]).toBeNull();
      const mine = (
        await t.app.inject({
          method: "GET",
          url: "/api/predictions/mine",
          headers: people.student.auth,
        })
      ).json() as PredictionHistory;
      expect(mine.items[0]!.inputs[key]).toBeNull();
      expect(mine.latest?.contributions.find((x) => x.feature === key)).toMatchObject({
        value: null,
        effect: 0,
      });
    });
  }

  test("answers with every optional question left out at once", async ({ t, people }) => {
    const all = Object.fromEntries(defaultOptionalQuestions.map((k) => [k, null]));
    const res = await predict(t, people.student, { ...form, ...all }, "?store=false");
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as PredictionResult;
    for (const key of defaultOptionalQuestions) {
      expect(r.contributions.find((x) => x.feature === key)!.effect).toBe(0);
    }
    const full = (
      await predict(t, people.student, form, "?store=false")
    ).json() as PredictionResult;
    expect(r.interval.low).toBeLessThanOrEqual(full.interval.low);
    expect(r.interval.high).toBeGreaterThanOrEqual(full.interval.high);
  });

  test("refuses a question the deployment does not mark optional left out, beside the field", async ({
    t,
    people,
  }) => {
    const res = await predict(t, people.student, { ...form, sex: null });
    expect(res.statusCode).toBe(400);
    const error = errorOf(res.body);
    expect(error.fields?.sex).toBe(answerRequiredMessage("sex"));
    // the grades' own null is "not known yet", and studytime (a what-if answer) is never optional
    const study = await predict(t, people.student, { ...form, studytime: null });
    expect(study.statusCode).toBe(400);
    expect(errorOf(study.body).fields?.studytime).toMatch(/whole number from 1 to 4/);
  });

  test("a body without the new value behaves as before: a missing answer keeps today's message", async ({
    t,
    people,
  }) => {
    const { health: _, ...rest } = form;
    const res = await predict(t, people.student, rest);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).fields?.health).toBe("Choose a whole number from 1 to 5.");
    const ok = await predict(t, people.student, form, "?store=false");
    expect(ok.statusCode).toBe(200);
    expect(
      (ok.json() as PredictionResult).contributions.every(
        (c) => c.feature === "school" || c.value !== null,
      ),
    ).toBe(true);
  });
});

describe.each(dialects)("OPTIONAL_QUESTIONS=health on %s", (dialect) => {
  const test = narrower[dialect];
  test("offers only health, and refuses romantic left out", async ({ t, people }) => {
    const site = await t.app.inject({ method: "GET", url: "/api/site" });
    expect(site.json().optionalQuestions).toEqual(["health"]);
    expect(
      (await predict(t, people.student, { ...form, health: null }, "?store=false")).statusCode,
    ).toBe(200);
    const res = await predict(t, people.student, { ...form, romantic: null }, "?store=false");
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body).fields?.romantic).toBe(answerRequiredMessage("romantic"));
  });
});
