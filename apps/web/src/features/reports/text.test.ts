import { behaviors, reportLimits } from "@gradecast/contract/reports";
import { plainTextMessage } from "@gradecast/contract/text";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, test } from "vitest";
import reports from "../../locales/en/reports.json";
import ptReports from "../../locales/pt-PT/reports.json";
import { englishNumberError } from "./form.ts";

// The report screens' English catalogue copies words the contract also writes (the schema's
// messages, the stored behaviours): English pages keep saying exactly what the contract says.
const say = (messages: Record<string, string>, id: string, values?: Record<string, unknown>) =>
  String(new IntlMessageFormat(messages[id] ?? `missing ${id}`, "en").format(values as never));

describe("English report words that copy the contract", () => {
  test("a number out of range, and control characters", () => {
    const problem = { shown: "101", min: 0, max: reportLimits.marks.max };
    expect(say(reports, "reports.field.notWholeNumber", problem)).toBe(englishNumberError(problem));
    expect(say(reports, "reports.field.plainText")).toBe(plainTextMessage);
  });

  test("each behaviour is shown in English as it is stored", () => {
    const ids = Object.keys(reports).filter((id) => id.startsWith("reports.behavior."));
    expect(ids.map((id) => say(reports, id))).toEqual([...behaviors]);
    expect(ids.map((id) => (ptReports as Record<string, string>)[id])).toEqual([
      "Excelente",
      "Bom",
      "Médio",
      "Precisa de melhorar",
      "Fraco",
    ]);
  });
});
