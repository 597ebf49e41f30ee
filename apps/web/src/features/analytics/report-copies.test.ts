import { analyticsMessages, minGroupSize } from "@gradecast/contract/analytics";
import { behaviors } from "@gradecast/contract/reports";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, test } from "vitest";
import en from "../../locales/en/analytics.json";
import { bandRanges } from "./staff-report.tsx";

// Words of the report that the server or the contract also writes (a cohort's note, the
// behaviour ratings, the bands' ranges): the English catalogue's copies must not drift from them.

const say = (id: string, values?: Record<string, string | number>) =>
  String(
    new IntlMessageFormat((en as Record<string, string>)[id] ?? `missing ${id}`, "en").format(
      values,
    ),
  );

describe("the English report catalogue copies the contract", () => {
  test("the cohort's notes", () => {
    expect(say("analytics.report.cohort.smallCohort", { min: minGroupSize })).toBe(
      analyticsMessages.smallCohort,
    );
    expect(say("analytics.report.cohort.smallGroup", { min: minGroupSize })).toBe(
      analyticsMessages.smallGroup,
    );
  });

  test("the behaviour ratings", () => {
    const keys = ["excellent", "good", "average", "needsImprovement", "poor"];
    expect(keys.map((k) => say(`analytics.report.behavior.${k}`))).toEqual([...behaviors]);
  });

  test("the bands' ranges", () => {
    for (const band of ["improve", "good", "congratulations"] as const) {
      expect(say(`analytics.report.band.range.${band}`)).toBe(bandRanges[band]);
    }
  });
});
