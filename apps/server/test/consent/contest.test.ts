import type { ClassRisk, RiskItem } from "@gradecast/contract/class-risk";
import { contestLimit } from "@gradecast/contract/consent";
import { describe, expect } from "vitest";
import type { SignedInUser } from "../support/accounts.ts";
import { makeClass } from "../support/class-fixtures.ts";
import { api } from "../support/class-helpers.ts";
import { apiTests } from "../support/fixtures.ts";
import { auditOf, dialects, errorOf, type TestApp } from "../support/helpers.ts";

// Human oversight (issue 31 part B): a student says "this prediction is wrong because ..."; it
// is kept with the prediction and shown on the risk list to the teachers of the student's class,
// not to an admin (who reads the list without the notes too), nor to anybody else; the audit log
// records that it was said, not what.

const tests = apiTests({
  env: { RATE_LIMITS: "off" },
  people: {
    pupil: "student",
    other: "student",
    classTeacher: "teacher",
    otherTeacher: "teacher",
  },
});

const reason = "My second-period grade was from a test I missed when I was ill.";

describe.each(dialects)("contesting a prediction (%s)", (dialect) => {
  const test = tests[dialect];

  async function predictionOf(t: TestApp, who: SignedInUser): Promise<string> {
    return (await api(t).predict(who)).id!;
  }
  const contest = (t: TestApp, who: SignedInUser | undefined, id: string, text = reason) =>
    api(t).call("POST", `/api/predictions/${id}/contest`, who, { reason: text });
  const itemOf = async (t: TestApp, who: SignedInUser, classId: string, of: SignedInUser) => {
    const res = await api(t).call("GET", `/api/classes/${classId}/risk`, who);
    return {
      status: res.statusCode,
      item: (res.json() as ClassRisk).items?.find((i) => i.studentId === of.user.uid) as
        | RiskItem
        | undefined,
    };
  };

  test("the student's own words reach their class's teachers, and nobody else", async ({
    t,
    people,
    admin,
  }) => {
    const { pupil, other, classTeacher, otherTeacher } = people;
    const classId = await makeClass(t, {
      teachers: [classTeacher.user.uid],
      students: [pupil.user.uid, other.user.uid],
    });
    await makeClass(t, { teachers: [otherTeacher.user.uid] });
    const id = await predictionOf(t, pupil);

    // Another student's prediction is not found; staff may not contest for a student.
    expect((await contest(t, other, id)).statusCode).toBe(404);
    expect((await contest(t, classTeacher, id)).statusCode).toBe(403);
    expect((await contest(t, admin, id)).statusCode).toBe(403);
    expect((await contest(t, undefined, id)).statusCode).toBe(401);
    expect((await contest(t, pupil, "not-an-id")).statusCode).toBe(404);

    const res = await contest(t, pupil, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ predictionId: id, reason });

    const seen = await itemOf(t, classTeacher, classId, pupil);
    expect(seen.item?.contest?.reason).toBe(reason);
    // The other student of the class said nothing.
    expect((await itemOf(t, classTeacher, classId, other)).item?.contest).toBeNull();
    // An admin reads the list without it (as without the notes); another class's teacher does
    // not reach the class at all.
    expect((await itemOf(t, admin, classId, pupil)).item?.contest).toBeNull();
    expect((await itemOf(t, otherTeacher, classId, pupil)).status).toBe(404);

    // Said again: the newer words replace the older.
    const newer = "The absences were an illness with a doctor's note.";
    expect((await contest(t, pupil, id, newer)).statusCode).toBe(200);
    expect((await itemOf(t, classTeacher, classId, pupil)).item?.contest?.reason).toBe(newer);

    const entries = await auditOf(t, "prediction.contest", pupil.user.uid);
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain("illness");
  });

  test("the words are bounded plain text", async ({ t, people }) => {
    const id = await predictionOf(t, people.pupil);
    for (const bad of ["", "   ", "x".repeat(contestLimit + 1), "bell\u0007"]) {
      const res = await contest(t, people.pupil, id, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(errorOf(res.body).code).toBe("validation_failed");
    }
    expect((await contest(t, people.pupil, id, "y".repeat(contestLimit))).statusCode).toBe(200);
  });
});
