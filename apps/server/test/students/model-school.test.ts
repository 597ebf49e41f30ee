import type { PredictionResult, StudentRecord } from "@gradecast/contract/prediction";
import { loadDefaultModel } from "@gradecast/model";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { SignedInUser } from "../support/accounts.ts";
import { apiTests, type Person } from "../support/fixtures.ts";
import { dialects, type TestApp } from "../support/helpers.ts";
import { sampleAnswers, sampleQuestionnaire } from "../support/sample-answers.ts";

// The school is the deployment's, set in MODEL_SCHOOL, never the student's answer (issue 28):
// whatever a client sends, a questionnaire and a prediction get the configured school, or none
// (neither of the model's two) when it is not set.

describe("MODEL_SCHOOL", () => {
  it("is GP, MS or unset (neither); anything else stops the server with one line", () => {
    expect(loadConfig({}).modelSchool).toBeNull();
    expect(loadConfig({ MODEL_SCHOOL: "" }).modelSchool).toBeNull();
    expect(loadConfig({ MODEL_SCHOOL: "MS" }).modelSchool).toBe("MS");
    expect(() => loadConfig({ MODEL_SCHOOL: "gp" })).toThrow(
      /MODEL_SCHOOL="gp": must be GP or MS \(or unset for neither\)/,
    );
  });
});

const cast = { student: "student" } satisfies Record<string, Person>;
const tests = apiTests({ env: { RATE_LIMITS: "off", MODEL_SCHOOL: "MS" }, people: cast });

const post = (t: TestApp, who: SignedInUser, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers: who.auth, payload });

/** A prediction, not stored, of the sample answers naming school GP; it must be answered. */
async function predictNamingGP(t: TestApp, who: SignedInUser): Promise<PredictionResult> {
  const res = await post(t, who, "/api/predict?store=false", { ...sampleAnswers, school: "GP" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PredictionResult;
}

describe.each(dialects)("the deployment's school on %s", (dialect) => {
  const test = tests[dialect];
  const model = loadDefaultModel();

  test("saves the configured school, not the one sent, and none when none is sent", async ({
    t,
    people,
  }) => {
    for (const sent of [
      { ...sampleAnswers, school: "GP" },
      { ...sampleAnswers, school: null },
    ]) {
      const res = await post(t, people.student, "/api/students", sent);
      expect(res.statusCode, res.body).toBe(201);
      expect((res.json() as { student: StudentRecord }).student.school).toBe("MS");
    }
    const { school: _left, ...withoutSchool } = sampleAnswers;
    const res = await post(t, people.student, "/api/students", withoutSchool);
    expect((res.json() as { student: StudentRecord }).student.school).toBe("MS");
  });

  test("predicts for the configured school", async ({ t, people }) => {
    const r = await predictNamingGP(t, people.student);
    expect(r.inputs.school).toBe("MS");
    const direct = model.predict({ ...sampleQuestionnaire, school: "MS", subject: null });
    expect(r.prediction).toBeCloseTo(direct.prediction, 9);
    expect(r.contributions.find((c) => c.feature === "school")?.value).toBe("MS");
  });
});

const tests2 = apiTests({ env: { RATE_LIMITS: "off" }, people: cast });

describe.each(dialects)("no school configured on %s", (dialect) => {
  const test = tests2[dialect];
  const model = loadDefaultModel();

  test("predicts for neither school: between the two, the school's answer shown as not set", async ({
    t,
    people,
  }) => {
    const r = await predictNamingGP(t, people.student);
    expect(r.inputs.school).toBeNull();
    expect(r.contributions.find((c) => c.feature === "school")?.value).toBeNull();
    const [gp, ms] = (["GP", "MS"] as const).map(
      (school) => model.predict({ ...sampleQuestionnaire, school, subject: null }).scoreIfSits,
    );
    expect(r.scoreIfSits).toBeGreaterThanOrEqual(Math.min(gp!, ms!) - 1e-9);
    expect(r.scoreIfSits).toBeLessThanOrEqual(Math.max(gp!, ms!) + 1e-9);
  });
});
