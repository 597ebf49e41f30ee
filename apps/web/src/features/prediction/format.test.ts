import { describe, expect, it } from "vitest";
import { answerText } from "./format.ts";

// The explanation's table writes each answer as the questionnaire offered it (issue 21: "Yes",
// never "yes (Yes)").
describe("answerText", () => {
  it("writes an answer as the questionnaire does: Yes and No, a code with its meaning", () => {
    expect(answerText("higher", "yes")).toBe("Yes");
    expect(answerText("internet", "no")).toBe("No");
    expect(answerText("Medu", 4)).toBe("Higher education");
    expect(answerText("Mjob", "at_home")).toBe("At home");
    expect(answerText("failures", 2)).toBe("2");
    expect(answerText("G1", null)).toBe("Not known yet");
  });
});
