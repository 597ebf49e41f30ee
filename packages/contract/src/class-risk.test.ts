import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Contribution,
  compareRisk,
  isAtRisk,
  isSchoolRecordKey,
  noteCreateSchema,
  otherAnswersFeature,
  type RiskItem,
  reasonText,
  teacherReasons,
} from "./class-risk.ts";
import { questionByKey, questionKeys } from "./questionnaire.ts";

// The privacy rule of the class risk list over any explanation: a teacher is never told a
// private answer or its effect alone, the reasons still add up, and sharing names everything.
const contribution = fc.record({
  feature: fc.constantFrom(...questionKeys),
  effect: fc.double({ min: -5, max: 5, noNaN: true }),
  value: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant("yes"), fc.constant(null)),
});
const explanation = fc
  .uniqueArray(contribution, { selector: (c) => c.feature, minLength: 1 })
  .map((cs) => cs.map((c): Contribution => ({ ...c, label: questionByKey[c.feature].label })));
const sum = (xs: { effect: number }[]) => xs.reduce((s, x) => s + x.effect, 0);

describe("teacherReasons", () => {
  it("names school-record inputs only, sums the rest once, and adds up", () => {
    fc.assert(
      fc.property(explanation, (cs) => {
        const reasons = teacherReasons(cs, false);
        const named = reasons.filter((r) => r.feature !== otherAnswersFeature);
        for (const r of named) expect(isSchoolRecordKey(r.feature)).toBe(true);
        expect(reasons.filter((r) => r.feature === otherAnswersFeature)).toHaveLength(1);
        expect(sum(reasons)).toBeCloseTo(sum(cs), 9);
        const text = JSON.stringify(reasons);
        for (const c of cs) {
          if (!isSchoolRecordKey(c.feature)) expect(text).not.toContain(`"${c.feature}"`);
        }
        // Largest effect first.
        const sizes = reasons.map((r) => Math.abs(r.effect));
        expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      }),
    );
  });

  it("names every input when the student shares", () => {
    fc.assert(
      fc.property(explanation, (cs) => {
        const reasons = teacherReasons(cs, true);
        expect(reasons.map((r) => r.feature).sort()).toEqual(cs.map((c) => c.feature).sort());
      }),
    );
  });
});

describe("the list's wording and order", () => {
  it("writes a reason with its answer's label and signed effect", () => {
    const g2 = { feature: "G2", label: "Second period grade (G2)", value: 8, effect: -2.14 };
    expect(reasonText(g2 as never)).toBe("Second period grade (G2) 8: -2.1");
    const other = { feature: "other", label: "Other answers", value: null, effect: 0.46 };
    expect(reasonText(other as never)).toBe("Other answers: +0.5");
  });

  it("puts a student at risk under the pass mark or at a high risk of not sitting", () => {
    expect(isAtRisk(9.94, 0)).toBe(true);
    expect(isAtRisk(9.95, 0)).toBe(false); // shown as 10.0
    expect(isAtRisk(15, 0.25)).toBe(true);
    expect(isAtRisk(15, 0.24)).toBe(false);
    expect(isAtRisk(15, null)).toBe(false);
  });

  it("sorts at risk first, then the lowest predicted final, the silent last", () => {
    const item = (name: string, prediction: number | null, atRisk: boolean) =>
      ({ studentId: name, name, answered: prediction !== null, prediction, atRisk }) as RiskItem;
    const sorted = [
      item("silent", null, false),
      item("fine", 15, false),
      item("low", 12, false),
      item("risky", 14, true),
      item("failing", 5, true),
    ].sort(compareRisk);
    expect(sorted.map((i) => i.name)).toEqual(["failing", "risky", "low", "fine", "silent"]);
  });
});

describe("noteCreateSchema", () => {
  it("takes a note with real dates and a follow-up not before it was done", () => {
    const ok = { action: " Phoned home. ", doneOn: "2026-02-28", followUpOn: "2026-03-01" };
    expect(noteCreateSchema.parse(ok)).toEqual({ ...ok, action: "Phoned home." });
    for (const bad of [
      { ...ok, doneOn: "2026-02-29" },
      { ...ok, doneOn: "28/02/2026" },
      { ...ok, followUpOn: "2026-02-27" },
      { ...ok, action: "" },
      { ...ok, action: "a\u0007b" },
      { ...ok, author: "x" },
    ]) {
      expect(noteCreateSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
