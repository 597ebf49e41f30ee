import {
  evaluationMeasures,
  evaluationMessages,
  groupKindLabels,
  measureInfo,
  minGroupSize,
  setupLabels,
} from "@gradecast/contract/evaluation";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, test } from "vitest";
import en from "../../locales/en/evaluation.json";

// The evaluation page shows the contract's own English (the server's sentences, the CSV's
// names); the English catalogue keeps copies of those words beside the Portuguese, which must
// not drift from the contract.

const say = (id: string, values?: Record<string, string | number>) =>
  String(
    new IntlMessageFormat((en as Record<string, string>)[id] ?? `missing ${id}`, "en").format(
      values,
    ),
  );

describe("the English evaluation catalogue copies the contract", () => {
  test.each(Object.entries(setupLabels))("setup %s", (setup, label) => {
    expect(say(`evaluation.setup.${setup}`)).toBe(label);
  });

  test.each(evaluationMeasures)("measure %s", (m) => {
    expect(say(`evaluation.measure.${m}.label`)).toBe(measureInfo[m].label);
    expect(say(`evaluation.measure.${m}.explain`)).toBe(measureInfo[m].explain);
  });

  test.each(Object.entries(groupKindLabels))("group kind %s", (kind, label) => {
    expect(say(`evaluation.groupKind.${kind}`)).toBe(label);
  });

  test("messages", () => {
    expect(say("evaluation.empty.body")).toBe(evaluationMessages.empty);
    for (const count of [1, 2]) {
      expect(say("evaluation.groups.hidden", { count, min: minGroupSize })).toBe(
        evaluationMessages.groupsHidden(count),
      );
    }
    expect(
      say("evaluation.worse", {
        measure: measureInfo.rmse.label,
        value: "1.40",
        expected: "0.83",
      }),
    ).toBe(evaluationMessages.worse("rmse", 1.4, 0.83));
  });
});
